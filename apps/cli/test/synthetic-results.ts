// Synthetic run result files for compare/check tests: known sample
// distributions (seeded), so verdicts do not depend on this machine's timing.
import { computeStats, seededRandom } from '@layerbench/bench-runner/stats';
import type { BetweenRunCalibration, CaseResult, EnvFingerprint, RunResult } from '@layerbench/bench-runner';
import type { BisectCase, BisectResult } from '@layerbench/bench-runner/results';
import { summarise } from '../src/bisect/run.ts';

export function syntheticEnv(overrides: Partial<EnvFingerprint> = {}): EnvFingerprint {
  return {
    node: 'v20.20.2',
    v8: '11.3.244.8-node.33',
    openssl: '3.0.17',
    os: 'linux 6.1.0 x64',
    cpuModel: 'Synthetic CPU @ 3.00GHz',
    cpuCount: 2,
    loadAvgStart: [0.5, 0.5, 0.5],
    loadAvgEnd: [0.5, 0.5, 0.5],
    capabilities: '00000003',
    dispatch: [{ layer: 'sha1-dispatch', decision: 'whole-message', impl: 'unrolled', reason: 'synthetic' }],
    layers: [{ name: '@layerbench/sha1-dispatch', version: '0.1.0', source: 'workspace' }],
    machineId: 'synthetic-machine',
    ...overrides,
  };
}

/** Samples around `centerNs` with about 1% relative noise, from a fixed seed. */
export function samplesAround(centerNs: number, seed: number, count = 60): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => centerNs * (1 + (random() - 0.5) * 0.02));
}

export function syntheticCase(id: string, samples: number[], digest = 'abcd'): CaseResult {
  return {
    id,
    layer: 'sha1-dispatch',
    params: { algorithm: 'SHA-1', size: 64, impl: 'unrolled' },
    bytesPerOp: 64,
    status: 'ok',
    digest,
    samples,
    stats: computeStats(samples, 64),
  };
}

export function syntheticRun(cases: CaseResult[], env: EnvFingerprint = syntheticEnv()): RunResult {
  return {
    kind: 'layerbench/run',
    schemaVersion: 1,
    createdAt: '2026-11-30T14:00:00.000Z',
    suites: ['sha1'],
    options: { timePerCase: 0.5 },
    env,
    cases,
  };
}

/**
 * A between-run calibration of `env` at `timePerCase` with these per-case
 * spreads (8 processes at load average `load`, nothing flagged, no
 * detection table): enough for the store's lookup and for what a test
 * reads of the cases.
 */
export function syntheticCalibration(
  env: EnvFingerprint,
  timePerCase: number,
  cases: BetweenRunCalibration['cases'],
  load = 1,
): BetweenRunCalibration {
  return {
    kind: 'layerbench/between-runs',
    schemaVersion: 1,
    createdAt: '2026-12-05T12:00:00.000Z',
    env,
    suites: ['sha1'],
    timePerCase,
    processes: 8,
    load: Array(8).fill([load, load]),
    threshold: 0.02,
    alpha: 0.01,
    basis: 'fastest-low',
    pooled: { 'fastest-low': { p50: 0.1, p90: 0.15 } },
    floor: { quantile: 0, sigma: 0 },
    cases,
    falseAlarms: { flagged: 0, compared: 168, pairsFlagged: 0, pairs: 28 },
    detection: [],
  };
}

/** A bisect result file of these cases (paired defaults, no variants or layers), as check --against reads one. */
export function syntheticBisect(cases: BisectCase[], complete = true): BisectResult {
  const options = { suites: ['sha1'], timePerCase: 0.6, rounds: 12, processes: 6, paired: true };
  return {
    kind: 'layerbench/bisect',
    schemaVersion: 2,
    createdAt: '2026-12-04T13:00:00.000Z',
    options: { ...options, visitPercentile: 10, threshold: 0.03, alpha: 0.01, peers: false },
    machine: { cpuModel: 'test', cpuCount: 2, os: 'linux' },
    good: { spec: 'git:good', layers: [] },
    bad: { spec: 'git:bad', layers: [] },
    ...{ layers: [], changes: [], variants: [] },
    cases,
    summary: summarise(cases),
    complete,
  };
}
