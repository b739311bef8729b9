import { describe, expect, it } from 'vitest';
import {
  bootstrapMedianCi,
  bootstrapQuantileRatioDraws,
  bootstrapRatioCi,
  computeStats,
  erfc,
  geometricMean,
  lowQuantile,
  mad,
  mannWhitneyU,
  mean,
  median,
  normalUpperTail,
  normalVariate,
  orderStatisticIndex,
  percentile,
  seededRandom,
  wilcoxonSignedRank,
} from './stats.js';

function normalSamples(n: number, mu: number, sigma: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => mu + sigma * normalVariate(random));
}

describe('location and spread', () => {
  // Reference values: NumPy median/percentile/mean, SciPy median_abs_deviation.
  const x = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];
  it('median, mean, percentile and MAD match NumPy/SciPy', () => {
    expect(median(x)).toBe(4);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mean(x)).toBe(4);
    expect(percentile(x, 99)).toBeCloseTo(8.7, 12);
    expect(percentile(x, 25)).toBe(2.5);
    expect(percentile(x, 0)).toBe(1);
    expect(percentile(x, 100)).toBe(9);
    expect(mad(x)).toBe(1);
  });
  it('does not reorder its input', () => {
    const copy = [...x];
    median(x);
    expect(x).toEqual(copy);
  });
  it('rejects empty input and bad percentiles with RangeError', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => percentile(x, 101)).toThrow(/percentile must be within 0..100, got 101/);
    expect(() => geometricMean([1, 0])).toThrow(RangeError);
  });
  it('geometric mean', () => {
    expect(geometricMean([1, 4, 16])).toBeCloseTo(4, 12);
  });
});

describe('seededRandom', () => {
  it('is reproducible and uniform-looking', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 10000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mean(xs)).toBeGreaterThan(0.49);
    expect(mean(xs)).toBeLessThan(0.51);
  });
});

describe('erfc and the normal tail', () => {
  // Reference values: scipy.special.erfc.
  const reference: [number, number][] = [
    [-3, 1.9999779095030015],
    [-0.3, 1.3286267594591274],
    [0, 1],
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028516],
    [2, 0.004677734981047266],
    [3.9, 3.479224859723178e-8],
    [5, 1.5374597944280347e-12],
    [10, 2.0884875837625446e-45],
  ];
  it.each(reference)('erfc(%f)', (x, expected) => {
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(1e-13);
  });
  it('normal upper tail at 1.959964 is 0.025', () => {
    expect(normalUpperTail(1.959963984540054)).toBeCloseTo(0.025, 12);
  });
});

describe('mannWhitneyU', () => {
  // Reference values: scipy.stats.mannwhitneyu(a, b, alternative='two-sided',
  // method='asymptotic', use_continuity=True) (SciPy 1.17.1).
  it('separated samples: U = 0, p = 0.01219 (also by hand: z = -12/sqrt(275/12))', () => {
    const r = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
    expect(r.u).toBe(0);
    expect(r.z).toBeCloseTo(-12 / Math.sqrt(275 / 12), 12);
    expect(r.pValue).toBeCloseTo(0.012185780355344813, 12);
  });
  it('with ties', () => {
    const r = mannWhitneyU([1, 2, 2, 3, 3, 3, 4], [3, 4, 4, 5, 5, 6]);
    expect(r.u).toBe(3.5);
    expect(r.pValue).toBeCloseTo(0.012999854364387305, 12);
  });
  it('overlapping samples', () => {
    const r = mannWhitneyU([10, 20, 30], [15, 25, 35, 45]);
    expect(r.u).toBe(3);
    expect(r.pValue).toBeCloseTo(0.376759117811582, 12);
  });
  it('nearly all tied', () => {
    const r = mannWhitneyU([5, 5, 5, 5], [5, 5, 5, 6]);
    expect(r.u).toBe(6);
    expect(r.pValue).toBeCloseTo(0.4532547047537364, 12);
  });
  it('all tied: no evidence, p = 1', () => {
    expect(mannWhitneyU([1, 1], [1, 1]).pValue).toBe(1);
  });
  it('is symmetric: swapping sides flips z and keeps p', () => {
    const a = normalSamples(40, 10, 1, 1);
    const b = normalSamples(30, 10.5, 1, 2);
    const ab = mannWhitneyU(a, b);
    const ba = mannWhitneyU(b, a);
    expect(ab.u + ba.u).toBe(40 * 30);
    expect(ab.z).toBeCloseTo(-ba.z, 12);
    expect(ab.pValue).toBeCloseTo(ba.pValue, 12);
  });
});

describe('wilcoxonSignedRank', () => {
  // Reference values: scipy.stats.wilcoxon(d, zero_method='wilcox', correction=True,
  // method='approx') (SciPy 1.17.1); SciPy reports min(W+, W-).
  it('with tied magnitudes', () => {
    const r = wilcoxonSignedRank([0.5, -0.2, 1.1, 0.9, 0.3, -0.4, 0.8, 1.5, 0.2, 0.7]);
    expect(r.wPlus).toBe(49.5);
    expect(55 - r.wPlus).toBe(5.5);
    expect(r.pValue).toBeCloseTo(0.028314054945765665, 12);
  });
  it('drops zeros and handles ties', () => {
    const r = wilcoxonSignedRank([1, 2, 2, -3, 4, 0, 5, -1, 1, 6, 2, 3]);
    expect(r.n).toBe(11);
    expect((r.n * (r.n + 1)) / 2 - r.wPlus).toBe(9.5);
    expect(r.pValue).toBeCloseTo(0.03996565688935283, 12);
  });
  it('all negative', () => {
    const r = wilcoxonSignedRank([-1, -2, -3, -4, -5, -6, -7, -8]);
    expect(r.wPlus).toBe(0);
    expect(r.pValue).toBeCloseTo(0.014266186701446923, 12);
  });
  it('no non-zero differences: p = 1', () => {
    expect(wilcoxonSignedRank([0, 0]).pValue).toBe(1);
  });
});

describe('bootstrap confidence intervals', () => {
  it('the O(1) resampled median matches a naive bootstrap (same distribution)', () => {
    const data = normalSamples(51, 100, 10, 7);
    const random = seededRandom(99);
    const naive: number[] = [];
    for (let i = 0; i < 20000; i++) {
      const resample = Array.from({ length: data.length }, () => data[Math.floor(random() * data.length)]!);
      naive.push(median(resample));
    }
    const naiveCi = [percentile(naive, 2.5), percentile(naive, 97.5)];
    const fast = bootstrapMedianCi(data, { iterations: 20000, random: seededRandom(5) });
    // Sorted data have gaps of about 0.5 around the median: agree to within one gap.
    expect(Math.abs(fast[0] - naiveCi[0]!)).toBeLessThan(0.8);
    expect(Math.abs(fast[1] - naiveCi[1]!)).toBeLessThan(0.8);
  });
  it('even-length samples use both middle order statistics', () => {
    const data = normalSamples(50, 100, 10, 8);
    const ci = bootstrapMedianCi(data, { iterations: 4000 });
    expect(ci[0]).toBeLessThan(median(data));
    expect(ci[1]).toBeGreaterThan(median(data));
  });
  it('95% CI of the median covers the true median in about 95% of normal samples', () => {
    let covered = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const data = normalSamples(200, 100, 5, 1000 + t);
      const [lo, hi] = bootstrapMedianCi(data, { iterations: 1000, random: seededRandom(t) });
      if (lo <= 100 && 100 <= hi) covered++;
    }
    const coverage = covered / trials;
    expect(coverage).toBeGreaterThan(0.91);
    expect(coverage).toBeLessThan(0.99);
  });
  it('ratio CI contains the true ratio for shifted normal samples', () => {
    const base = normalSamples(500, 100, 3, 11);
    const head = normalSamples(500, 110, 3, 12);
    const [lo, hi] = bootstrapRatioCi(base, head);
    expect(lo).toBeLessThan(1.1);
    expect(hi).toBeGreaterThan(1.1);
    expect(hi - lo).toBeLessThan(0.02);
  });
  it('is reproducible with the default seed', () => {
    const data = normalSamples(100, 1, 0.1, 3);
    expect(bootstrapMedianCi(data)).toEqual(bootstrapMedianCi(data));
  });
  it('rejects bad options', () => {
    expect(() => bootstrapMedianCi([1, 2], { confidence: 1.5 })).toThrow(RangeError);
    expect(() => bootstrapMedianCi([1, 2], { iterations: 3 })).toThrow(RangeError);
    expect(() => bootstrapRatioCi([], [1])).toThrow(RangeError);
  });
});

describe('computeStats', () => {
  it('summarises known samples and derives throughput from bytes per op', () => {
    const samples = [100, 102, 98, 101, 99, 100, 250];
    const s = computeStats(samples, 48);
    expect(s.n).toBe(7);
    expect(s.median).toBe(100);
    expect(s.nsPerOp).toBe(100);
    expect(s.mean).toBeCloseTo(850 / 7, 12);
    expect(s.min).toBe(98);
    expect(s.max).toBe(250);
    expect(s.mad).toBe(1);
    expect(s.p99).toBeCloseTo(percentile(samples, 99), 12);
    expect(s.opsPerSec).toBe(1e7);
    expect(s.mbPerSec).toBeCloseTo(480, 9);
    expect(s.mbitPerSec).toBeCloseTo(3840, 9);
    expect(s.ci[0]).toBeLessThanOrEqual(100);
    expect(s.ci[1]).toBeGreaterThanOrEqual(100);
  });
  it('has no throughput without bytes and stays finite for zero samples', () => {
    const s = computeStats([0, 0, 0]);
    expect(s.mbPerSec).toBeUndefined();
    expect(s.opsPerSec).toBe(0);
  });
});

describe('low quantiles as order statistics', () => {
  it('reads the round(q n)-th smallest, at least the smallest', () => {
    expect(orderStatisticIndex(10, 0.1)).toBe(1);
    expect(orderStatisticIndex(34, 0.1)).toBe(3);
    expect(orderStatisticIndex(3, 0.1)).toBe(1);
    expect(orderStatisticIndex(5, 1)).toBe(5);
    expect(() => orderStatisticIndex(5, 0)).toThrow(RangeError);
    expect(lowQuantile([5, 1, 4, 2, 3, 9, 8, 7, 6, 10], 0.1)).toBe(1);
    expect(lowQuantile([5, 1, 4, 2, 3, 9, 8, 7, 6, 10], 0.3)).toBe(3);
  });

  it('its bootstrap draws follow the exact bootstrap distribution of that order statistic', () => {
    // Resampling 10 values, the smallest of the resample is the smallest value with
    // probability 1 - (9/10)^10 = 0.651; the ratio to an identical base is then 1 whenever both hit it.
    const values = Array.from({ length: 10 }, (_, i) => 100 + i);
    const draws = bootstrapQuantileRatioDraws(values, values, 0.1, { iterations: 20000, random: seededRandom(7) });
    const both = draws.filter((d) => d === 1).length / draws.length;
    const p = 1 - 0.9 ** 10;
    // Both sides at the minimum (p^2) or at the same other value; at least p^2.
    expect(both).toBeGreaterThan(p * p - 0.02);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(100 / 109);
    expect(Math.max(...draws)).toBeLessThanOrEqual(109 / 100);
  });
});
