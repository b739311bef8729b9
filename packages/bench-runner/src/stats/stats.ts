// Pure statistics for benchmark samples: location and spread, bootstrap
// confidence intervals, and the Mann-Whitney U test. Nothing here reads a
// clock, so every function is tested against reference values.
import type { CaseStats } from '../types.js';

/** A source of uniform numbers in [0, 1): Math.random or a seeded generator. */
export type RandomSource = () => number;

export interface BootstrapOptions {
  /** Two-sided confidence level (default 0.95). */
  confidence?: number;
  /** Bootstrap resamples (default 2000). */
  iterations?: number;
  /** Uniform random source; defaults to a fixed seed so results are reproducible. */
  random?: RandomSource;
}

const defaultSeed = 0x1a7e7b3c;

function requireSamples(values: readonly number[], what: string): void {
  if (values.length === 0) throw new RangeError(`${what} needs at least one sample, got none`);
}

function sortedCopy(values: readonly number[]): number[] {
  return Float64Array.from(values).sort() as unknown as number[];
}

/** Median of a sorted array (average of the two middle values when even). */
function sortedMedian(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function median(values: readonly number[]): number {
  requireSamples(values, 'median');
  return sortedMedian(sortedCopy(values));
}

export function mean(values: readonly number[]): number {
  requireSamples(values, 'mean');
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * The p-th percentile (p in 0..100) with linear interpolation between order
 * statistics (the "type 7" definition of R, NumPy's default).
 */
export function percentile(values: readonly number[], p: number): number {
  requireSamples(values, 'percentile');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  return sortedPercentile(sortedCopy(values), p);
}

function sortedPercentile(sorted: ArrayLike<number>, p: number): number {
  const h = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Sample standard deviation (n - 1); 0 for fewer than two values. */
export function sampleSd(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (n - 1));
}

/** Median absolute deviation from the median (raw, not scaled by 1.4826). */
export function mad(values: readonly number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m)));
}

/** Mulberry32: a small, fast, seedable 32-bit generator; uniform in [0, 1). */
export function seededRandom(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal variate (Box-Muller). */
export function normalVariate(random: RandomSource): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Gamma(shape, 1) variate, Marsaglia-Tsang; shape >= 1 (below 1 by the boost U^(1/shape)). */
export function gammaVariate(shape: number, random: RandomSource): number {
  if (!(shape > 0)) throw new RangeError(`gamma shape must be positive, got ${shape}`);
  if (shape < 1) {
    let u = 0;
    while (u === 0) u = random();
    return gammaVariate(shape + 1, random) * u ** (1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalVariate(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Student's t variate with `dof` degrees of freedom (Infinity: standard normal). */
export function studentTVariate(dof: number, random: RandomSource): number {
  const z = normalVariate(random);
  if (dof === Infinity) return z;
  return z / Math.sqrt((2 * gammaVariate(dof / 2, random)) / dof);
}

/**
 * Draws the median of one bootstrap resample of `sorted` in O(1).
 *
 * A resample is n uniform draws of an index; its k-th smallest index is
 * floor(n * U(k)) where U(k), the k-th order statistic of n uniforms, is
 * Beta(k, n + 1 - k). Because the data are sorted, the resample's k-th
 * smallest value is sorted[floor(n * U(k))]. This is the exact bootstrap
 * distribution of the median without materialising the resample, so the cost
 * does not grow with the (often thousands of) batch samples.
 */
function resampledMedian(sorted: ArrayLike<number>, random: RandomSource): number {
  const n = sorted.length;
  if (n === 1) return sorted[0]!;
  const k = (n + 1) >> 1; // lower middle, 1-based
  const x = gammaVariate(k, random);
  const y = gammaVariate(n + 1 - k, random);
  const uk = x / (x + y);
  const lower = sorted[Math.min(n - 1, Math.floor(n * uk))]!;
  if (n % 2 === 1) return lower;
  // Given U(k), the other n-k uniforms are uniform on (U(k), 1): the next
  // order statistic is their minimum.
  let v = 0;
  while (v === 0) v = random();
  const uk1 = uk + (1 - uk) * (1 - v ** (1 / (n - k)));
  const upper = sorted[Math.min(n - 1, Math.floor(n * uk1))]!;
  return (lower + upper) / 2;
}

/**
 * The k-th smallest (1-based) of a sorted set: the order statistic a low
 * quantile q of n values is read as, k = max(1, round(q * n)) (so at most the
 * n-th). The same definition is used for the point figure and for each
 * bootstrap resample, so a ratio and its draws agree.
 */
export function orderStatisticIndex(n: number, quantile: number): number {
  if (!(quantile > 0 && quantile <= 1)) throw new RangeError(`quantile must be within (0, 1], got ${quantile}`);
  return Math.min(n, Math.max(1, Math.round(quantile * n)));
}

/** The low quantile of a set as an order statistic (see orderStatisticIndex). */
export function lowQuantile(values: readonly number[], quantile: number): number {
  requireSamples(values, 'lowQuantile');
  const sorted = sortedCopy(values);
  return sorted[orderStatisticIndex(sorted.length, quantile) - 1]!;
}

/**
 * Draws the k-th smallest value of one bootstrap resample of `sorted` in O(1):
 * the resample's k-th smallest index is floor(n * U(k)), U(k) ~ Beta(k, n + 1 - k)
 * (as for resampledMedian).
 */
function resampledOrderStatistic(sorted: ArrayLike<number>, k: number, random: RandomSource): number {
  const n = sorted.length;
  if (n === 1) return sorted[0]!;
  const x = gammaVariate(k, random);
  const y = gammaVariate(n + 1 - k, random);
  return sorted[Math.min(n - 1, Math.floor((n * x) / (x + y)))]!;
}

/**
 * Bootstrap distribution of q(head) / q(base) for a low quantile q read as an
 * order statistic (lowQuantile), each side resampled independently.
 */
export function bootstrapQuantileRatioDraws(
  base: readonly number[],
  head: readonly number[],
  quantile: number,
  options: BootstrapOptions = {},
): Float64Array {
  requireSamples(base, 'bootstrapQuantileRatioDraws (base)');
  requireSamples(head, 'bootstrapQuantileRatioDraws (head)');
  const { iterations, random } = checkBootstrapOptions(options);
  const sb = sortedCopy(base);
  const sh = sortedCopy(head);
  const kb = orderStatisticIndex(sb.length, quantile);
  const kh = orderStatisticIndex(sh.length, quantile);
  const draws = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    draws[i] = resampledOrderStatistic(sh, kh, random) / resampledOrderStatistic(sb, kb, random);
  }
  return draws;
}

function checkBootstrapOptions(options: BootstrapOptions): Required<BootstrapOptions> {
  const confidence = options.confidence ?? 0.95;
  const iterations = options.iterations ?? 2000;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be within (0, 1), got ${confidence}`);
  if (!(Number.isInteger(iterations) && iterations >= 10)) {
    throw new RangeError(`bootstrap iterations must be an integer >= 10, got ${iterations}`);
  }
  return { confidence, iterations, random: options.random ?? seededRandom(defaultSeed) };
}

function percentileInterval(draws: Float64Array, confidence: number): [number, number] {
  draws.sort();
  const tail = ((1 - confidence) / 2) * 100;
  return [sortedPercentile(draws, tail), sortedPercentile(draws, 100 - tail)];
}

/** Bootstrap distribution of the median: `iterations` resampled medians, in draw order. */
export function bootstrapMedianDraws(samples: readonly number[], options: BootstrapOptions = {}): Float64Array {
  requireSamples(samples, 'bootstrapMedianDraws');
  const { iterations, random } = checkBootstrapOptions(options);
  const sorted = sortedCopy(samples);
  const draws = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) draws[i] = resampledMedian(sorted, random);
  return draws;
}

/** Percentile-bootstrap confidence interval of the median. */
export function bootstrapMedianCi(samples: readonly number[], options: BootstrapOptions = {}): [number, number] {
  return percentileInterval(bootstrapMedianDraws(samples, options), checkBootstrapOptions(options).confidence);
}

/**
 * Bootstrap distribution of median(head) / median(base), each side
 * resampled independently: `iterations` draws, in draw order.
 */
export function bootstrapRatioDraws(
  base: readonly number[],
  head: readonly number[],
  options: BootstrapOptions = {},
): Float64Array {
  requireSamples(base, 'bootstrapRatioDraws (base)');
  requireSamples(head, 'bootstrapRatioDraws (head)');
  const { iterations, random } = checkBootstrapOptions(options);
  const sb = sortedCopy(base);
  const sh = sortedCopy(head);
  const draws = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) draws[i] = resampledMedian(sh, random) / resampledMedian(sb, random);
  return draws;
}

/**
 * Percentile-bootstrap confidence interval of median(head) / median(base),
 * resampling each side independently.
 */
export function bootstrapRatioCi(
  base: readonly number[],
  head: readonly number[],
  options: BootstrapOptions = {},
): [number, number] {
  return percentileInterval(bootstrapRatioDraws(base, head, options), checkBootstrapOptions(options).confidence);
}

/**
 * Bootstrap distribution of the geometric mean of median ratios head/base
 * over several cases: each draw resamples every case on both sides.
 */
export function bootstrapGeomeanRatioDraws(
  pairs: readonly { base: readonly number[]; head: readonly number[] }[],
  options: BootstrapOptions = {},
): Float64Array {
  if (pairs.length === 0) throw new RangeError('bootstrapGeomeanRatioDraws needs at least one case');
  const { iterations, random } = checkBootstrapOptions(options);
  const sorted = pairs.map((p) => {
    requireSamples(p.base, 'bootstrapGeomeanRatioDraws (base)');
    requireSamples(p.head, 'bootstrapGeomeanRatioDraws (head)');
    return { base: sortedCopy(p.base), head: sortedCopy(p.head) };
  });
  const draws = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    let logSum = 0;
    for (const p of sorted) logSum += Math.log(resampledMedian(p.head, random) / resampledMedian(p.base, random));
    draws[i] = Math.exp(logSum / sorted.length);
  }
  return draws;
}

/** Percentile-bootstrap CI of the geometric mean of median ratios head/base over several cases. */
export function bootstrapGeomeanRatioCi(
  pairs: readonly { base: readonly number[]; head: readonly number[] }[],
  options: BootstrapOptions = {},
): [number, number] {
  return percentileInterval(bootstrapGeomeanRatioDraws(pairs, options), checkBootstrapOptions(options).confidence);
}

/**
 * Complementary error function. Below 2: 1 - erf(x) from erf's series with
 * positive terms only (no cancellation inside the sum); from 2 on: the
 * continued fraction of erfc, evaluated backwards. Relative error below 1e-13
 * against SciPy over the range tested.
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 2) {
    // erf(x) = 2/sqrt(pi) * exp(-x^2) * sum 2^n x^(2n+1) / (1*3*...*(2n+1))
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
  }
  // erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
  let f = x;
  for (let n = 120; n >= 1; n--) f = x + n / 2 / f;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** Standard normal upper tail P(Z > z). */
export function normalUpperTail(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

export interface MannWhitneyResult {
  /** U statistic of the first sample: the number of (a, b) pairs with a > b, ties counting one half. */
  u: number;
  /** Normal-approximation z score (tie-corrected, with continuity correction); > 0 when a tends to be larger. */
  z: number;
  /** Two-sided p-value. */
  pValue: number;
}

/**
 * Mann-Whitney U test, two-sided, normal approximation with tie correction and
 * continuity correction (the same as SciPy's mannwhitneyu(method='asymptotic')).
 */
export function mannWhitneyU(a: readonly number[], b: readonly number[]): MannWhitneyResult {
  requireSamples(a, 'mannWhitneyU (first sample)');
  requireSamples(b, 'mannWhitneyU (second sample)');
  const n1 = a.length;
  const n2 = b.length;
  const n = n1 + n2;
  // Sort the pooled values once, remembering which side each came from.
  const order = new Uint32Array(n);
  const values = new Float64Array(n);
  for (let i = 0; i < n1; i++) values[i] = a[i]!;
  for (let i = 0; i < n2; i++) values[n1 + i] = b[i]!;
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((x, y) => values[x]! - values[y]!);
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && values[order[j]!] === values[order[i]!]) j++;
    const averageRank = (i + 1 + j) / 2;
    const t = j - i;
    if (t > 1) tieTerm += t * t * t - t;
    for (let k = i; k < j; k++) if (order[k]! < n1) rankSumA += averageRank;
    i = j;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) return { u, z: 0, pValue: 1 };
  const diff = u - mu;
  const corrected = Math.sign(diff) * Math.max(0, Math.abs(diff) - 0.5);
  const z = corrected / Math.sqrt(variance);
  const pValue = Math.min(1, 2 * normalUpperTail(Math.abs(z)));
  return { u, z, pValue };
}

export interface SignedRankResult {
  /** Sum of the ranks of the positive differences (zeros dropped). */
  wPlus: number;
  /** Non-zero differences used. */
  n: number;
  z: number;
  pValue: number;
}

/**
 * Wilcoxon signed-rank test of paired differences against zero, two-sided,
 * normal approximation with tie and continuity corrections, zero differences
 * dropped (SciPy's wilcoxon(d, zero_method='wilcox', correction=True, method='approx')).
 */
export function wilcoxonSignedRank(differences: readonly number[]): SignedRankResult {
  const nonZero = differences.filter((d) => d !== 0);
  const n = nonZero.length;
  if (n === 0) return { wPlus: 0, n: 0, z: 0, pValue: 1 };
  const order = nonZero.map((_, i) => i).sort((x, y) => Math.abs(nonZero[x]!) - Math.abs(nonZero[y]!));
  let wPlus = 0;
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && Math.abs(nonZero[order[j]!]!) === Math.abs(nonZero[order[i]!]!)) j++;
    const averageRank = (i + 1 + j) / 2;
    const t = j - i;
    if (t > 1) tieTerm += t * t * t - t;
    for (let k = i; k < j; k++) if (nonZero[order[k]!]! > 0) wPlus += averageRank;
    i = j;
  }
  const mu = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  if (!(variance > 0)) return { wPlus, n, z: 0, pValue: 1 };
  const diff = wPlus - mu;
  const corrected = Math.sign(diff) * Math.max(0, Math.abs(diff) - 0.5);
  const z = corrected / Math.sqrt(variance);
  return { wPlus, n, z, pValue: Math.min(1, 2 * normalUpperTail(Math.abs(z))) };
}

/** Geometric mean of positive numbers. */
export function geometricMean(values: readonly number[]): number {
  requireSamples(values, 'geometricMean');
  let sum = 0;
  for (const v of values) {
    if (!(v > 0)) throw new RangeError(`geometricMean needs positive values, got ${v}`);
    sum += Math.log(v);
  }
  return Math.exp(sum / values.length);
}

/**
 * Summary statistics of per-operation samples (ns). `bytesPerOp` adds the
 * throughput figures. Everything is finite so the result survives JSON.
 */
export function computeStats(
  samples: readonly number[],
  bytesPerOp?: number,
  options: BootstrapOptions = {},
): CaseStats {
  requireSamples(samples, 'computeStats');
  const sorted = sortedCopy(samples);
  const med = sortedMedian(sorted);
  const deviations = sortedCopy(sorted.map((v) => Math.abs(v - med)));
  const stats: CaseStats = {
    n: sorted.length,
    median: med,
    mean: mean(sorted),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    p99: sortedPercentile(sorted, 99),
    mad: sortedMedian(deviations),
    ci: bootstrapMedianCi(sorted, options),
    nsPerOp: med,
    opsPerSec: med > 0 ? 1e9 / med : 0,
  };
  if (bytesPerOp !== undefined && med > 0) {
    const bytesPerSec = (bytesPerOp * 1e9) / med;
    stats.mbPerSec = bytesPerSec / 1e6;
    stats.mbitPerSec = (bytesPerSec * 8) / 1e6;
  }
  return stats;
}
