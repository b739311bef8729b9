import { describe, expect, it } from 'vitest';
import { collectEnv } from '../env.js';
import { compareResults, diffFingerprints } from './compare.js';
import { computeStats, normalVariate, seededRandom } from '../stats/stats.js';
import type { CaseResult, RunResult } from '../types.js';

function normalSamples(n: number, mu: number, sigma: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => mu + sigma * normalVariate(random));
}

function caseResult(id: string, samples: number[], extra: Partial<CaseResult> = {}): CaseResult {
  return { id, layer: 'cmac', params: { algorithm: 'AES-128' }, status: 'ok', samples, digest: 'aa', ...(samples.length > 0 ? { stats: computeStats(samples) } : {}), ...extra };
}

function run(cases: CaseResult[], env = collectEnv()): RunResult {
  return { kind: 'layerbench/run', schemaVersion: 1, createdAt: '2026-11-30T14:00:00Z', suites: [], options: { timePerCase: 1 }, env, cases };
}

describe('compareResults', () => {
  const baseEnv = collectEnv({
    capabilities: 'ffebffff 7ffef3ff 000037ab 00000000',
    dispatch: [
      { layer: 'sha1-dispatch', decision: 'block', impl: 'avx2-like', reason: 'fastest' },
      { layer: 'aes-core', decision: 'backend', impl: 'table', reason: 'default' },
    ],
    layers: [
      { name: '@layerbench/sha1-dispatch', version: '1.0.0', commit: 'a'.repeat(40), contentHash: '1'.repeat(64) },
      { name: '@layerbench/cmac', version: '1.0.0' },
    ],
  });
  const headEnv = {
    ...baseEnv,
    node: '16.20.2',
    dispatch: [
      { layer: 'sha1-dispatch', decision: 'block', impl: 'generic', reason: 'fallback' },
      { layer: 'aes-core', decision: 'backend', impl: 'table', reason: 'default' },
    ],
    layers: [
      { name: '@layerbench/sha1-dispatch', version: '1.1.0', commit: 'b'.repeat(40), contentHash: '1'.repeat(64) },
      { name: '@layerbench/esp', version: '0.1.0' },
    ],
  };
  const base = run(
    [
      caseResult('same', normalSamples(300, 100, 1, 1)),
      caseResult('slower', normalSamples(300, 100, 1, 2)),
      caseResult('digest', normalSamples(300, 50, 1, 3), { digest: 'aa' }),
      caseResult('gone', normalSamples(30, 50, 1, 4)),
      caseResult('broken-head', normalSamples(30, 50, 1, 5)),
      caseResult('broken-base', [], { status: 'failed', error: { name: 'Error', message: 'x' } }),
    ],
    baseEnv,
  );
  const head = run(
    [
      caseResult('same', normalSamples(300, 100, 1, 11)),
      caseResult('slower', normalSamples(300, 145, 1, 12), { implementation: 'generic' }),
      caseResult('digest', normalSamples(300, 50, 1, 13), { digest: 'bb' }),
      caseResult('new', normalSamples(30, 50, 1, 14)),
      caseResult('broken-head', [], { status: 'failed', error: { name: 'Error', message: 'y' } }),
      caseResult('broken-base', normalSamples(30, 50, 1, 15)),
    ],
    headEnv,
  );
  const cmp = compareResults(base, head, { threshold: 0.02, alpha: 0.01 });

  it('gives per-case verdicts, ratios and digest changes', () => {
    const byId = new Map(cmp.cases.map((c) => [c.id, c]));
    expect([...byId.keys()]).toEqual(['same', 'slower', 'digest']);
    expect(byId.get('same')!.verdict).toBe('unchanged');
    expect(byId.get('slower')!.verdict).toBe('regressed');
    expect(byId.get('slower')!.ratio).toBeCloseTo(1.45, 2);
    expect(byId.get('slower')!.headImpl).toBe('generic');
    expect(byId.get('digest')!.digestChanged).toBe(true);
    expect(byId.get('same')!.digestChanged).toBe(false);
    expect(cmp.summary).toEqual({ regressed: 1, improved: 0, unchanged: 2, inconclusive: 0 });
  });

  it('lists one-sided and failed cases', () => {
    expect(cmp.onlyBase).toEqual(['gone']);
    expect(cmp.onlyHead).toEqual(['new']);
    expect(cmp.failed.sort()).toEqual(['broken-base', 'broken-head']);
  });

  it('reports fingerprint differences keyed by layer and decision', () => {
    expect(cmp.fingerprintDiffs).toEqual(
      expect.arrayContaining([
        { kind: 'runtime', what: 'node', base: process.versions.node, head: '16.20.2' },
        { kind: 'dispatch', what: 'sha1-dispatch: block', base: 'avx2-like', head: 'generic' },
        { kind: 'layer', what: '@layerbench/sha1-dispatch', base: '1.0.0', head: '1.1.0', field: 'version' },
        { kind: 'layer', what: '@layerbench/sha1-dispatch', base: 'a'.repeat(40), head: 'b'.repeat(40), field: 'commit' },
        { kind: 'layer', what: '@layerbench/cmac', base: '1.0.0', head: '(absent)', field: 'presence' },
        { kind: 'layer', what: '@layerbench/esp', base: '(absent)', head: '0.1.0', field: 'presence' },
      ]),
    );
    expect(cmp.fingerprintDiffs.filter((d) => d.what.startsWith('aes-core'))).toEqual([]);
    expect(cmp.fingerprintDiffs.filter((d) => d.field === 'contentHash')).toEqual([]);
    expect(diffFingerprints(baseEnv, baseEnv)).toEqual([]);
  });

  it('summarises with a geometric mean and its CI', () => {
    const expected = Math.cbrt(cmp.cases.reduce((p, c) => p * c.ratio, 1));
    expect(cmp.geomean.ratio).toBeCloseTo(expected, 12);
    expect(cmp.geomean.ci[0]).toBeLessThan(cmp.geomean.ratio);
    expect(cmp.geomean.ci[1]).toBeGreaterThan(cmp.geomean.ratio);
  });

  it('tests slice medians when both sides have them, pooled samples otherwise', () => {
    const slices = (mu: number) => [0, 1, -1, 0.5, -0.5, 2, -2, 0.2, -0.2, 0].map((d) => mu + d);
    // The pooled samples alone would call this 1% shift significant; the slices do not.
    const b = caseResult('x', normalSamples(2000, 100, 0.5, 21), { sliceMedians: slices(100) });
    const h = caseResult('x', normalSamples(2000, 101, 0.5, 22), { sliceMedians: slices(101) });
    const bySlices = compareResults(run([b]), run([h])).cases[0]!;
    expect(bySlices.method).toBe('slices');
    expect(bySlices.pValue).toBeGreaterThan(0.01);
    // The slices' 99% interval reaches past 1 + 2%: too wide to call it unchanged either.
    expect(bySlices.verdict).toBe('inconclusive');
    const pooled = compareResults(run([{ ...b, sliceMedians: undefined }]), run([h])).cases[0]!;
    expect(pooled.method).toBe('samples');
    expect(pooled.pValue).toBeLessThan(0.001);
    expect(pooled.ratioCi[0]).toBeGreaterThan(1);
    const slower = caseResult('x', normalSamples(2000, 110, 0.5, 23), { sliceMedians: slices(110) });
    const regressed = compareResults(run([b]), run([slower])).cases[0]!;
    expect(regressed.method).toBe('slices');
    expect(regressed.verdict).toBe('regressed');
  });

  it('warns about an overloaded machine and different machines', () => {
    const quiet = { ...baseEnv, loadAvgStart: [0.5, 0, 0], loadAvgEnd: [0.7, 0, 0], cpuCount: 2 };
    expect(compareResults(run([], quiet), run([], quiet)).warnings).toEqual([]);
    const busy = { ...quiet, loadAvgEnd: [9.7, 0, 0], machineId: 'other' };
    const warnings = compareResults(run([], quiet), run([], busy)).warnings!;
    expect(warnings[0]).toMatch(/^head ran with load average 9\.7 on 2 CPU\(s\)/);
    expect(warnings[1]).toContain('different machines');
  });

  it('has the compare kind and schema version', () => {
    expect(cmp.kind).toBe('layerbench/compare');
    expect(cmp.schemaVersion).toBe(1);
    expect(cmp.threshold).toBe(0.02);
    expect(cmp.alpha).toBe(0.01);
  });
});
