// The 'calm-fastest' figure: the fastest-low figure of the processes the
// state probe found in the CPU's fast state. Synthetic processes shaped as
// measured on the development machine (2026-12-06, stop 50's sittings of
// `sha1/1500/wasm` at --time 1, 34 slices a process): in the fast state the
// case's fastest batch reads 2430-2480 ns in nearly every process (sd of log
// about 0.4%) while the probe beside it reads about 6600 ns; the CPU flickers
// into a slow state (case x1.35-2.0, probe about x1.4) for some slices of
// most processes, and a few processes meet nothing but the slow state (probe
// level 8300-8800 ns, the case's fastest 2760-3670 ns).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectEnv } from '../env.js';
import { calibrateBetweenRuns, severalProcessesOutlook } from '../calibration/between-runs.js';
import { readRunResult, stringifyResult } from '../results/file.js';
import { lowQuantile, normalVariate, seededRandom, type RandomSource } from '../stats/stats.js';
import type { CaseResult, RunResult } from '../types.js';
import { compareResults } from './compare.js';
import { calmLevel, caseFigure, isCalmBasis, lowSliceQuantile, sliceFigures } from './figures.js';
import { calmBasesFor, fixedRunNoise, runNoiseFromCalibration } from './noise.js';
import { calmProcessFigures, mergeProcessRuns } from './processes.js';

const env = collectEnv();
const id = 'sha1/1500/wasm';
const slices = 34;

interface ProcessShape {
  /** The case's fast-state time, ns. */
  ns: number;
  /** Slow throughout (no slice in the fast state). */
  slowWhole?: boolean;
  /** Share of slices in the slow state otherwise. */
  flicker?: number;
}

/** One process of the case: slice fastest batches and medians, the reference and the state probe beside each slice. */
function probedCase(shape: ProcessShape, random: RandomSource): CaseResult {
  const slow = Array.from({ length: slices }, () => shape.slowWhole === true || random() < (shape.flicker ?? 0.3));
  const sliceFastest = slow.map(
    (s) => shape.ns * (s ? 1.35 + 0.5 * random() : 1) * (1 + 0.001 * Math.abs(normalVariate(random))),
  );
  const sliceMedians = sliceFastest.map((v) => v * 1.04);
  // The probe between slices i-1 and i reads the state of one of them.
  const probes = Array.from({ length: slices + 1 }, (_, k) => {
    const s = slow[k === 0 ? 0 : k === slices ? slices - 1 : random() < 0.5 ? k - 1 : k]!;
    return 6600 * (s ? 1.3 + 0.1 * random() : 1) * (1 + 0.003 * Math.abs(normalVariate(random)));
  });
  const refs = Array(slices + 1).fill(1000);
  return {
    id,
    layer: 'sha1-dispatch',
    params: {},
    status: 'ok',
    samples: sliceMedians,
    sliceMedians,
    sliceFastest,
    reference: { work: 'w', sliceMedians: refs, sliceFastest: refs },
    relativeSliceMedians: sliceMedians.map((v) => v / 1000),
    sliceStateProbes: probes,
  };
}

function oneProcess(c: CaseResult, minute: number): RunResult {
  return {
    kind: 'layerbench/run',
    schemaVersion: 1,
    createdAt: `2026-12-06T10:${String(minute).padStart(2, '0')}:00Z`,
    suites: ['sha1'],
    options: { timePerCase: 1, reference: 'w', stateProbe: 'store-reload-16x80' },
    env,
    cases: [c],
  };
}

/**
 * k processes at `ns` (each off by sd 0.4%), those in `slowWhole` slow
 * throughout, the others flickering into the slow state for 30% of their slices.
 */
function processes(
  k: number,
  ns: number,
  random: RandomSource,
  slowWhole: ReadonlySet<number> = new Set(),
): RunResult[] {
  return Array.from({ length: k }, (_, p) =>
    oneProcess(
      probedCase({ ns: ns * Math.exp(0.004 * normalVariate(random)), slowWhole: slowWhole.has(p) }, random),
      p,
    ),
  );
}

describe("the 'calm-fastest' figure", () => {
  it('is the low quantile of the slice fastest batches of a case with a probe beside every slice', () => {
    const c = probedCase({ ns: 2450 }, seededRandom(1));
    expect(sliceFigures(c, 'calm-fastest')).toEqual(c.sliceFastest);
    expect(caseFigure(c, 'calm-fastest')).toBe(lowQuantile(c.sliceFastest!, lowSliceQuantile));
    expect(caseFigure(c, 'calm-fastest')).toBe(caseFigure(c, 'fastest-low'));
    expect(isCalmBasis('calm-fastest')).toBe(true);
    // No probes, or probes that are not one beside each slice: no calm-fastest figure.
    const { sliceStateProbes: _, ...unprobed } = c;
    expect(caseFigure(unprobed, 'calm-fastest')).toBeUndefined();
    expect(caseFigure({ ...c, sliceStateProbes: c.sliceStateProbes!.slice(1) }, 'calm-fastest')).toBeUndefined();
  });

  it("is kept per process with each process's calm level when processes are merged, and the levels are checked", () => {
    const runs = processes(5, 2450, seededRandom(2), new Set([3]));
    const merged = mergeProcessRuns(runs).cases[0]!;
    expect(merged.processFigures!['calm-fastest']).toEqual(runs.map((r) => caseFigure(r.cases[0]!, 'calm-fastest')));
    expect(merged.processProbeLevels).toEqual(runs.map((r) => calmLevel(r.cases[0]!)));
    // The process slow throughout has the slow state's level.
    expect(merged.processProbeLevels![3]).toBeGreaterThan(1.25 * merged.processProbeLevels![0]!);
    // A file whose levels do not match its calm-fastest figures is refused, naming the field.
    const dir = mkdtempSync(path.join(tmpdir(), 'calm-fastest-'));
    try {
      const bad = mergeProcessRuns(runs);
      bad.cases[0]!.processProbeLevels = bad.cases[0]!.processProbeLevels!.slice(1);
      const file = path.join(dir, 'bad.json');
      writeFileSync(file, stringifyResult(bad));
      expect(() => readRunResult(file)).toThrow(/processProbeLevels/);
      const good = path.join(dir, 'good.json');
      writeFileSync(good, stringifyResult(mergeProcessRuns(runs)));
      expect(readRunResult(good).cases[0]!.processProbeLevels).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the processes slow throughout out of the comparison by their probe level, not by their figure', () => {
    const random = seededRandom(3);
    const base = mergeProcessRuns(processes(6, 2450, random, new Set([2])));
    const head = mergeProcessRuns(processes(6, 2450 * 1.05, random, new Set([0, 4])));
    const picked = calmProcessFigures(base.cases[0]!, head.cases[0]!, 3, 'calm-fastest')!;
    expect(picked.base).toHaveLength(5);
    expect(picked.head).toHaveLength(4);
    expect(Math.max(...picked.base)).toBeLessThan(2450 * 1.02);
  });
});

describe('a calibration that measures the calm-fastest spread', () => {
  // 18 processes as a calibration: three of them slow throughout (as in stop 50's two sittings: 2 and 1 of 18).
  const calibration = calibrateBetweenRuns(processes(18, 2450, seededRandom(4), new Set([4, 9, 15])), {
    iterations: 499,
  });
  const spread = calibration.cases[id]!;

  it('measures it over the processes in the fast state, with their level; one-process runs keep another basis', () => {
    expect(spread.processesOn?.['calm-fastest']).toBe(15);
    expect(spread.sigma['calm-fastest']!).toBeLessThan(0.008);
    // Over all processes the fastest-low figure carries the three slow ones.
    expect(spread.sigma['fastest-low']!).toBeGreaterThan(0.1);
    expect(spread.calmLevels?.['calm-fastest']).toBeGreaterThan(6500);
    expect(spread.calmLevels?.['calm-fastest']).toBeLessThan(6700);
    expect(isCalmBasis(calibration.basis)).toBe(false);
    const noise = runNoiseFromCalibration(calibration);
    expect(noise.calm).toBe(true);
    expect(calmBasesFor(noise, id)[0]).toBe('calm-fastest');
    expect(noise.calmLevelFor!(id, 'calm-fastest')).toBe(spread.calmLevels!['calm-fastest']);
  });

  it('gives runs of 4 processes a side a detectable effect of a few percent on it', () => {
    const outlook = severalProcessesOutlook(calibration, 4)[id]!;
    expect(outlook.basis).toBe('calm-fastest');
    expect(outlook.minimumDetectableEffect!).toBeLessThan(0.045);
    // Two a side: not a calm comparison (three calm processes a side at least).
    expect(severalProcessesOutlook(calibration, 2)[id]!.basis).toBe(calibration.basis);
  });

  it('lets compare find +5% of one case between runs of 6 processes, some slow throughout', () => {
    const random = seededRandom(5);
    let found = 0;
    for (let pair = 0; pair < 20; pair++) {
      const base = mergeProcessRuns(processes(6, 2450, random, new Set(random() < 0.5 ? [1] : [])));
      const head = mergeProcessRuns(processes(6, 2450 * 1.05, random, new Set(random() < 0.5 ? [3] : [])));
      const c = compareResults(base, head, { noise: runNoiseFromCalibration(calibration), geomean: false }).cases[0]!;
      expect(c.method).toBe('calm-fastest');
      if (c.verdict === 'regressed') found++;
    }
    expect(found).toBeGreaterThanOrEqual(18);
  });

  it('keeps false alarms below alpha over many A/A pairs of 4-6 processes, some slow throughout', () => {
    const random = seededRandom(6);
    let flagged = 0;
    let onCalm = 0;
    for (let pair = 0; pair < 200; pair++) {
      const k = 4 + Math.floor(random() * 3);
      const base = mergeProcessRuns(processes(k, 2450, random, new Set(random() < 0.3 ? [0] : [])));
      const head = mergeProcessRuns(processes(k, 2450, random, new Set(random() < 0.3 ? [k - 1] : [])));
      const c = compareResults(base, head, { noise: runNoiseFromCalibration(calibration), geomean: false }).cases[0]!;
      if (c.method === 'calm-fastest') onCalm++;
      if (c.verdict === 'regressed' || c.verdict === 'improved') flagged++;
    }
    expect(onCalm).toBeGreaterThan(190);
    expect(flagged).toBeLessThanOrEqual(4);
  });

  it('is not used with a calibration that did not measure it (written before calm-fastest)', () => {
    const older = structuredClone(calibration);
    delete older.pooled['calm-fastest'];
    for (const c of Object.values(older.cases)) {
      delete c.sigma['calm-fastest'];
      delete c.calmLevels;
    }
    const random = seededRandom(7);
    const base = mergeProcessRuns(processes(6, 2450, random));
    const head = mergeProcessRuns(processes(6, 2450, random));
    const c = compareResults(base, head, { noise: runNoiseFromCalibration(older), geomean: false }).cases[0]!;
    expect(c.method).not.toBe('calm-fastest');
    // A fixed model on it (tests, or a user who knows the machine) compares on it.
    const fixed = fixedRunNoise(0.004, 20, 'calm-fastest');
    expect(compareResults(base, head, { noise: fixed, geomean: false }).cases[0]!.method).toBe('calm-fastest');
    // Nor between runs whose state probes were other workloads: their levels do not compare.
    const otherProbe = { ...head, options: { ...head.options, stateProbe: 'another-probe' } };
    const mixed = compareResults(base, otherProbe, { noise: runNoiseFromCalibration(calibration), geomean: false });
    expect(mixed.cases[0]!.method).not.toBe('calm-fastest');
  });
});
