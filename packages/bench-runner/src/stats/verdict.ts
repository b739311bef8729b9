// The one verdict rule of layerbench. Every comparison (two runs, paired
// rounds, bisect, find, check) reduces to a bootstrap distribution of the
// ratio head/base, and from that one distribution come the interval, the
// p-value and the verdict, so the three cannot contradict each other:
//
// - the interval is the central 1 - alpha percentile interval of the draws;
// - the p-value is two-sided, 2 x the smaller share of draws on either side
//   of 1 (with the usual +1 so it is never 0), so "the interval excludes 1"
//   and "p < alpha" are the same statement;
// - the verdict reads the interval against the noise threshold t:
//   regressed when its lower end is above 1 + t, improved when its upper end
//   is below 1 - t, unchanged when it lies within [1 - t, 1 + t], else
//   inconclusive.
//
// Rank tests (Mann-Whitney, Wilcoxon) stay in stats.ts for whoever wants
// them; they do not decide anything here.
import { bootstrapMedianDraws, bootstrapRatioDraws, median, type BootstrapOptions } from './stats.js';
import type { SampleComparison, Verdict } from '../types.js';

/** Relative change below which a difference is treated as noise. */
export const defaultThreshold = 0.02;
/** Significance level: the interval is at confidence 1 - alpha. */
export const defaultAlpha = 0.01;

export interface CompareOptions extends Omit<BootstrapOptions, 'confidence'> {
  /** Noise threshold, relative (default 0.02 = 2%). */
  threshold?: number;
  /** Significance level; the interval is at confidence 1 - alpha (default 0.01: 99%). */
  alpha?: number;
}

export function checkCompareOptions(options: CompareOptions): { threshold: number; alpha: number } {
  const threshold = options.threshold ?? defaultThreshold;
  const alpha = options.alpha ?? defaultAlpha;
  if (!(threshold >= 0 && threshold < 1)) throw new RangeError(`threshold must be within [0, 1), got ${threshold}`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be within (0, 1), got ${alpha}`);
  return { threshold, alpha };
}

/**
 * Bootstrap draws used for significance level alpha: enough that each tail
 * beyond the interval holds about 50 draws (9999 at alpha 0.01), at least 1999.
 */
export function bootstrapIterations(alpha: number): number {
  return Math.max(1999, Math.ceil(100 / alpha) - 1);
}

/** The verdict the interval gives against the noise threshold (see the module comment). */
export function verdictOf(ratioCi: readonly [number, number], threshold: number): Verdict {
  const [lo, hi] = ratioCi;
  if (lo > 1 + threshold) return 'regressed';
  if (hi < 1 - threshold) return 'improved';
  if (lo >= 1 - threshold && hi <= 1 + threshold) return 'unchanged';
  return 'inconclusive';
}

/** "90%", "99%", "99.9%": the interval's level as printed beside it. */
export function confidenceLabel(alpha: number): string {
  return `${Number(((1 - alpha) * 100).toPrecision(6))}%`;
}

export interface RatioDecision {
  ratioCi: [number, number];
  pValue: number;
  verdict: Verdict;
  /** The interval's confidence level, 1 - alpha. */
  confidence: number;
}

export interface DecideOptions {
  threshold: number;
  alpha: number;
  /**
   * The smallest p-value the data could support whatever the bootstrap says
   * (see pFloorIndependent / pFloorPaired). A bootstrap of a few values is
   * far too sure of itself: every resample of three values that all exceed
   * the other side's does so. When the floor is not below alpha the interval
   * is widened to include 1 and the p-value raised to the floor.
   */
  pFloor?: number;
}

/**
 * Interval, p-value and verdict from bootstrap draws of a ratio (any order;
 * the array is sorted in place). With B draws and k = ceil(alpha (B + 1) / 2) - 1,
 * the interval is [k-th smallest, k-th largest] and
 * p = min(1, 2 (min(#draws <= 1, #draws >= 1) + 1) / (B + 1)); then
 * lower end > 1 <=> #draws <= 1 < k <=> p < alpha, and likewise for the upper end.
 */
export function decideRatio(draws: Float64Array, options: DecideOptions): RatioDecision {
  const { threshold, alpha } = checkCompareOptions(options);
  const b = draws.length;
  const k = Math.ceil((alpha * (b + 1)) / 2) - 1;
  if (k < 1) {
    throw new RangeError(`alpha ${alpha} needs at least ${Math.ceil(4 / alpha) - 1} bootstrap draws, got ${b}`);
  }
  for (let i = 0; i < b; i++) {
    if (Number.isNaN(draws[i]!))
      throw new RangeError('a bootstrap draw of the ratio is NaN (a resampled median of 0 / 0)');
  }
  draws.sort();
  let below = 0;
  let above = 0;
  for (let i = 0; i < b; i++) {
    if (draws[i]! <= 1) below++;
    if (draws[i]! >= 1) above++;
  }
  let ratioCi: [number, number] = [draws[k - 1]!, draws[b - k]!];
  let pValue = Math.min(1, (2 * (Math.min(below, above) + 1)) / (b + 1));
  const pFloor = options.pFloor ?? 0;
  if (pFloor > pValue) {
    pValue = Math.min(1, pFloor);
    if (pValue >= alpha) ratioCi = [Math.min(ratioCi[0], 1), Math.max(ratioCi[1], 1)];
  }
  return { ratioCi, pValue, verdict: verdictOf(ratioCi, threshold), confidence: 1 - alpha };
}

/** log of n choose k. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * The smallest two-sided p-value a rank test of two independent sets of n1
 * and n2 values can give (complete separation): 2 / C(n1 + n2, n1).
 */
export function pFloorIndependent(n1: number, n2: number): number {
  return Math.min(1, 2 * Math.exp(-logChoose(n1 + n2, Math.min(n1, n2))));
}

/** The smallest two-sided p-value a sign test of n paired values can give: 2 / 2^n. */
export function pFloorPaired(n: number): number {
  return Math.min(1, 2 * 2 ** -n);
}

function bootstrapOptionsFor(options: CompareOptions, alpha: number): BootstrapOptions {
  const chosen: BootstrapOptions = { iterations: options.iterations ?? bootstrapIterations(alpha) };
  if (options.random) chosen.random = options.random;
  return chosen;
}

/**
 * Compares two independent sets of values (ns per op, or per-slice medians):
 * ratio of medians head/base, and the verdict rule on the bootstrap of that
 * ratio (each side resampled on its own).
 */
export function compareSamples(
  base: readonly number[],
  head: readonly number[],
  options: CompareOptions = {},
): SampleComparison {
  const { threshold, alpha } = checkCompareOptions(options);
  const baseMedian = median(base);
  const headMedian = median(head);
  if (!(baseMedian > 0 && headMedian > 0)) {
    throw new RangeError(`cannot form a ratio of medians ${headMedian} / ${baseMedian} ns: both must be positive`);
  }
  const draws = bootstrapRatioDraws(base, head, bootstrapOptionsFor(options, alpha));
  const decision = decideRatio(draws, { threshold, alpha, pFloor: pFloorIndependent(base.length, head.length) });
  return { ratio: headMedian / baseMedian, ...decision };
}

/**
 * Paired comparison of per-round values (round r of base against round r of
 * head, measured back to back): ratio = median over rounds of head/base, and
 * the verdict rule on the bootstrap of that median over rounds. Pairing
 * cancels whatever slowed both halves of a round.
 */
export function compareRounds(
  baseRounds: readonly number[],
  headRounds: readonly number[],
  options: CompareOptions = {},
): SampleComparison {
  const { threshold, alpha } = checkCompareOptions(options);
  if (baseRounds.length !== headRounds.length) {
    throw new RangeError(`paired rounds must have the same length, got ${baseRounds.length} and ${headRounds.length}`);
  }
  const logRatios: number[] = [];
  for (let r = 0; r < baseRounds.length; r++) {
    const b = baseRounds[r]!;
    const h = headRounds[r]!;
    if (b > 0 && h > 0) logRatios.push(Math.log(h / b));
  }
  if (logRatios.length === 0) throw new RangeError('no round has a positive median on both sides');
  const draws = bootstrapMedianDraws(logRatios, bootstrapOptionsFor(options, alpha));
  for (let i = 0; i < draws.length; i++) draws[i] = Math.exp(draws[i]!);
  const decision = decideRatio(draws, { threshold, alpha, pFloor: pFloorPaired(logRatios.length) });
  return { ratio: Math.exp(median(logRatios)), ...decision };
}
