// Which numbers of a case a comparison uses. A case's samples within one
// timing loop are not independent, so comparisons use one figure per slice
// (at least minSlices a side), on one of five bases: the slice's median or
// its fastest batch, each as measured or divided by the same statistic of the
// reference workload timed just before and after the slice (see reference.ts),
// summarised over the slices by their median; or the slices' fastest batches
// summarised by a low quantile instead ('fastest-low'): a case that spends
// part of a run in a slow phase (another job on its core, a JIT or cache
// state that comes and goes) is read at its fast phase, which moved less
// between processes. A sixth basis, 'calm-relative', keeps of the relative
// slice medians only the slices the state probe timed beside them found the
// shared CPU in its fast state (see calmSlices), and is compared only when
// the two runs' fast states read alike. A seventh, 'calm-fastest', is the
// fastest-low figure of a process that met the fast state (its calm level,
// from the probes beside its slices, in the fast state's group): the probe
// says which processes to compare, and the low quantile picks the slices.
// The two calm bases serve runs of several processes (compare/processes.ts).
// Which basis moves least between processes on a machine is what a
// between-run calibration measures; compare uses that one.
import { lowQuantile, median } from '../stats/stats.js';
import {
  calmLevelsField,
  figureBasisSchema,
  type CalmBasis,
  type CaseResult,
  type FigureBasis,
} from '../results/schemas.js';

/** Slice figures needed on both sides to compare at slice level. */
export const minSlices = 5;

/** Every basis, in the schema's order (median, median-relative, fastest, fastest-relative, fastest-low, calm-relative, calm-fastest). */
export const figureBases: readonly FigureBasis[] = figureBasisSchema.options;

/**
 * The calm bases: figures of the processes in the probe's fast state, compared
 * only between processes whose calm levels agree (compare/processes.ts,
 * calmProcessFigures), for runs of several processes.
 */
export const calmBases: readonly CalmBasis[] = Object.keys(calmLevelsField) as CalmBasis[];

/** Whether a basis is a calm one (calmBases). */
export function isCalmBasis(basis: FigureBasis | 'samples'): basis is CalmBasis {
  return (calmBases as readonly string[]).includes(basis);
}

/**
 * A slice is calm when the state probes around it (calmSlices) read at most
 * this much (5%) above the case's calm level (probeLevel: about its fastest
 * probe): the probe's 1.5 ms slices read 4000-4800 ns in the fast state and
 * 5600-8500 in the slow one (development machine, 2026-12-02), and in
 * between an intermediate state: on 2026-12-03 (03:02 UTC) one process's
 * probes read 4390-4410 ns beside `sha1/1500/wasm` (its level 4057) while
 * the case ran x1.20 slower (2100 ns a call against 1735-1765 in 14 other
 * processes, probes 4035-4065). With a 10% margin those slices were calm and
 * the case's calm figure spread 4.97% (sd of log) over 14 fast-level
 * processes; with 5%, 0.85% (the other cases within 0.1-0.4 points).
 */
export const calmMargin = 0.05;

/**
 * Two runs' calm figures of a case are compared only when their calm levels
 * differ by at most this much (5%): otherwise at least one of them spent
 * the whole case in another state, and the calm slices are not alike.
 * Measured (2026-12-02, 46 processes of six sha1 cases at --time 1): the
 * fast state's levels 4015-4792 ns, the calm figures of `sha1/1500/wasm`
 * at 4038 and 4792 (0.3683, 0.3710) or 4083 and 4633 (0.3738, 0.3680) alike;
 * the slow state's levels 5652-6353 ns, where its calm figure was x1.4. But
 * the intermediate state of calmMargin (probes 4390-4410 ns, x1.20) lies
 * within 25% of the fast level too, and the fast level itself held at
 * 4035-4065 ns over 28 processes on 2026-12-03: 5% keeps a process whose
 * case ran wholly in the intermediate state out of the fast state's group.
 */
export const calmLevelTolerance = 0.05;

/**
 * The level of a set of slice probes: the third-lowest (the lowest of
 * fewer), so that one or two outlier-low probes do not set it. Measured
 * (2026-12-02 12:35 UTC, a fresh process whose probe read a steady
 * 5000-5090 ns): the probe before each case's first slice read 4348-4370,
 * and with the fastest probe as the level none of the case's slices was
 * within 10% of it, while its relative slices held within 1%.
 */
export function probeLevel(probes: readonly number[]): number | undefined {
  if (probes.length === 0 || !probes.every((v) => v > 0)) return undefined;
  return [...probes].sort((a, b) => a - b)[Math.min(2, probes.length - 1)];
}

/** The case's calm level: the probeLevel of its slice probes (undefined without slice probes). */
export function calmLevel(c: CaseResult): number | undefined {
  return c.sliceStateProbes === undefined ? undefined : probeLevel(c.sliceStateProbes);
}

/** Whether a calm level lies in the same state as `lowest`: at most calmLevelTolerance above it. */
export function withinCalmLevel(level: number, lowest: number): boolean {
  return level <= lowest * (1 + calmLevelTolerance);
}

/** Whether a calm level belongs to the calm group that starts at `lowest`: not below it, and withinCalmLevel. */
export function inCalmGroup(level: number, lowest: number): boolean {
  return level >= lowest && withinCalmLevel(level, lowest);
}

/**
 * Where a calm group starts: the lowest calm level of any side at which
 * every side has at least `perSide` levels in its group (inCalmGroup),
 * trying the levels from the lowest up; undefined when none does. The
 * calibration's calmGroup (one side) and compare's calmProcessFigures (base
 * and head) pick their processes by this one rule.
 */
export function firstCalmLevel(sides: readonly (readonly number[])[], perSide: number): number | undefined {
  const levels = [...new Set(sides.flat())].sort((x, y) => x - y);
  return levels.find((lowest) =>
    sides.every((side) => side.filter((level) => inCalmGroup(level, lowest)).length >= perSide),
  );
}

/** Whether two cases' calm levels agree (calmLevelTolerance). */
export function calmLevelsAgree(base: CaseResult, head: CaseResult): boolean {
  const b = calmLevel(base);
  const h = calmLevel(head);
  return b !== undefined && h !== undefined && withinCalmLevel(Math.max(b, h), Math.min(b, h));
}

/**
 * The relative slice medians of the calm slices, or undefined when the case
 * has no slice probes aligned with its slices. A slice is calm when the
 * probes on both sides of it, and the next ones out (the probes of a stretch
 * of three slices with it in the middle), read within calmMargin of the
 * case's calm level: while the shared CPU flickers between its states from
 * one 30 ms slice to the next, a probe that reads fast beside a slice does
 * not say the slice ran fast (a process at 12:30 UTC, 2026-12-02: five
 * slices of `sha1/1500/unrolled` with fast probes on both sides read
 * 0.507-0.677 relative, its steady fast figure elsewhere 0.47). Over 41
 * fresh processes of six sha1 cases at --time 1 (12:05-12:30 UTC) the calm
 * figures in the fast state spread, sd of log with the two probes around a
 * slice / with the stretch: `sha1/1500/unrolled` 1.40% / 1.27% (31 / 30
 * processes with one), `sha1/1500/wasm` 4.26% / 4.07%, the other four
 * within 0.1%.
 */
export function calmSlices(c: CaseResult): number[] | undefined {
  const relative = c.relativeSliceMedians;
  const probes = c.sliceStateProbes;
  const level = calmLevel(c);
  if (relative === undefined || probes === undefined || level === undefined) return undefined;
  if (probes.length !== relative.length + 1) return undefined;
  const limit = level * (1 + calmMargin);
  const calm = (k: number) => k >= 0 && k < probes.length && probes[k]! <= limit;
  return relative.filter((_, i) => calm(i - 1) && calm(i) && calm(i + 1) && calm(i + 2));
}

/**
 * The quantile over slices that summarises 'fastest-low' (an order statistic:
 * the round(0.1 n)-th fastest slice, at least the fastest; 10 slices: the
 * fastest, 34 slices at --time 1: the third fastest).
 */
export const lowSliceQuantile = 0.1;

/** How a basis summarises its slice figures: their median, or a low quantile. */
export function summaryOf(basis: FigureBasis | 'samples'): { quantile: number } | 'median' {
  return basis === 'fastest-low' || basis === 'calm-fastest' ? { quantile: lowSliceQuantile } : 'median';
}

/** The summary of slice figures on a basis (see summaryOf). */
export function summarise(values: readonly number[], basis: FigureBasis | 'samples'): number {
  const how = summaryOf(basis);
  return how === 'median' ? median(values) : lowQuantile(values, how.quantile);
}

export type FigureMethod = FigureBasis | 'samples';

/** The per-slice figures of a case on a basis, or undefined when it did not record them. */
export function sliceFigures(c: CaseResult, basis: FigureBasis): number[] | undefined {
  const enough = (values: number[] | undefined) =>
    values !== undefined && values.length >= minSlices ? values : undefined;
  const refs = c.reference;
  switch (basis) {
    case 'median':
      return enough(c.sliceMedians);
    case 'median-relative':
      return refs === undefined ? undefined : enough(c.relativeSliceMedians);
    case 'fastest':
    case 'fastest-low':
      return enough(c.sliceFastest);
    case 'calm-relative':
      return refs === undefined ? undefined : enough(calmSlices(c));
    case 'calm-fastest':
      // The slices' fastest batches of a case whose slice probes say its calm level (one probe beside each).
      return c.sliceFastest !== undefined &&
        c.sliceStateProbes?.length === c.sliceFastest.length + 1 &&
        calmLevel(c) !== undefined
        ? enough(c.sliceFastest)
        : undefined;
    case 'fastest-relative': {
      const fastest = enough(c.sliceFastest);
      const around = refs?.sliceFastest;
      if (fastest === undefined || around === undefined || around.length !== fastest.length + 1) return undefined;
      return fastest.map((v, i) => v / Math.sqrt(around[i]! * around[i + 1]!));
    }
  }
}

/** What to use when a basis is missing on one side: the same statistic unnormalised, then the median. */
export function fallbacks(basis: FigureBasis): FigureBasis[] {
  if (basis === 'fastest-relative') return ['fastest-relative', 'fastest', 'median'];
  if (basis === 'median-relative') return ['median-relative', 'median'];
  if (basis === 'fastest') return ['fastest', 'median'];
  if (basis === 'fastest-low') return ['fastest-low', 'fastest', 'median'];
  // Runs in different states (calm levels apart): the figure that moved least across states.
  if (basis === 'calm-relative') return ['calm-relative', 'fastest-low', 'fastest', 'median'];
  if (basis === 'calm-fastest') return ['calm-fastest', 'fastest-low', 'fastest', 'median'];
  return ['median'];
}

/**
 * The values to compare for one case measured in two runs: the figures on
 * `basis` when both have them (relative ones only against the same reference
 * workload), else the nearest basis both have, else the pooled samples.
 */
export function pairFigures(
  base: CaseResult,
  head: CaseResult,
  basis: FigureBasis,
): { method: FigureMethod; base: number[]; head: number[] } {
  const sameReference = base.reference?.work === head.reference?.work;
  return (
    commonBasis(base, head, basis, sameReference, sliceFigures) ?? {
      method: 'samples',
      base: base.samples,
      head: head.samples,
    }
  );
}

/**
 * The first of `basis` and its fallbacks on which `figuresOf` gives both
 * cases figures (relative ones only when `sameReference`): the slice figures
 * of one-process runs (pairFigures), the process figures of runs of several
 * (compare's process path).
 */
export function commonBasis(
  base: CaseResult,
  head: CaseResult,
  basis: FigureBasis,
  sameReference: boolean,
  figuresOf: (c: CaseResult, basis: FigureBasis) => number[] | undefined,
): { method: FigureBasis; base: number[]; head: number[] } | undefined {
  for (const candidate of fallbacks(basis)) {
    if (candidate.endsWith('relative') && !sameReference) continue;
    if (isCalmBasis(candidate) && !calmLevelsAgree(base, head)) continue;
    const b = figuresOf(base, candidate);
    const h = figuresOf(head, candidate);
    if (b && h) return { method: candidate, base: b, head: h };
  }
  return undefined;
}

/** One run's figure of a case on a basis (the summary of its slice figures), or undefined when it has none. */
export function caseFigure(c: CaseResult, basis: FigureBasis): number | undefined {
  if (c.status !== 'ok') return undefined;
  const values = sliceFigures(c, basis);
  return values === undefined ? undefined : summarise(values, basis);
}

/** The basis whose spread a method's comparison takes ('samples': the median's). */
export function basisOf(method: FigureMethod): FigureBasis {
  return method === 'samples' ? 'median' : method;
}
