import { describe, expect, it } from 'vitest';
import { normalVariate, seededRandom } from './stats.js';
import {
  bootstrapIterations,
  compareRounds,
  compareSamples,
  confidenceLabel,
  decideRatio,
  pFloorIndependent,
  pFloorPaired,
  verdictOf,
} from './verdict.js';
import type { SampleComparison } from '../types.js';

function normalSamples(n: number, mu: number, sigma: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => mu + sigma * normalVariate(random));
}

/** The consistency the rule promises: interval, p and verdict never contradict. */
function expectConsistent(c: SampleComparison, threshold: number, alpha: number): void {
  const [lo, hi] = c.ratioCi;
  expect(lo).toBeLessThanOrEqual(hi);
  expect(c.pValue < alpha).toBe(lo > 1 || hi < 1);
  if (c.verdict === 'regressed') expect(lo).toBeGreaterThan(1 + threshold);
  if (c.verdict === 'improved') expect(hi).toBeLessThan(1 - threshold);
  if (c.verdict === 'regressed' || c.verdict === 'improved') expect(c.pValue).toBeLessThan(alpha);
  if (c.verdict === 'unchanged') {
    expect(lo).toBeGreaterThanOrEqual(1 - threshold);
    expect(hi).toBeLessThanOrEqual(1 + threshold);
  }
  if (c.verdict === 'inconclusive') {
    expect(lo > 1 + threshold || hi < 1 - threshold || (lo >= 1 - threshold && hi <= 1 + threshold)).toBe(false);
  }
}

describe('verdictOf: the interval against the threshold', () => {
  const t = 0.02;
  it.each([
    [[1.05, 1.08], 'regressed'],
    [[0.9, 0.95], 'improved'],
    [[1.005, 1.015], 'unchanged'], // excludes 1 but within the noise threshold
    [[0.99, 1.01], 'unchanged'],
    [[0.98, 1.02], 'unchanged'], // the band's edges belong to it
    [[1.02, 1.03], 'inconclusive'], // lower end on 1 + t: not beyond it
    [[1.0200001, 1.03], 'regressed'],
    [[0.97, 0.98], 'inconclusive'], // upper end on 1 - t
    [[0.985, 1.025], 'inconclusive'], // contains 1 but reaches past 1 + t
    [[1.01, 1.05], 'inconclusive'], // straddles 1 + t
    [[0.9, 1.12], 'inconclusive'], // too wide
  ] as const)('CI %j is %s', (ci, verdict) => {
    expect(verdictOf(ci, t)).toBe(verdict);
  });
  it('threshold 0: any interval clear of 1 decides, [1, 1] is unchanged', () => {
    expect(verdictOf([1.0001, 1.0002], 0)).toBe('regressed');
    expect(verdictOf([0.9998, 0.9999], 0)).toBe('improved');
    expect(verdictOf([1, 1], 0)).toBe('unchanged');
    expect(verdictOf([0.999, 1.001], 0)).toBe('inconclusive');
  });
});

describe('decideRatio: interval and p from the same draws', () => {
  const opts = { threshold: 0.02, alpha: 0.01 };
  it('the interval is the [k-th smallest, k-th largest] draw with k = ceil(alpha (B + 1) / 2) - 1', () => {
    // B = 999, alpha 0.01: k = 4.
    const draws = Float64Array.from({ length: 999 }, (_, i) => 1.1 + i / 10_000);
    const d = decideRatio(draws.slice().reverse(), opts);
    expect(d.ratioCi).toEqual([1.1 + 3 / 10_000, 1.1 + 995 / 10_000]);
    expect(d.pValue).toBeCloseTo(2 / 1000, 12); // no draw at or below 1
    expect(d.verdict).toBe('regressed');
    expect(d.confidence).toBe(0.99);
  });
  it('p < alpha exactly when the interval excludes 1, at the boundary', () => {
    // B = 999, k = 4: with 3 draws at or below 1 the lower end (4th) is above 1 and
    // p = 2 * 4 / 1000 = 0.008 < 0.01; with 4 it is not and p = 0.01.
    for (const belowOne of [0, 1, 2, 3, 4, 5, 10, 499, 500]) {
      const draws = Float64Array.from({ length: 999 }, (_, i) => (i < belowOne ? 0.99 : 1.05));
      const d = decideRatio(draws, opts);
      expect(d.pValue < 0.01).toBe(d.ratioCi[0] > 1 || d.ratioCi[1] < 1);
      expect(d.pValue < 0.01).toBe(belowOne <= 3);
    }
  });
  it('draws exactly at 1 count on both sides', () => {
    const d = decideRatio(new Float64Array(999).fill(1), opts);
    expect(d.ratioCi).toEqual([1, 1]);
    expect(d.pValue).toBe(1);
    expect(d.verdict).toBe('unchanged');
  });
  it('a p floor at or above alpha widens the interval to 1 and raises p', () => {
    const draws = new Float64Array(999).fill(1.5);
    const d = decideRatio(draws, { ...opts, pFloor: 0.1 });
    expect(d.pValue).toBe(0.1);
    expect(d.ratioCi).toEqual([1, 1.5]);
    expect(d.verdict).toBe('inconclusive');
    const e = decideRatio(new Float64Array(999).fill(1.5), { ...opts, pFloor: 0.005 });
    expect(e.pValue).toBe(0.005);
    expect(e.verdict).toBe('regressed');
  });
  it('refuses too few draws for the tail at 1 - alpha', () => {
    expect(() => decideRatio(new Float64Array(100).fill(1), opts)).toThrow(/needs at least 399 bootstrap draws/);
    expect(() => decideRatio(new Float64Array(399).fill(1), opts)).not.toThrow();
  });
});

describe('p floors and iterations', () => {
  it('pFloorIndependent is the complete-separation p of a two-sided rank test', () => {
    expect(pFloorIndependent(3, 3)).toBeCloseTo(0.1, 12); // 2 / C(6, 3)
    expect(pFloorIndependent(5, 5)).toBeCloseTo(2 / 252, 12);
    expect(pFloorIndependent(1, 1)).toBe(1);
    expect(pFloorIndependent(1000, 1000)).toBe(0);
  });
  it('pFloorPaired is the all-one-sign p of a two-sided sign test', () => {
    expect(pFloorPaired(1)).toBe(1);
    expect(pFloorPaired(7)).toBeCloseTo(2 / 128, 12);
    expect(pFloorPaired(8)).toBeCloseTo(2 / 256, 12);
  });
  it('bootstrapIterations leaves about 50 draws in each tail', () => {
    expect(bootstrapIterations(0.01)).toBe(9999);
    expect(bootstrapIterations(0.05)).toBe(1999);
    expect(bootstrapIterations(0.001)).toBe(99_999);
  });
  it('confidenceLabel', () => {
    expect(confidenceLabel(0.01)).toBe('99%');
    expect(confidenceLabel(0.05)).toBe('95%');
    expect(confidenceLabel(0.001)).toBe('99.9%');
  });
});

describe('compareSamples', () => {
  it('issue 12 point 3: a ratio of 1.236 with an interval far above 1.03 is regressed, not inconclusive', () => {
    // 8 rounds a side around 1000 ns and 1236 ns (the reported x1.236 [1.210, 1.246]).
    const base = [1000, 1004, 996, 1010, 992, 1002, 998, 1006];
    const head = [1236, 1228, 1240, 1212, 1246, 1233, 1238, 1221];
    const c = compareSamples(base, head, { threshold: 0.03, alpha: 0.01 });
    expect(c.ratio).toBeCloseTo(1.235, 2);
    expect(c.ratioCi[0]).toBeGreaterThan(1.2);
    expect(c.pValue).toBeLessThan(0.01);
    expect(c.verdict).toBe('regressed');
    expectConsistent(c, 0.03, 0.01);
  });
  it('three values a side cannot decide at alpha 0.01, however separated', () => {
    const c = compareSamples([100, 101, 102], [200, 201, 202]);
    expect(c.pValue).toBeCloseTo(0.1, 12);
    expect(c.ratioCi[0]).toBeLessThanOrEqual(1);
    expect(c.verdict).toBe('inconclusive');
  });
  it('A/A: same distribution gives unchanged in (nearly) every trial', () => {
    const verdicts: Record<string, number> = {};
    for (let trial = 0; trial < 100; trial++) {
      const base = normalSamples(400, 100, 2, 2 * trial + 1);
      const head = normalSamples(400, 100, 2, 2 * trial + 2);
      const v = compareSamples(base, head, { iterations: 999 }).verdict;
      verdicts[v] = (verdicts[v] ?? 0) + 1;
    }
    expect(verdicts.regressed ?? 0).toBe(0);
    expect(verdicts.improved ?? 0).toBe(0);
    expect(verdicts.unchanged).toBeGreaterThanOrEqual(98);
  });
  it('A/A p-values are roughly uniform: about alpha of them fall below alpha (the bootstrap of medians is a little conservative)', () => {
    let below = 0;
    const trials = 1000;
    for (let trial = 0; trial < trials; trial++) {
      const base = normalSamples(100, 100, 2, 10_000 + 2 * trial);
      const head = normalSamples(100, 100, 2, 10_001 + 2 * trial);
      if (compareSamples(base, head, { alpha: 0.05, iterations: 399 }).pValue < 0.05) below++;
    }
    expect(below / trials).toBeGreaterThan(0.02);
    expect(below / trials).toBeLessThan(0.07);
  });
  it('a clear 10% slowdown is regressed and a 10% speed-up improved', () => {
    const base = normalSamples(400, 100, 2, 1);
    const slower = normalSamples(400, 110, 2, 2);
    const faster = normalSamples(400, 90, 2, 3);
    const r = compareSamples(base, slower);
    expect(r.verdict).toBe('regressed');
    expect(r.ratio).toBeCloseTo(1.1, 2);
    expect(r.ratioCi[0]).toBeLessThan(1.1);
    expect(r.ratioCi[1]).toBeGreaterThan(1.1);
    expect(r.pValue).toBe(2 / 10_000); // no draw at or below 1, of 9999
    expect(compareSamples(base, faster).verdict).toBe('improved');
  });
  it('a shift inside a wide noise band is inconclusive', () => {
    const base = normalSamples(20, 100, 20, 4);
    const head = normalSamples(20, 103, 20, 5);
    expect(compareSamples(base, head).verdict).toBe('inconclusive');
  });
  it('rejects a zero median and bad options', () => {
    expect(() => compareSamples([0, 0], [1, 1])).toThrow(RangeError);
    expect(() => compareSamples([1], [1], { alpha: 0 })).toThrow(/alpha must be within/);
    expect(() => compareSamples([1], [1], { threshold: -1 })).toThrow(/threshold must be within/);
  });
});

describe('compareRounds', () => {
  it('uses the paired per-round ratios: shared drift cancels', () => {
    const drift = [1, 1.3, 0.8, 1.1, 0.9, 1.25, 1, 0.85, 1.2, 1.05, 0.95, 1.15];
    const base = drift.map((d, i) => 100 * d * (1 + ((i % 3) - 1) * 0.001));
    const head = drift.map((d, i) => 105 * d * (1 + ((i % 4) - 1.5) * 0.001));
    const r = compareRounds(base, head, { threshold: 0.02, alpha: 0.01 });
    expect(r.ratio).toBeGreaterThan(1.045);
    expect(r.ratio).toBeLessThan(1.055);
    expect(r.ratioCi[0]).toBeGreaterThan(1.04);
    expect(r.ratioCi[1]).toBeLessThan(1.06);
    // 12 positive log ratios: every draw above 1, so p = 2 / (9999 + 1); the
    // sign-test floor 2 / 2^12 = 0.00049 is the larger.
    expect(r.pValue).toBeCloseTo(2 / 4096, 12);
    expect(r.verdict).toBe('regressed');
  });
  it('A/A with identical rounds is unchanged', () => {
    const rounds = [100, 101, 99, 100, 102, 98];
    const r = compareRounds(rounds, rounds);
    expect(r.ratio).toBe(1);
    expect(r.pValue).toBe(1);
    expect(r.ratioCi).toEqual([1, 1]);
    expect(r.verdict).toBe('unchanged');
  });
  it('rejects unpaired input', () => {
    expect(() => compareRounds([1, 2], [1])).toThrow(RangeError);
    expect(() => compareRounds([0], [1])).toThrow(/no round/);
  });
});

describe('consistency: verdict, interval and p never contradict (randomised)', () => {
  it('holds for independent sets and paired rounds over many random cases', () => {
    const random = seededRandom(0xc0ffee);
    for (let trial = 0; trial < 300; trial++) {
      const n1 = 2 + Math.floor(random() * 30);
      const n2 = 2 + Math.floor(random() * 30);
      const effect = [0, 0, 0.005, 0.02, 0.03, 0.1, -0.05][trial % 7]!;
      const sigma = [0.1, 1, 5, 20][Math.floor(random() * 4)]!;
      const threshold = [0, 0.01, 0.02, 0.05][trial % 4]!;
      const alpha = [0.01, 0.05, 0.001][trial % 3]!;
      const seed = Math.floor(random() * 2 ** 31);
      const base = normalSamples(n1, 100, sigma, seed).map((v) => Math.max(v, 1));
      const head = normalSamples(n2, 100 * (1 + effect), sigma, seed + 1).map((v) => Math.max(v, 1));
      // Coarse values make ties and draws exactly at 1 likely.
      const coarse = trial % 5 === 0;
      const round = (v: number) => (coarse ? Math.round(v) : v);
      const iterations = alpha === 0.001 ? 3999 : 999;
      expectConsistent(
        compareSamples(base.map(round), head.map(round), { threshold, alpha, iterations }),
        threshold,
        alpha,
      );
      const paired = head.slice(0, Math.min(n1, n2));
      expectConsistent(
        compareRounds(base.slice(0, paired.length).map(round), paired.map(round), { threshold, alpha, iterations }),
        threshold,
        alpha,
      );
    }
  });
});
