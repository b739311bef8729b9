import { describe, expect, it } from 'vitest';
import { collectEnv } from '../env.js';
import {
  codeUnchanged,
  comparisonWarnings,
  recordedPackages,
  compareResults,
  compareSeparateRuns,
  diffFingerprints,
  environmentMismatch,
  peakLoad,
} from './compare.js';
import { calmLevel, calmLevelsAgree, calmSlices, probeLevel } from './figures.js';
import { defaultRunNoise, fixedRunNoise, runNoiseFromCalibration } from './noise.js';
import { caseNote } from '../reporters/comparison.js';
import { computeStats, normalVariate, seededRandom } from '../stats/stats.js';
import type { CaseResult, RunResult } from '../types.js';

function normalSamples(n: number, mu: number, sigma: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => mu + sigma * normalVariate(random));
}

function caseResult(id: string, samples: number[], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    layer: 'cmac',
    params: { algorithm: 'AES-128' },
    status: 'ok',
    samples,
    digest: 'aa',
    ...(samples.length > 0 ? { stats: computeStats(samples) } : {}),
    ...extra,
  };
}

function run(cases: CaseResult[], env = collectEnv()): RunResult {
  return {
    kind: 'layerbench/run',
    schemaVersion: 1,
    createdAt: '2026-11-30T14:00:00Z',
    suites: [],
    options: { timePerCase: 1 },
    env,
    cases,
  };
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
  // Within-run only (no between-run spread): what these synthetic runs model.
  const cmp = compareResults(base, head, {
    threshold: 0.02,
    alpha: 0.01,
    noise: fixedRunNoise(0),
    acrossEnvironments: true,
  });

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
        {
          kind: 'layer',
          what: '@layerbench/sha1-dispatch',
          base: 'a'.repeat(40),
          head: 'b'.repeat(40),
          field: 'commit',
        },
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
    const bySlices = compareResults(run([b]), run([h]), { noise: fixedRunNoise(0) }).cases[0]!;
    expect(bySlices.method).toBe('median');
    expect(bySlices.pValue).toBeGreaterThan(0.01);
    // The slices' 99% interval reaches past 1 + 2%: too wide to call it unchanged either.
    expect(bySlices.verdict).toBe('inconclusive');
    const pooled = compareResults(run([{ ...b, sliceMedians: undefined }]), run([h]), { noise: fixedRunNoise(0) })
      .cases[0]!;
    expect(pooled.method).toBe('samples');
    expect(pooled.pValue).toBeLessThan(0.001);
    expect(pooled.ratioCi[0]).toBeGreaterThan(1);
    const slower = caseResult('x', normalSamples(2000, 110, 0.5, 23), { sliceMedians: slices(110) });
    const regressed = compareResults(run([b]), run([slower]), { noise: fixedRunNoise(0) }).cases[0]!;
    expect(regressed.method).toBe('median');
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

  it('warns when the two runs were measured on different CPUs of one machine, or one of them on none', () => {
    const quiet = { ...collectEnv(), loadAvgStart: [0.1, 0, 0], loadAvgEnd: [0.1, 0, 0] };
    const onOne = { ...quiet, measuredOnCpu: 1 };
    expect(compareResults(run([], onOne), run([], onOne)).warnings).toEqual([]);
    expect(compareResults(run([], { ...quiet, measuredOnCpu: 0 }), run([], onOne)).warnings).toEqual([
      expect.stringMatching(/^base measured on CPU 0, head on CPU 1: .* measure both with the same --cpu$/),
    ]);
    expect(compareResults(run([], quiet), run([], onOne)).warnings![0]).toMatch(
      /^base measured on no one CPU, head on CPU 1/,
    );
  });

  it('has the compare kind and schema version', () => {
    expect(cmp.kind).toBe('layerbench/compare');
    expect(cmp.schemaVersion).toBe(1);
    expect(cmp.threshold).toBe(0.02);
    expect(cmp.alpha).toBe(0.01);
  });
});

/** Ten slice medians around `mu` (the shape runCases records). */
function sliced(id: string, mu: number, seed: number, extra: Partial<CaseResult> = {}): CaseResult {
  const sliceMedians = normalSamples(10, mu, mu * 0.003, seed);
  return caseResult(id, normalSamples(200, mu, mu * 0.01, seed + 1000), { sliceMedians, ...extra });
}

describe('compareResults across separate runs', () => {
  const env = collectEnv();
  const at = (cases: CaseResult[], e = env) => run(cases, e);

  it('without a calibration assumes the conservative default: +45% is inconclusive, x3 regressed, and says so', () => {
    const cmp = compareResults(
      at([sliced('a', 100, 1), sliced('b', 100, 2)]),
      at([sliced('a', 145, 3), sliced('b', 300, 4)]),
    );
    expect(cmp.noise?.source).toBe('default');
    expect(cmp.noise?.description).toMatch(/conservative default/);
    const byId = new Map(cmp.cases.map((c) => [c.id, c]));
    expect(byId.get('a')!.verdict).toBe('inconclusive');
    expect(byId.get('b')!.verdict).toBe('regressed');
    expect(byId.get('b')!.betweenRuns).toEqual({
      sigma: defaultRunNoise().spreadFor('b', 'fastest').sigma,
      dof: 3,
      source: 'default',
    });
    // The default compares the fastest batch of each slice; these results have only medians.
    expect(byId.get('b')!.method).toBe('median');
  });

  it('compares the fastest batch of each slice when the basis asks for it, falling back to medians', () => {
    const withFastest = (id: string, mu: number, fastest: number, seed: number) =>
      sliced(id, mu, seed, { sliceFastest: normalSamples(10, fastest, fastest * 0.002, seed + 3) });
    // Medians 20% slower (preempted batches), the fastest batches unchanged.
    const cmp = compareResults(at([withFastest('x', 100, 90, 61)]), at([withFastest('x', 120, 90, 62)]), {
      noise: fixedRunNoise(0.002, Infinity, 'fastest'),
    });
    expect(cmp.cases[0]!.method).toBe('fastest');
    expect(cmp.cases[0]!.verdict).toBe('unchanged');
    const medians = compareResults(at([withFastest('x', 100, 90, 61)]), at([withFastest('x', 120, 90, 62)]), {
      noise: fixedRunNoise(0.002, Infinity, 'median'),
    });
    expect(medians.cases[0]!.verdict).toBe('regressed');
  });

  it("'fastest-low' reads each run at its fast phase: a slow phase in part of a run moves it only when every phase is slower", () => {
    // 34 slices: the fastest batches of a fast phase (~90) and of a slow phase (~140, e.g. another job on the core).
    const phases = (fast: number, slowSlices: number, seed: number) => {
      const values = normalSamples(34, fast, fast * 0.002, seed);
      for (let i = 0; i < slowSlices; i++) values[i] = values[i]! * 1.55;
      return values;
    };
    const withPhases = (id: string, fast: number, slowSlices: number, seed: number) =>
      sliced(id, fast * 1.1, seed, { sliceFastest: phases(fast, slowSlices, seed + 5) });
    const low = fixedRunNoise(0.003, Infinity, 'fastest-low');
    // The head spent 20 of 34 slices in the slow phase: same code, same fast phase.
    const aa = compareResults(at([withPhases('x', 90, 2, 71)]), at([withPhases('x', 90, 20, 72)]), { noise: low });
    expect(aa.cases[0]!.method).toBe('fastest-low');
    expect(aa.cases[0]!.verdict).toBe('unchanged');
    expect(aa.cases[0]!.ratio).toBeCloseTo(1, 2);
    const byFastest = compareResults(at([withPhases('x', 90, 2, 71)]), at([withPhases('x', 90, 20, 72)]), {
      noise: fixedRunNoise(0.003, Infinity, 'fastest'),
    });
    // The median of the slices' fastest batches sits in the slow phase: not unchanged there.
    expect(byFastest.cases[0]!.ratio).toBeGreaterThan(1.3);
    expect(byFastest.cases[0]!.verdict).not.toBe('unchanged');
    // Every phase 5% slower: regressed, by 5%.
    const slower = compareResults(at([withPhases('x', 90, 2, 71)]), at([withPhases('x', 94.5, 2, 73)]), {
      noise: low,
    });
    expect(slower.cases[0]!.verdict).toBe('regressed');
    expect(slower.cases[0]!.ratio).toBeCloseTo(1.05, 2);
    // A result without slice fastest batches falls back to the slice medians.
    const old = compareResults(at([sliced('y', 100, 81)]), at([sliced('y', 100, 82)]), { noise: low });
    expect(old.cases[0]!.method).toBe('median');
  });

  it('widens a case by what the state probe says the machine did between the runs', () => {
    const tight = fixedRunNoise(0.01, Infinity, 'median');
    const probed = (cases: CaseResult[]) => ({
      ...at(cases),
      options: { timePerCase: 1, stateProbe: 'store-reload-16x80' },
    });
    const base = probed([
      sliced('a', 100, 1, { stateProbe: [4400, 4410] }),
      sliced('b', 100, 2, { stateProbe: [4410, 4420] }),
    ]);
    // The shared CPU's slow state in the head run: the probe x1.45; case a +30% (the state's), case b x5 (code).
    const head = probed([
      sliced('a', 130, 3, { stateProbe: [6380, 6400] }),
      sliced('b', 500, 4, { stateProbe: [6390, 6400] }),
    ]);
    const cmp = compareResults(base, head, { noise: tight, geomean: false });
    const byId = new Map(cmp.cases.map((c) => [c.id, c]));
    expect(byId.get('a')!.stateRatio).toBeCloseTo(1.45, 2);
    expect(byId.get('a')!.verdict).toBe('inconclusive');
    // The interval reaches down over the state's share: 1.3 / 1.45^1.5 = 0.74.
    expect(byId.get('a')!.ratioCi[0]).toBeLessThan(0.8);
    expect(byId.get('b')!.verdict).toBe('regressed');
    expect(caseNote(byId.get('a')!)).toBe('machine state x1.45');
    expect((cmp.warnings ?? []).join(' ')).toMatch(
      /the shared CPU was in another state in the two runs for 2 case\(s\): a store-and-reload probe ran x1\.45/,
    );
    // The same timings with the probe unmoved: a is regressed, and nothing is said.
    const steady = probed([
      sliced('a', 130, 3, { stateProbe: [4400, 4420] }),
      sliced('b', 500, 4, { stateProbe: [4410, 4400] }),
    ]);
    const same = compareResults(base, steady, { noise: tight, geomean: false });
    expect(same.cases[0]!.verdict).toBe('regressed');
    expect(same.cases[0]!.stateRatio).toBeUndefined();
    expect((same.warnings ?? []).join(' ')).not.toMatch(/another state/);
    // The state flipped during the case in both runs (measured: probes 4411/6933 and 7260/4356 ns around it, the
    // case x1.68): the means of the probes agree, the range does not, and the range counts.
    const flipped = compareResults(
      probed([sliced('a', 100, 1, { stateProbe: [4411, 6933] })]),
      probed([sliced('a', 168, 3, { stateProbe: [7260, 4356] })]),
      { noise: tight, geomean: false },
    ).cases[0]!;
    expect(flipped.stateRatio).toBeCloseTo(7260 / 4411, 6);
    expect(flipped.verdict).toBe('inconclusive');
    // Runs probed with other work (or not at all) are not compared through the probe.
    const other = { ...head, options: { timePerCase: 1, stateProbe: 'another-probe' } };
    expect(compareResults(base, other, { noise: tight, geomean: false }).cases[0]!.verdict).toBe('regressed');
  });

  /**
   * 34 slices of a case relative to the reference (`mu`), with the state probe
   * beside each reference slice (35 values at `level`); the slices in `slow`
   * ran in the shared CPU's slow state: the probe around them x1.5 and the
   * case x1.3 there.
   */
  const calm = (id: string, mu: number, seed: number, slow: ReadonlySet<number>, level = 4400): CaseResult => {
    const relativeSliceMedians = normalSamples(34, mu, mu * 0.003, seed).map((v, i) => (slow.has(i) ? v * 1.3 : v));
    const sliceStateProbes = normalSamples(35, level, level * 0.005, seed + 1).map((v, i) =>
      slow.has(i) || slow.has(i - 1) ? v * 1.5 : v,
    );
    return sliced(id, mu * 5000, seed + 2, {
      reference: { work: 'xorshift-table-1024x256', sliceMedians: Array(35).fill(5000) },
      relativeSliceMedians,
      sliceFastest: relativeSliceMedians.map((v, i) => v * 4900 * (slow.has(i) ? 1.05 : 1)),
      sliceStateProbes,
      stateProbe: [sliceStateProbes[0]!, sliceStateProbes[34]!],
    });
  };
  const range = (from: number, to: number) => new Set(Array.from({ length: to - from }, (_, i) => from + i));

  it("'calm-relative' compares only the slices the state probe found in the fast state, without the state term", () => {
    const probed = (cases: CaseResult[]) => ({
      ...at(cases),
      options: { timePerCase: 1, reference: 'xorshift-table-1024x256', stateProbe: 'store-reload-16x80' },
    });
    const tight = fixedRunNoise(0.003, Infinity, 'calm-relative');
    // Identical code; the head spent slices 4-23 in the slow state (its probes around the case: 4400 and 6600).
    const base = probed([calm('a', 1, 11, range(0, 2))]);
    const aa = compareResults(base, probed([calm('a', 1, 12, range(4, 24))]), { noise: tight, geomean: false });
    expect(aa.cases[0]!.method).toBe('calm-relative');
    expect(aa.cases[0]!.verdict).toBe('unchanged');
    expect(aa.cases[0]!.ratio).toBeCloseTo(1, 2);
    expect(aa.cases[0]!.stateRatio).toBeUndefined();
    // The same slices judged on all of them: the slow state reads as a regression.
    const all = compareResults(base, probed([calm('a', 1, 12, range(4, 24))]), {
      noise: fixedRunNoise(0.005, Infinity, 'median-relative'),
      geomean: false,
    });
    expect(all.cases[0]!.ratio).toBeGreaterThan(1.1);
    // +5% in the code, the head again partly slow: regressed, by about 5%.
    const slower = compareResults(base, probed([calm('a', 1.05, 13, range(10, 30))]), { noise: tight, geomean: false });
    expect(slower.cases[0]!.method).toBe('calm-relative');
    expect(slower.cases[0]!.verdict).toBe('regressed');
    expect(slower.cases[0]!.ratio).toBeCloseTo(1.05, 2);
    // The head in the slow state throughout: its calm level is the slow one, not comparable; the next basis
    // (fastest-low) with the state term says it cannot tell.
    const slowThroughout = compareResults(base, probed([calm('a', 1.3, 14, new Set(), 6600)]), {
      noise: tight,
      geomean: false,
    });
    expect(slowThroughout.cases[0]!.method).toBe('fastest-low');
    expect(slowThroughout.cases[0]!.stateRatio).toBeCloseTo(1.5, 1);
    expect(slowThroughout.cases[0]!.verdict).toBe('inconclusive');
    // Fewer than five calm slices: not a calm figure.
    expect(compareResults(base, probed([calm('a', 1, 15, range(0, 31))]), { noise: tight }).cases[0]!.method).toBe(
      'fastest-low',
    );
  });

  it("calm slices: the probes of a three-slice stretch around a slice within 5% of the case's calm level; aligned arrays only", () => {
    // Slices 3 and 7 slow: the probes on both sides of each read slow (3, 4, 7, 8). A slice is calm when the probes
    // before and after it and the next ones out are fast: not slices 1-9, nor the first and last (no probe beyond).
    const c = calm('a', 1, 21, new Set([3, 7]));
    const kept = calmSlices(c)!;
    expect(kept).toHaveLength(23);
    expect(kept).toEqual(c.relativeSliceMedians!.filter((_, i) => i >= 10 && i <= 32));
    // One probe that reads fast between slow ones does not make the slices beside it calm.
    const flicker = {
      ...c,
      sliceStateProbes: c.sliceStateProbes!.map((v, i) => (i === 20 ? v : i > 15 && i < 25 ? v * 1.5 : v)),
    };
    expect(calmSlices(flicker)).toEqual(
      c.relativeSliceMedians!.filter((_, i) => (i >= 10 && i <= 13) || (i >= 26 && i <= 32)),
    );
    // The calm level: the third-lowest probe, so that one or two outlier-low probes do not set it.
    expect(calmLevel(c)).toBe([...c.sliceStateProbes!].sort((a, b) => a - b)[2]);
    const outliers = { ...c, sliceStateProbes: c.sliceStateProbes!.map((v, i) => (i === 0 || i === 17 ? v * 0.8 : v)) };
    expect(calmLevel(outliers)).toBe(Math.min(...c.sliceStateProbes!.filter((_, i) => i !== 0 && i !== 17)));
    expect(calmSlices(outliers)).toHaveLength(23);
    expect(probeLevel([5000, 4000])).toBe(5000);
    expect(probeLevel([5000])).toBe(5000);
    expect(probeLevel([5000, 0, 4000])).toBeUndefined();
    expect(calmSlices({ ...c, sliceStateProbes: c.sliceStateProbes!.slice(1) })).toBeUndefined();
    expect(calmLevel({ ...c, sliceStateProbes: [] })).toBeUndefined();
    expect(calmLevelsAgree(c, calm('a', 1, 22, new Set(), 4400 * 1.02))).toBe(true);
    // The intermediate state measured on 2026-12-03 (probes 4390-4410 ns against a fast level of 4050): not alike.
    expect(calmLevelsAgree(c, calm('a', 1, 22, new Set(), 4400 * (4400 / 4050)))).toBe(false);
    expect(calmLevelsAgree(c, calm('a', 1, 22, new Set(), 4400 * 1.35))).toBe(false);
    // A stretch whose probes read 8.5% above the level (that intermediate state) is not calm either.
    const intermediate = {
      ...c,
      sliceStateProbes: c.sliceStateProbes!.map((v, i) => (i >= 12 && i <= 20 ? v * 1.085 : v)),
    };
    expect(calmSlices(intermediate)).toEqual(c.relativeSliceMedians!.filter((_, i) => i >= 22 && i <= 32));
  });

  it('the same ratio is regressed for a case whose runs agree and inconclusive for one whose runs scatter', () => {
    const calibration = {
      createdAt: '2026-12-01T00:00:00Z',
      processes: 8,
      timePerCase: 1,
      basis: 'median' as const,
      pooled: { median: { p50: 0.01, p90: 0.05 } },
      floor: { quantile: 0, sigma: 0 },
      cases: {
        steady: { n: 8, medianNs: 100, sigma: { median: 0.004 } },
        jumpy: { n: 8, medianNs: 100, sigma: { median: 0.08 } },
      },
    };
    const noise = runNoiseFromCalibration(calibration, 'cal.json');
    const cmp = compareResults(
      at([sliced('steady', 100, 5), sliced('jumpy', 100, 6), sliced('unknown', 100, 7)]),
      at([sliced('steady', 110, 8), sliced('jumpy', 110, 9), sliced('unknown', 110, 10)]),
      { noise },
    );
    const byId = new Map(cmp.cases.map((c) => [c.id, c]));
    expect(byId.get('steady')!.verdict).toBe('regressed');
    expect(byId.get('jumpy')!.verdict).toBe('inconclusive');
    // A case the calibration never measured: the conservative default, not the other cases' 90th percentile.
    expect(byId.get('unknown')!.betweenRuns).toEqual({ sigma: 0.1, dof: 3, source: 'default' });
    expect(byId.get('unknown')!.verdict).toBe('inconclusive');
    expect(cmp.noise).toMatchObject({ source: 'calibration', file: 'cal.json', processes: 8 });
    expect(cmp.noise!.description).toMatch(
      /; 1 of 3 case\(s\) not in the calibration, judged with the conservative default spread \(10% per process, heavy-tailed\)$/,
    );
    // Measured cases whose 90th percentile is wider than the default give that to a case never measured.
    const wide = runNoiseFromCalibration({ ...calibration, pooled: { median: { p50: 0.1, p90: 0.2 } } });
    expect(wide.spreadFor('unknown', 'median')).toEqual({ sigma: 0.2, dof: 7, assumed: true });
    // A measured case without figures on a basis still takes the 90th percentile of that basis.
    expect(noise.spreadFor('steady', 'fastest')).toEqual({ sigma: 0.05, dof: 7 });
  });

  it('uses the relative figures when the basis is relative and both runs have them', () => {
    const withRelative = (id: string, mu: number, rel: number, seed: number) =>
      sliced(id, mu, seed, {
        reference: { work: 'w', sliceMedians: Array(11).fill(1000) },
        relativeSliceMedians: normalSamples(10, rel, rel * 0.003, seed + 7),
      });
    // Raw figures 30% slower (a busy machine), relative ones unchanged.
    const base = at([withRelative('x', 100, 0.1, 11)]);
    const head = at([withRelative('x', 130, 0.1, 12)]);
    const relative = compareResults(base, head, { noise: fixedRunNoise(0.002, Infinity, 'median-relative') }).cases[0]!;
    expect(relative.method).toBe('median-relative');
    expect(relative.verdict).toBe('unchanged');
    const raw = compareResults(base, head, { noise: fixedRunNoise(0.002, Infinity, 'median') }).cases[0]!;
    expect(raw.method).toBe('median');
    expect(raw.verdict).toBe('regressed');
    // Without relative figures on one side it falls back to the plain median.
    const mixed = compareResults(base, at([sliced('x', 130, 13)]), {
      noise: fixedRunNoise(0.002, Infinity, 'median-relative'),
    }).cases[0]!;
    expect(mixed.method).toBe('median');
  });

  it('withholds regressed/improved between different CPUs, core counts or runtimes unless asked', () => {
    const other = { ...env, node: '18.20.8', v8: '10.2' };
    expect(environmentMismatch(env, other)).toEqual([`Node ${env.node} -> 18.20.8`]);
    expect(environmentMismatch(env, { ...env, cpuCount: env.cpuCount + 2, cpuModel: 'Other CPU' })).toEqual([
      `CPU ${env.cpuModel} -> Other CPU`,
      `${env.cpuCount} -> ${env.cpuCount + 2} CPUs`,
    ]);
    const base = at([sliced('x', 100, 21)]);
    const head = at([sliced('x', 200, 22)], other);
    const withheld = compareResults(base, head, { noise: fixedRunNoise(0.01) });
    expect(withheld.incomparable).toEqual([`Node ${env.node} -> 18.20.8`]);
    expect(withheld.cases[0]!.verdict).toBe('inconclusive');
    expect(withheld.cases[0]!.suppressedVerdict).toBe('regressed');
    expect(withheld.summary.regressed).toBe(0);
    const asked = compareResults(base, head, { noise: fixedRunNoise(0.01), acrossEnvironments: true });
    expect(asked.cases[0]!.verdict).toBe('regressed');
    expect(asked.acrossEnvironments).toBe(true);
  });

  it('nothing in common compares nothing', () => {
    const cmp = compareResults(at([sliced('a', 100, 31)]), at([sliced('b', 100, 32)]));
    expect(cmp.cases).toEqual([]);
    expect(cmp.onlyBase).toEqual(['a']);
    expect(cmp.onlyHead).toEqual(['b']);
    expect(cmp.geomean).toEqual({ ratio: 1, ci: [1, 1] });
  });
});

describe('comparisonWarnings', () => {
  it('reads a run of several processes at its busiest process too', () => {
    const quiet = { ...collectEnv(), cpuCount: 2, loadAvgStart: [1.1, 1, 1], loadAvgEnd: [1.2, 1, 1] };
    expect(comparisonWarnings(quiet, quiet)).toEqual([]);
    const busyMiddle = { ...quiet, processLoadAvgEnds: [1.3, 3.4, 1.5] };
    expect(peakLoad(busyMiddle)).toBe(3.4);
    expect(comparisonWarnings(quiet, busyMiddle)).toEqual([
      expect.stringMatching(/^head ran with load average 3\.4 on 2 CPU\(s\)/),
    ]);
  });
});

describe('the unchanged-code guard', () => {
  const layer = (name: string, hash: string) => ({ name, version: '1.0.0', contentHash: hash });
  const env = collectEnv({
    capabilities: '0000000f',
    dispatch: [{ layer: 'sha1-dispatch', decision: 'block', impl: 'wasm', reason: 'fastest' }],
    layers: [
      layer('@layerbench/sha1-dispatch', 's1'),
      layer('@layerbench/cmac', 'c1'),
      layer('@layerbench/aes-core', 'a1'),
      layer('@layerbench/bench-runner', 'b1'),
    ],
  });
  const sha1Stack = ['@layerbench/sha1-dispatch'];
  const cmacStack = ['@layerbench/cmac', '@layerbench/aes-core'];
  const withLayer = (name: string, hash: string) => ({
    ...env,
    layers: env.layers.map((l) => (l.name === name ? { ...l, contentHash: hash } : l)),
  });

  it('holds only when every layer of the stack, the engine, the runtime, CPU and dispatch are identical', () => {
    expect(codeUnchanged(env, env, sha1Stack)).toBe(true);
    const cmacChanged = withLayer('@layerbench/cmac', 'c2');
    expect(codeUnchanged(env, cmacChanged, sha1Stack)).toBe(true); // cmac is not below sha1-dispatch
    expect(codeUnchanged(env, cmacChanged, cmacStack)).toBe(false);
    expect(codeUnchanged(env, withLayer('@layerbench/aes-core', 'a2'), cmacStack)).toBe(false); // a layer below
    expect(codeUnchanged(env, withLayer('@layerbench/bench-runner', 'b2'), sha1Stack)).toBe(false);
    expect(codeUnchanged(env, { ...env, node: '18.0.0' }, sha1Stack)).toBe(false);
    expect(codeUnchanged(env, { ...env, capabilities: '00000007' }, sha1Stack)).toBe(false);
    const otherDispatch = {
      ...env,
      dispatch: [{ layer: 'sha1-dispatch', decision: 'block', impl: 'generic', reason: 'forced' }],
    };
    expect(codeUnchanged(env, otherDispatch, sha1Stack)).toBe(false);
    expect(codeUnchanged(env, otherDispatch, cmacStack)).toBe(true);
    // A layer without a content hash cannot be shown identical.
    expect(codeUnchanged(env, env, ['@layerbench/esp'])).toBe(false);
  });

  it('with guardUnchangedCode, a case whose code is identical is unchanged whatever its timings', () => {
    const base = run(
      [sliced('sha1/64', 100, 41, { layer: 'sha1-dispatch' }), sliced('cmac/48', 100, 42, { layer: 'cmac' })],
      env,
    );
    const head = run(
      [sliced('sha1/64', 130, 43, { layer: 'sha1-dispatch' }), sliced('cmac/48', 130, 44, { layer: 'cmac' })],
      withLayer('@layerbench/cmac', 'c2'),
    );
    const caseLayers = (c: CaseResult) => (c.layer === 'cmac' ? cmacStack : sha1Stack);
    const plain = compareResults(base, head, { noise: fixedRunNoise(0.005), caseLayers });
    expect(plain.cases.map((c) => [c.id, c.verdict, c.codeUnchanged])).toEqual([
      ['sha1/64', 'regressed', true],
      ['cmac/48', 'regressed', undefined],
    ]);
    const guarded = compareResults(base, head, { noise: fixedRunNoise(0.005), caseLayers, guardUnchangedCode: true });
    expect(guarded.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['sha1/64', 'unchanged'],
      ['cmac/48', 'regressed'],
    ]);
  });

  it("reads the packages both files record for a case (CaseResult.packages) before the caller's map, and both lists together", () => {
    const recorded = (id: string, median: number, seed: number, packages?: string[]) => ({
      ...sliced(id, median, seed, { layer: 'sha1-dispatch' }),
      ...(packages === undefined ? {} : { packages }),
    });
    const cmacChanged = withLayer('@layerbench/cmac', 'c2');
    const base = run(
      [
        recorded('sha1/64', 100, 61, sha1Stack),
        // A case whose files say it runs cmac too, whatever the caller's map says.
        recorded('sha1-over-cmac', 100, 62, ['@layerbench/sha1-dispatch', '@layerbench/cmac']),
        // The base recorded sha1-dispatch only, the head cmac as well: both lists count.
        recorded('grew', 100, 63, sha1Stack),
        // Only one file records: the caller's map.
        recorded('half', 100, 64, sha1Stack),
      ],
      env,
    );
    const head = run(
      [
        recorded('sha1/64', 130, 65, sha1Stack),
        recorded('sha1-over-cmac', 130, 66, ['@layerbench/sha1-dispatch', '@layerbench/cmac']),
        recorded('grew', 130, 67, ['@layerbench/sha1-dispatch', '@layerbench/cmac']),
        recorded('half', 130, 68),
      ],
      cmacChanged,
    );
    const options = { noise: fixedRunNoise(0.005), guardUnchangedCode: true };
    // No map from the caller: the recorded lists alone ('half' has none, so it is judged by its timings).
    expect(compareResults(base, head, options).cases.map((c) => [c.id, c.verdict])).toEqual([
      ['sha1/64', 'unchanged'],
      ['sha1-over-cmac', 'regressed'],
      ['grew', 'regressed'],
      ['half', 'regressed'],
    ]);
    // The caller's map says every case runs sha1-dispatch alone: the files' lists still win where both record.
    const guarded = compareResults(base, head, { ...options, caseLayers: () => sha1Stack });
    expect(guarded.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['sha1/64', 'unchanged'],
      ['sha1-over-cmac', 'regressed'],
      ['grew', 'regressed'],
      ['half', 'unchanged'],
    ]);
    expect(recordedPackages({ packages: ['a', 'b'] }, { packages: ['b', 'c'] })).toEqual(['a', 'b', 'c']);
    expect(recordedPackages({ packages: ['a'] }, {})).toBeUndefined();
  });
});

describe('compareSeparateRuns', () => {
  it('widens the interval by the between-run spread and keeps interval, p and verdict consistent', () => {
    const base = normalSamples(10, 100, 0.3, 51);
    const head = normalSamples(10, 104, 0.3, 52);
    const tight = compareSeparateRuns(base, head, { sigma: 0, dof: Infinity });
    const wide = compareSeparateRuns(base, head, { sigma: 0.02, dof: 7 });
    expect(tight.verdict).toBe('regressed');
    expect(wide.ratioCi[1] - wide.ratioCi[0]).toBeGreaterThan(5 * (tight.ratioCi[1] - tight.ratioCi[0]));
    expect(wide.verdict).toBe('inconclusive');
    for (const c of [tight, wide]) expect(c.pValue < 0.01).toBe(c.ratioCi[0] > 1 || c.ratioCi[1] < 1);
  });

  it('with a quantile, compares that order statistic of each side; the interval scales exactly with the head', () => {
    const base = normalSamples(20, 100, 0.5, 53);
    const head = base.map((v) => v * 1.1);
    const q = compareSeparateRuns(base, head, { sigma: 0.001, dof: Infinity }, { quantile: 0.1 });
    expect(q.ratio).toBeCloseTo(1.1, 10);
    expect(q.verdict).toBe('regressed');
    const same = compareSeparateRuns(base, base, { sigma: 0.001, dof: Infinity }, { quantile: 0.1 });
    expect(same.ratio).toBe(1);
    expect(q.ratioCi[0] / same.ratioCi[0]).toBeCloseTo(1.1, 10);
    expect(q.ratioCi[1] / same.ratioCi[1]).toBeCloseTo(1.1, 10);
  });
});
