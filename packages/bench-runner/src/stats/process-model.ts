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
import { mean, median, normalVariate, seededRandom } from './stats.js';
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
  /** Paired: the processes (indices) the fit used. */
  processesUsed?: number[];
  /** Paired: the processes left out because one of their variants was stuck far from its usual value (outlierRows). */
  processesLeftOut?: number[];
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

/** The t draws one comparison uses: fixed-seed (shared) unless the caller gives its own random source. */
function tDrawsFor(df: number, alpha: number, options: CompareOptions): Float64Array {
  const iterations = options.iterations ?? bootstrapIterations(alpha);
  return options.random ? studentTDraws(df, iterations, options.random) : fixedSeedTDraws(df, iterations);
}

/** exp(d + se x t) through the one verdict rule: a log-ratio estimate with its standard error. */
function logRatioComparison(
  d: number,
  se: number,
  t: Float64Array,
  rule: { threshold: number; alpha: number },
): SampleComparison {
  const draws = new Float64Array(t.length);
  for (let i = 0; i < t.length; i++) draws[i] = Math.exp(d + se * t[i]!);
  return { ratio: Math.exp(d), ...decideRatio(draws, rule) };
}

function checkVisits(variant: string, visits: readonly number[]): void {
  if (visits.some((v) => !(v > 0 && Number.isFinite(v)))) {
    throw new RangeError(`${variant}: visit values must be positive finite numbers of ns`);
  }
}

/** The location of one process's visits: the log of their median (throws on values that are not positive finite ns). */
function processLocation(variant: string, visits: readonly number[]): number {
  checkVisits(variant, visits);
  return Math.log(median(visits));
}

/**
 * Paired: the locations of one process's variants, each the median over the
 * rounds of its log visit value less the mean of that round's log values over
 * the process's variants. Visits of one round follow each other, so the
 * machine's state of that moment (it flickers between a fast and a x1.2-1.4
 * slow state from one visit to the next on this VM) is taken out round by
 * round, whatever share of the rounds it was slow in. Only the rounds every
 * variant completed count. Measured over 16 paired bisects of SHA-1 cases
 * (2026-12-02 15:10-15:35 UTC): the residual spread of 1500-byte cases was at
 * most 3.7% this way (one stuck copy aside), against up to 7.1% with each
 * variant's median and up to 9.8% with a low quantile of its visits.
 */
function pairedLocations(variants: readonly string[], processVisits: readonly (readonly number[])[]): number[] {
  // NaN: a visit that produced no value (it keeps the rounds aligned); its round is left out.
  for (const [j, visits] of processVisits.entries()) {
    checkVisits(
      variants[j]!,
      visits.filter((v) => !Number.isNaN(v)),
    );
  }
  const rounds = Math.min(...processVisits.map((visits) => visits.length));
  const centred = variants.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    if (processVisits.some((visits) => Number.isNaN(visits[r]))) continue;
    const logs = processVisits.map((visits) => Math.log(visits[r]!));
    const m = mean(logs);
    for (const [j, l] of logs.entries()) centred[j]!.push(l - m);
  }
  if (centred[0]!.length === 0)
    throw new RangeError('a paired process has no round in which every variant has a value');
  return centred.map((c) => median(c));
}

export interface PairedModelOptions extends CompareOptions {
  /** Keep every process, also one where a variant is stuck far off (outlierRows); default false. */
  keepOutliers?: boolean;
}

/** Residual of a cell, in log units, beyond which it is called stuck: this many robust sds ... */
const OUTLIER_SDS = 6;
/** ... and at least this far off (5%): a tight fit must not make ordinary cells outliers. */
const OUTLIER_FLOOR = Math.log(1.05);

/**
 * The rows (processes) with a cell far off the additive fit. A copy of a
 * variant's code in one process can settle on a much slower JIT outcome than
 * every other copy and stay there: measured in paired bisects of SHA-1 on
 * 2026-12-02, one cell of 30 at 3-4x (2375 vs 9735 ns) and one at +16%, every
 * other within 1-2%. A t fit treats such a cell as spread and makes every
 * interval of the case useless. Here the fit is a median polish (resistant to
 * the outlier it looks for), the scale 1.4826 x the median absolute residual,
 * and a cell is stuck when its residual exceeds OUTLIER_SDS such scales and
 * OUTLIER_FLOOR. The paired model leaves its whole process out (the design
 * stays balanced) when it is the only such process of five or more.
 */
export function outlierRows(y: readonly (readonly number[])[]): number[] {
  const rows = y.length;
  const columns = y[0]?.length ?? 0;
  if (rows < 3 || columns < 2) return [];
  const r = y.map((row) => [...row]);
  for (let iteration = 0; iteration < 10; iteration++) {
    for (const row of r) {
      const m = median(row);
      for (let j = 0; j < columns; j++) row[j]! -= m;
    }
    for (let j = 0; j < columns; j++) {
      const m = median(r.map((row) => row[j]!));
      for (const row of r) row[j]! -= m;
    }
  }
  const scale = 1.4826 * median(r.flat().map(Math.abs));
  const limit = Math.max(OUTLIER_SDS * scale, OUTLIER_FLOOR);
  const out: number[] = [];
  r.forEach((row, i) => {
    if (row.some((res) => Math.abs(res) > limit)) out.push(i);
  });
  return out;
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
      locs.push(processLocation(variant, visits));
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
  const t = tDrawsFor(df, alpha, options);
  const contrast = (weights: Record<string, number>, contrastThreshold = threshold): SampleComparison | undefined => {
    let d = 0;
    let variance = 0;
    for (const [variant, w] of Object.entries(weights)) {
      if (w === 0) continue;
      const locs = locations[variant];
      if (!locs) return undefined;
      d += w * mean(locs);
      variance += (w * w) / locs.length;
    }
    return logRatioComparison(d, sd * Math.sqrt(variance), t, { threshold: contrastThreshold, alpha });
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

/**
 * The process model when every process measured every variant (paired
 * bisection: each worker process hosts a copy of every variant's stack and
 * visits them in turn). A process's offset — fast or slow as a whole, its
 * memory layout, the machine's state while it ran — then lands on every
 * variant it hosts alike, and comparisons are made within processes:
 *
 * - y[p][v] is the location of variant v in process p: visit r of every
 *   variant of p is round r (they follow each other), and y[p][v] is the
 *   median over the rounds of v's log visit value less that round's mean
 *   (pairedLocations); only processes that measured every variant count
 *   (the blocks), over the rounds all their variants completed;
 * - the two-way additive fit y[p][v] = mean + process[p] + variant[v] + e
 *   takes the process offsets out; its residual spread, pooled over the
 *   case's variants, has (processes - 1) x (variants - 1) degrees of freedom;
 * - a contrast whose weights sum to zero (compare, ratios of ratios) has
 *   standard error sd x sqrt(sum of w^2 / processes) and a t distribution,
 *   and goes through the one verdict rule like every other comparison; the
 *   contrast's own spread over the processes (a paired t, processes - 1
 *   degrees of freedom) gives a second interval, and the wider one is given.
 *
 * Contrasts whose weights do not sum to zero would carry the process offsets
 * and are refused (RangeError). Needs two processes and two variants.
 */
export function pairedProcessModel(values: ProcessValues, options: PairedModelOptions = {}): ProcessModel {
  const { threshold, alpha } = checkCompareOptions(options);
  const variants = Object.keys(values).filter((v) => values[v]!.some((visits) => visits.length > 0));
  const processCount = Math.max(0, ...variants.map((v) => values[v]!.length));
  const blocks: number[] = [];
  for (let p = 0; p < processCount; p++) {
    if (variants.every((v) => (values[v]![p]?.length ?? 0) > 0)) blocks.push(p);
  }
  if (blocks.length < 2 || variants.length < 2) {
    throw new RangeError(
      `the paired process model needs two processes that measured every variant and two variants (got ${blocks.length} such processes, ${variants.length} variants)`,
    );
  }
  const all = blocks.map((p) =>
    pairedLocations(
      variants,
      variants.map((v) => values[v]![p]!),
    ),
  );
  const stuck = options.keepOutliers ? [] : outlierRows(all);
  // A stuck copy is a rare accident: one process is left out, of five or more. Two or more such processes
  // mean a heavy-tailed spread, not an accident (2026-12-02, sha1/64/dispatch at 15:19 UTC: three of six
  // processes "stuck", and the three left made an A/A control read x1.112 "regressed"; sha1/64/unrolled at
  // 15:24: two of ten, the eight left read the A/A control x1.115 [1.018, 1.226]): then every process is
  // kept, wider and never surer.
  const leftOut = stuck.length === 1 && all.length >= 5 ? stuck : [];
  const y = all.filter((_, i) => !leftOut.includes(i));
  const kept = blocks.filter((_, i) => !leftOut.includes(i));
  const rowMeans = y.map((row) => mean(row));
  const columnMeans = variants.map((_, j) => mean(y.map((row) => row[j]!)));
  const grand = mean(rowMeans);
  let sumSquares = 0;
  for (const [i, row] of y.entries()) {
    for (const [j, value] of row.entries()) sumSquares += (value - rowMeans[i]! - columnMeans[j]! + grand) ** 2;
  }
  const df = (kept.length - 1) * (variants.length - 1);
  const sd = Math.sqrt(sumSquares / df);
  const t = tDrawsFor(df, alpha, options);
  const ownT = tDrawsFor(kept.length - 1, alpha, options);
  const column = new Map(variants.map((v, j) => [v, j]));
  const locations: Record<string, number[]> = {};
  variants.forEach((v, j) => {
    locations[v] = y.map((row) => row[j]!);
  });
  const contrast = (weights: Record<string, number>, contrastThreshold = threshold): SampleComparison | undefined => {
    const terms: [column: number, weight: number][] = [];
    for (const [variant, w] of Object.entries(weights)) {
      if (w === 0) continue;
      const j = column.get(variant);
      if (j === undefined) return undefined;
      terms.push([j, w]);
    }
    const sumWeights = terms.reduce((a, [, w]) => a + w, 0);
    const sumSquaredWeights = terms.reduce((a, [, w]) => a + w * w, 0);
    if (Math.abs(sumWeights) > 1e-9) {
      throw new RangeError(
        'a paired contrast needs weights that sum to zero: otherwise the process offsets stay in it',
      );
    }
    // The contrast in each process; its mean over the processes is the estimate (the columns' means weighted).
    const perProcess = y.map((row) => terms.reduce((c, [j, w]) => c + w * row[j]!, 0));
    const d = mean(perProcess);
    const rule = { threshold: contrastThreshold, alpha };
    const pooled = logRatioComparison(d, sd * Math.sqrt(sumSquaredWeights / kept.length), t, rule);
    if (sumSquaredWeights === 0) return pooled;
    // The contrast's own spread over the processes (a paired t with processes - 1 degrees of freedom):
    // when the copies of some variant sit apart from the others in every process, the pooled residual
    // does not see it (measured 2026-12-02 15:24 UTC: sha1/64/unrolled, the good stack's copy 1-16%
    // below two identical copies in 9 of 9 processes; pooled, the A/A control read x1.131 "regressed").
    // The wider of the two intervals is the one given.
    const own = Math.sqrt(perProcess.reduce((a, c) => a + (c - d) ** 2, 0) / (perProcess.length - 1));
    const single = logRatioComparison(d, own / Math.sqrt(perProcess.length), ownT, rule);
    const width = (c: SampleComparison) => Math.log(c.ratioCi[1] / c.ratioCi[0]);
    return width(single) > width(pooled) ? single : pooled;
  };
  return {
    locations,
    sd,
    df,
    processesUsed: kept,
    processesLeftOut: leftOut.map((i) => blocks[i]!),
    contrast,
    compare(base, head) {
      if (!column.has(base) || !column.has(head)) return undefined;
      return contrast(base === head ? {} : { [head]: 1, [base]: -1 });
    },
  };
}
