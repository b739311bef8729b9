// Comparisons whose replicates are processes (layer bisection and find).
// Each variant of a case runs in several worker processes, and a process as a
// whole can be fast or slow by several percent (its JIT decisions, its memory
// layout): an offset that no number of visits to the same process averages
// away. So the process, not the visit, is the unit of replication:
//
// - each process contributes one value, a robust location of its visits: the
//   median of the logs of its visit values;
// - the spread of those values around their variant's mean, pooled over all
//   the variants of one case (same case, same machine, same rounds), is the
//   noise a difference is judged against; pooling gives many more degrees of
//   freedom than one variant's few processes (5 variants x 3 processes: 10);
// - the difference of two variants' means, over its standard error, has a t
//   distribution with the pooled degrees of freedom. Draws of the ratio from
//   that distribution go through the one verdict rule (decideRatio), so the
//   interval, the p-value and the verdict agree here as everywhere else.
//
// A per-process offset therefore widens every interval of the case instead of
// becoming a verdict about the variant that happened to get that process.
import { median, normalVariate, seededRandom } from './stats.js';
import type { SampleComparison } from '../types.js';
import { bootstrapIterations, checkCompareOptions, decideRatio, type CompareOptions } from './verdict.js';

/** Per variant: per process, the values of its visits (ns per operation, > 0). */
export type ProcessValues = Record<string, readonly (readonly number[])[]>;

export interface ProcessModel {
  /** Per variant: the location of each process that has values (log of the median of its visit values). */
  locations: Record<string, number[]>;
  /** Pooled between-process standard deviation of the locations (log scale). */
  sd: number;
  /** Its degrees of freedom: processes minus variants, over the variants with values. */
  df: number;
  /**
   * head / base: the ratio of the two variants' geometric-mean process
   * locations, with interval, p-value and verdict by the one verdict rule.
   * Undefined when either variant has no process with values.
   */
  compare(base: string, head: string): SampleComparison | undefined;
  /**
   * Any contrast of the variants' mean locations, exp(sum of weight x mean),
   * e.g. { 'good+esp': 1, good: -1, control: -1, good2: 1 }: a ratio of ratios.
   * Same distribution and rule as compare(); `threshold` overrides the noise
   * threshold (0: the verdict says only whether the interval excludes 1).
   * Undefined when a weighted variant has no process with values.
   */
  contrast(weights: Record<string, number>, threshold?: number): SampleComparison | undefined;
}

/** Fixed seed of the t draws: the same data always give the same interval. */
const drawSeed = 0x5eed7a11;

/** The fixed-seed draws per degrees of freedom and count: every case of a bisect shares them. */
const cachedDraws = new Map<string, Float64Array>();

function fixedSeedTDraws(df: number, count: number): Float64Array {
  const key = `${df}:${count}`;
  let draws = cachedDraws.get(key);
  if (!draws) {
    draws = studentTDraws(df, count);
    cachedDraws.set(key, draws);
  }
  return draws;
}

/**
 * `count` draws of Student's t with `df` degrees of freedom, as
 * Z / sqrt(chi2 / df) with chi2 the sum of df squared standard normals.
 */
export function studentTDraws(df: number, count: number, random = seededRandom(drawSeed)): Float64Array {
  if (!(Number.isInteger(df) && df >= 1))
    throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  const draws = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let chi2 = 0;
    for (let k = 0; k < df; k++) {
      const z = normalVariate(random);
      chi2 += z * z;
    }
    draws[i] = normalVariate(random) / Math.sqrt(chi2 / df);
  }
  return draws;
}

/**
 * Fits the pooled process model to one case's values. Needs at least one
 * variant with two or more processes (else the between-process variance
 * cannot be estimated: a RangeError).
 */
export function processModel(values: ProcessValues, options: CompareOptions = {}): ProcessModel {
  const { threshold, alpha } = checkCompareOptions(options);
  const locations: Record<string, number[]> = {};
  let sumSquares = 0;
  let df = 0;
  for (const [variant, processes] of Object.entries(values)) {
    const locs: number[] = [];
    for (const visits of processes) {
      if (visits.length === 0) continue;
      if (visits.some((v) => !(v > 0 && Number.isFinite(v)))) {
        throw new RangeError(`${variant}: visit values must be positive finite numbers of ns`);
      }
      locs.push(Math.log(median(visits)));
    }
    if (locs.length === 0) continue;
    locations[variant] = locs;
    const m = locs.reduce((a, b) => a + b, 0) / locs.length;
    for (const l of locs) sumSquares += (l - m) ** 2;
    df += locs.length - 1;
  }
  if (df < 1) {
    throw new RangeError(
      'the process model needs a variant with at least two processes: one process per variant cannot tell a process offset from a change',
    );
  }
  const sd = Math.sqrt(sumSquares / df);
  const iterations = options.iterations ?? bootstrapIterations(alpha);
  const t = options.random ? studentTDraws(df, iterations, options.random) : fixedSeedTDraws(df, iterations);
  const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const contrast = (weights: Record<string, number>, contrastThreshold = threshold): SampleComparison | undefined => {
    let d = 0;
    let variance = 0;
    for (const [variant, w] of Object.entries(weights)) {
      if (w === 0) continue;
      const locs = locations[variant];
      if (!locs) return undefined;
      d += w * meanOf(locs);
      variance += (w * w) / locs.length;
    }
    const se = sd * Math.sqrt(variance);
    const draws = new Float64Array(t.length);
    for (let i = 0; i < t.length; i++) draws[i] = Math.exp(d + se * t[i]!);
    return { ratio: Math.exp(d), ...decideRatio(draws, { threshold: contrastThreshold, alpha }) };
  };
  return {
    locations,
    sd,
    df,
    contrast,
    compare(base, head) {
      if (!locations[base] || !locations[head]) return undefined;
      return contrast(base === head ? {} : { [head]: 1, [base]: -1 });
    },
  };
}
