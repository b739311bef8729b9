// Runs of several fresh processes: processes as replicates in separate runs.
// One process of a case draws its own offset (the state of the shared
// machine's CPU it stayed on, its JIT and code placement), so a run of one
// process carries that offset whole, and only a calibration made at another
// time says how large it may be. A run of k processes (`layerbench run
// --processes k`) records the case's figure in each process; compare then
// - takes each side's figure as the geometric mean of its processes (the
//   noise within each process averages out),
// - measures the spread between processes in the two files themselves (the
//   pooled sd of log figure around each side's mean, n_base + n_head - 2
//   degrees of freedom) and uses it when it is wider than the calibration's
//   (or the default's): a calibration made at a quieter time cannot make
//   compare surer than the files allow,
// - and averages over the processes only what changes from one process to
//   the next. The processes of one run share the machine's state of those
//   minutes (measured, bench-runner README, "Several processes per run": a
//   mode in which SHA-1 code ran 1.35-1.39x slower for four consecutive
//   processes while the reference workload did not move), so averaging k
//   processes does not shrink that part. A calibration that measured the
//   spread between neighbouring processes (sigma_n, CaseSpread.sigmaNeighbour)
//   splits sigma in two: the process part sigma_n, and the run part
//   sigma_r = sqrt(sigma^2 - sigma_n^2) that consecutive processes share; the
//   interval's between-run term is then
//   sqrt(sigma_n^2 (1/n_base + 1/n_head) + 2 sigma_r^2), which is sqrt(2)
//   sigma for one process a side. Without that measurement all of sigma
//   counts as the run's: sqrt(2) sigma whatever the number of processes.
import {
  computeStats,
  geometricMean,
  mean,
  median,
  sampleSd,
  studentTVariate,
  type RandomSource,
} from '../stats/stats.js';
import { checkCompareOptions, decideRatio, type CompareOptions } from '../stats/verdict.js';
import {
  calmLevelsField,
  type CaseResult,
  type FigureBasis,
  type RunResult,
  type SampleComparison,
} from '../results/schemas.js';
import { calmBases, calmLevel, caseFigure, figureBases, firstCalmLevel, inCalmGroup, isCalmBasis } from './figures.js';
import { addStateShift, type CaseSpreadEstimate } from './noise.js';

/** A case's figure on every basis it has, in one process. */
export function figuresOfProcess(c: CaseResult): Partial<Record<FigureBasis, number>> {
  const figures: Partial<Record<FigureBasis, number>> = {};
  for (const basis of figureBases) {
    const figure = caseFigure(c, basis);
    if (figure !== undefined) figures[basis] = figure;
  }
  return figures;
}

/**
 * A case's per-process figures on `basis`: the recorded ones of a run of
 * several processes, else the one figure of a one-process run; undefined
 * when it has none on that basis.
 */
export function processFiguresOn(c: CaseResult, basis: FigureBasis): number[] | undefined {
  if (c.status !== 'ok') return undefined;
  const recorded = c.processFigures?.[basis];
  if (recorded !== undefined) return recorded.length > 0 ? [...recorded] : undefined;
  const figure = caseFigure(c, basis);
  return figure === undefined ? undefined : [figure];
}

/**
 * Fewest calm processes a side needs to be compared on calm figures.
 * With one, a process in a mode of its own that the probe does not see is
 * invisible to the files' spread. Measured (2026-12-02 10:15 UTC, 12 fresh
 * processes at --time 1, load 0.9-1.2): `sha1/1500/wasm` read x1.45
 * (calm figure 0.5128 against 0.347-0.358) in one process whose probes were
 * all in the fast state.
 * With two (the rule until 2026-12-05), a run whose other processes met the
 * slow state could be judged on two processes that shared a sub-state of the
 * fast one: under a busy loop (2026-12-05 16:13-16:31 UTC, load 2.1-2.4) a
 * run of six processes of the SHA-1 seed had only two in the fast state,
 * both read `sha1/1500/wasm` +5% (calm figures 0.3716 and 0.3728 against the
 * base's 0.3507-0.3552; the seed leaves that case's code unchanged), and the
 * case was called regressed x1.052 [1.032, 1.073]. With three, the same
 * files give no such verdict; the +5% slowdown of one case was found as
 * often in four sittings (13, 6, 13, 11 of 16 base/slowed comparisons) and
 * in 6 instead of 8 of 16 in the busy one (bench-runner README, "Three calm
 * processes a side").
 */
export const minCalmProcessesPerSide = 3;

/**
 * The calm figures of the processes of two cases that compare may compare
 * (processes in the same state, see figures.ts): those whose calm level lies
 * within calmLevelTolerance of the lowest level on either side; when a side
 * has fewer than `perSide` of them (minCalmProcessesPerSide), those within
 * calmLevelTolerance of the next lowest level, and so on, as the calibration
 * picks its calm group (calmGroup); undefined when no level gives both sides
 * `perSide`, or a case has no calm figures. `lowestLevel` is the level the
 * group starts at (compare checks it against the calibration's).
 */
export function calmProcessFigures(
  base: CaseResult,
  head: CaseResult,
  perSide = minCalmProcessesPerSide,
  basis: FigureBasis = 'calm-relative',
): { base: number[]; head: number[]; lowestLevel: number } | undefined {
  const sides = [base, head].map((c) => {
    const figures = processFiguresOn(c, basis);
    const levels = processLevelsOn(c, basis) ?? (figures?.length === 1 ? [calmLevel(c)!] : undefined);
    return figures !== undefined && levels !== undefined && levels.length === figures.length
      ? { figures, levels }
      : undefined;
  });
  if (sides.some((side) => side === undefined)) return undefined;
  const lowest = firstCalmLevel(
    sides.map((side) => side!.levels),
    perSide,
  );
  if (lowest === undefined) return undefined;
  const [b, h] = sides.map((side) => side!.figures.filter((_, i) => inCalmGroup(side!.levels[i]!, lowest)));
  return { base: b!, head: h!, lowestLevel: lowest };
}

/** The calm levels recorded beside a calm basis's process figures (calmLevelsField). */
function processLevelsOn(c: CaseResult, basis: FigureBasis): number[] | undefined {
  return isCalmBasis(basis) ? c[calmLevelsField[basis]] : undefined;
}

/** Fewest processes a calm spread is measured over (calibration), and left in a side when compare leaves a mode out. */
export const minCalmProcesses = 3;

/**
 * A process whose calm figure lies beyond this factor (10%) of its group's
 * median, while its neighbours do not, sat in a mode of its own
 * (isolatedModeIndexes).
 */
export const calmModeFactor = 1.1;

/**
 * ... and beyond this many standard deviations of the other processes' calm
 * figures (isolatedModeIndexes): a mode stands apart from a tight group, not
 * in the tail of a wide one. Measured on six calibrations of 2026-12-03 (8
 * to 16 calm processes of the six `sha1/(64|1500)/(dispatch|unrolled|wasm)`
 * cases): the three modes of `sha1/1500/wasm` and `sha1/1500/unrolled` lay
 * 17.8, 30.7 and 53.4 of the others' sds out; every other process beyond
 * 10% lay 1.0 to 6.7 sds out (19 of them, 64-byte cases whose processes
 * spread 2.4-16%), and leaving such a tail out had made a calm spread too
 * narrow: `sha1/64/dispatch` 2.43% instead of 5.64% (one process of nine
 * x1.18), and two later runs of 4 processes of identical code were called
 * improved x0.906 with it.
 */
export const calmModeSpreads = 10;

/**
 * How far from its group a process must lie to count as alone in a mode of
 * its own (isolatedModeIndexes): beyond `factor` of the group's median and
 * beyond `spreads` sds of the other processes' figures.
 */
export interface ModeRule {
  factor: number;
  spreads: number;
  /**
   * The widest the other processes may spread (sd of log) for one to be left
   * out: compare's rule, poolableSpreadRatio times the case's calibrated
   * process spread. A side whose other processes spread wider than that is
   * not in the state the calibration measured, and which of its processes is
   * "in a mode" its own median cannot tell (modeRuleFor).
   */
  maxSpread?: number;
}

/** The calibration's rule, for every case: 10% and 10 sds (calmModeFactor, calmModeSpreads). */
export const calibrationModeRule: ModeRule = { factor: calmModeFactor, spreads: calmModeSpreads };

/**
 * For compare, a case's rule from the calm spread its calibration measured
 * (sigma, sd of log): beyond this many of its sds (4), within
 * [minCalmModeFactor, calmModeFactor]...
 */
export const calmModeSigmas = 4;

/** ... but never nearer than 3% ... */
export const minCalmModeFactor = 1.03;

/**
 * ... and, where that factor is under calmModeFactor (a case whose
 * calibrated calm spread is under 2.4%), beyond 5 sds of the others instead
 * of 10: the 10 were chosen against the tails of the 64-byte cases
 * (processes spread 2.4-16%), which keep the calibration's rule. Measured
 * (replaying the power runs of 2026-12-03 and 12-04, every base against
 * every slowed run of `sha1/1500/wasm` +5.3%, runs of 4-6 processes, each
 * hour's calibration): a slowed run's process at 0.3844 against
 * 0.3591-0.3646 (x1.06, a calibrated sd of 0.9%) widened its comparisons
 * to about [0.96, 1.16] under the calibration's rule; with this one 40 -> 45
 * of 80 base/slowed comparisons were called regressed, and 0 of 400
 * untouched and 0 of 450 further A/A case comparisons changed verdict.
 */
export const calmModeSpreadsBelowFactor = 5;

/**
 * The rule compare leaves a process out of a side by, for a case of
 * calibrated calm spread `sigma` (of which `processPart` changes between
 * neighbouring processes: the part the files' own spread is judged against,
 * as in pooledSpread). Nothing is left out of a side whose other processes
 * spread more than poolableSpreadRatio times that part (maxSpread): then the
 * process far from the side's median may be the one in the calibrated state
 * and the others in a state of their own. Measured (2026-12-06 09:05 UTC, a
 * slowed run of 8 + 4 processes of `sha1/1500/wasm` at --time 1, calibrated
 * calm sd 0.22%): calm figures 0.3877-0.4030 in four processes and 0.3595 in
 * the fifth, which the other slowed run's ten processes (0.3610-0.3677) show
 * to be the usual figure; the 0.3595 process was left out as a mode of its
 * own, and the two runs of identical code were called regressed x1.088
 * [1.041, 1.138] (with the files' spreads pooled by degrees of freedom).
 */
export function modeRuleFor(sigma: number | undefined, processPart: number | undefined = sigma): ModeRule {
  if (sigma === undefined || !(sigma >= 0)) return calibrationModeRule;
  const factor = Math.min(calmModeFactor, Math.max(minCalmModeFactor, Math.exp(calmModeSigmas * sigma)));
  const rule = factor < calmModeFactor ? { factor, spreads: calmModeSpreadsBelowFactor } : calibrationModeRule;
  const part = processPart !== undefined && processPart >= 0 ? processPart : sigma;
  return { ...rule, maxSpread: poolableSpreadRatio * part };
}

/**
 * The indexes of the processes (calm figures in the order they ran) that sat
 * alone in a mode of their own: beyond `rule.factor` of the group's median
 * and beyond `rule.spreads` sds of the other processes' figures, with the
 * processes before and after them within it. None when more than `allowed`
 * are (a mode met that often is part of the spread), when fewer than
 * `minLeft` would be left, or when the others spread more than
 * `rule.maxSpread` (a side not in the calibrated state: modeRuleFor).
 */
export function isolatedModeIndexes(
  figures: readonly number[],
  allowed: number,
  minLeft: number,
  rule: ModeRule = calibrationModeRule,
): number[] {
  const logs = figures.map((v) => Math.log(v));
  const centre = median(logs);
  const far = logs.map((v) => Math.abs(v - centre) > Math.log(rule.factor));
  const alone = far.map((isFar, i) => isFar && far[i - 1] !== true && far[i + 1] !== true);
  const modes = alone.flatMap((isAlone, i) => (isAlone ? [i] : []));
  if (modes.length === 0 || modes.length > allowed || logs.length - modes.length < minLeft) return [];
  const spread = sampleSd(logs.filter((_, i) => !alone[i]));
  if (rule.maxSpread !== undefined && spread > rule.maxSpread) return [];
  return modes.every((i) => Math.abs(logs[i]! - centre) > rule.spreads * spread) ? modes : [];
}

/**
 * Compare's counterpart for one side of a comparison on calm figures: a run
 * of several processes leaves out at most one process that sat alone in a
 * mode of its own (isolatedModeIndexes, by the case's rule: modeRuleFor),
 * keeping at least minCalmProcesses. Such a mode (a case's calm figure
 * x1.18-x1.56 in one of 4-6 processes whose probes were all in the fast
 * state, the others within about 1%) made the side's own spread, and with
 * it the interval, several times wider than the case's: measured
 * (2026-12-04 02:05-02:16 UTC, four runs of 4-6 processes a side of
 * `sha1/1500/wasm` at --time 1), 3 of the 4 base runs had one.
 */
export function withoutIsolatedMode(
  figures: readonly number[],
  rule: ModeRule = calibrationModeRule,
): { kept: number[]; left: number } {
  const modes = isolatedModeIndexes(figures, 1, minCalmProcesses, rule);
  return { kept: figures.filter((_, i) => !modes.includes(i)), left: modes.length };
}

/** Whether a case was measured in more than one process (and compare should use its process figures). */
export function hasProcessFigures(c: CaseResult): boolean {
  return Object.values(c.processFigures ?? {}).some((values) => values !== undefined && values.length >= 2);
}

/**
 * The spread between processes measured in the two sides themselves: the sd
 * of log figure around each side's own mean, the two sides' variances
 * averaged with equal weight (Welch-Satterthwaite degrees of freedom, n_base
 * + n_head - 2 when they agree); one side's alone when the other has one
 * process. Undefined when no side has two processes.
 * Equal weight, not weighted by processes: a side whose processes met a
 * state of their own spreads far wider than the other, and pooled by
 * degrees of freedom the other side's many tight processes hid it.
 * Measured (2026-12-06 08:50-09:14 UTC, runs of 8-12 processes of
 * `sha1/1500/wasm` at --time 1, a calibration of 0.22%): two slowed runs of
 * identical code, one with 10 calm processes at 0.3610-0.3677, the other
 * with four at 0.3877-0.4030 (a fifth, at 0.3595, left out as a mode of
 * its own), were called regressed x1.088 [1.041, 1.138] on a pooled sd of
 * 1.0% (12 degrees of freedom); with equal weight 1.2% and 4 degrees of
 * freedom, inconclusive.
 */
export function ownSpread(base: readonly number[], head: readonly number[]): CaseSpreadEstimate | undefined {
  const sides = [base, head].flatMap((side) => {
    if (side.length < 2) return [];
    const logs = side.map((v) => Math.log(v));
    const m = mean(logs);
    const dof = side.length - 1;
    return [{ variance: logs.reduce((sum, v) => sum + (v - m) ** 2, 0) / dof, dof }];
  });
  if (sides.length === 0) return undefined;
  if (sides.length === 1) return { sigma: Math.sqrt(sides[0]!.variance), dof: sides[0]!.dof };
  const [b, h] = sides as [(typeof sides)[number], (typeof sides)[number]];
  // Two sides of no spread at all: as many degrees of freedom as processes allow.
  return { sigma: Math.sqrt((b.variance + h.variance) / 2), dof: welchSatterthwaiteDof(sides, b.dof + h.dof) };
}

/**
 * Welch-Satterthwaite degrees of freedom of a sum of variances, each with its
 * own degrees of freedom, at most `cap` (also when every variance is nil).
 */
function welchSatterthwaiteDof(parts: readonly { variance: number; dof: number }[], cap: number): number {
  const total = parts.reduce((sum, part) => sum + part.variance, 0);
  const denominator = parts.reduce((sum, part) => sum + part.variance ** 2 / part.dof, 0);
  return denominator === 0 ? cap : Math.min(cap, total ** 2 / denominator);
}

/**
 * How much wider than the calibration's the files' own spread may be and
 * still be pooled with it (calm figures): twice. Beyond, the files' spread
 * alone counts. With 3 degrees of freedom in the files a sample sd twice the
 * true one has probability 0.7% (chi-square), so a calibration that still
 * fits is pooled, and one made at a quieter time is not trusted.
 */
export const poolableSpreadRatio = 2;

/**
 * The spread of calm figures of several processes: the calibration's and the
 * files' own pooled (variances weighted by their degrees of freedom, which
 * add) when the own spread is at most poolableSpreadRatio times the
 * calibration's; else the own spread when wider; else the calibration's.
 */
export function pooledSpread(
  calibration: CaseSpreadEstimate,
  own: CaseSpreadEstimate | undefined,
): { spread: CaseSpreadEstimate; source: 'pooled' | 'runs' | 'calibration' } {
  if (own === undefined || !Number.isFinite(calibration.dof)) return { spread: calibration, source: 'calibration' };
  // The files' own spread is between the processes of one run: neighbours. With the calibration's split it
  // pools with the process part, and the run part stays as measured.
  const processPart = calibration.neighbour ?? calibration.sigma;
  if (own.sigma > poolableSpreadRatio * processPart) {
    // The files alone, as one run's spread, and with a measured run part never narrower than that part allows.
    const sigma = calibration.neighbour === undefined ? own.sigma : Math.hypot(own.sigma, runPartOf(calibration));
    return { spread: { sigma, dof: own.dof }, source: 'runs' };
  }
  const dof = calibration.dof + own.dof;
  const pooled = Math.sqrt((calibration.dof * processPart ** 2 + own.dof * own.sigma ** 2) / dof);
  if (calibration.neighbour === undefined) return { spread: { sigma: pooled, dof }, source: 'pooled' };
  const runPart = runPartOf(calibration);
  return {
    spread: { sigma: Math.sqrt(pooled ** 2 + runPart ** 2), dof, neighbour: pooled, runDof: calibration.dof },
    source: 'pooled',
  };
}

/** The run part of a spread: sqrt(sigma^2 - neighbour^2), all of sigma when the neighbours were not measured. */
export function runPartOf(spread: CaseSpreadEstimate): number {
  return spread.neighbour === undefined
    ? spread.sigma
    : Math.sqrt(Math.max(0, spread.sigma ** 2 - spread.neighbour ** 2));
}

/**
 * The sd of the log ratio of two runs' geometric means of nBase and nHead
 * processes (see the module comment): sqrt(sigma_n^2 (1/nBase + 1/nHead) +
 * 2 sigma_r^2); sqrt(2) sigma when the spread has no neighbour part.
 */
export function betweenRunsScale(spread: CaseSpreadEstimate, nBase: number, nHead: number): number {
  return Math.sqrt(betweenRunsParts(spread, nBase, nHead).reduce((sum, part) => sum + part.variance, 0));
}

/** The two variances of betweenRunsScale with their degrees of freedom (one part without a neighbour spread). */
function betweenRunsParts(
  spread: CaseSpreadEstimate,
  nBase: number,
  nHead: number,
): { variance: number; dof: number }[] {
  if (spread.neighbour === undefined) return [{ variance: 2 * spread.sigma ** 2, dof: spread.dof }];
  return [
    { variance: spread.neighbour ** 2 * (1 / nBase + 1 / nHead), dof: spread.dof },
    { variance: 2 * runPartOf(spread) ** 2, dof: spread.runDof ?? spread.dof },
  ];
}

/**
 * The degrees of freedom of the between-run term (Welch-Satterthwaite over
 * its parts): the pooled process part's when the run part is nil, the
 * calibration's when the run part dominates.
 */
export function betweenRunsDof(spread: CaseSpreadEstimate, nBase: number, nHead: number): number {
  return welchSatterthwaiteDof(betweenRunsParts(spread, nBase, nHead), spread.dof);
}

/**
 * The verdict rule for one case from per-process figures: the ratio of the
 * two sides' geometric means, its interval from `spread` (the sd of log
 * figure of one run, Student's t) as for two runs each off by it:
 * exp(betweenRunsScale T), which without a measured neighbour part is
 * exp(sqrt(2) sigma T) whatever the number of processes (see above), also
 * for calm figures of processes in one state: measured (2026-12-02 13:35
 * UTC, 8 processes a side at --time 1), `sha1/64/unrolled`'s calm figures
 * in the probe's fast state were 0.0630-0.0742 in all five such processes
 * of one run and 0.0511-0.0623 in the seven of the run before it (code
 * unchanged), a sub-state of the vCPU the probe does not see, kept for
 * minutes; taken as independent draws (sigma sqrt(1/n_base + 1/n_head)) the
 * case was called regressed x1.187 [1.042, 1.363]. A calibration whose
 * processes met such a state for minutes measures it as run part (their
 * neighbours agree, the processes minutes apart do not), which the
 * interval keeps whole.
 */
export function compareProcessFigures(
  base: readonly number[],
  head: readonly number[],
  spread: CaseSpreadEstimate,
  options: CompareOptions & {
    random: RandomSource;
    iterations: number;
    stateRatio?: number;
  },
): SampleComparison {
  const { threshold, alpha } = checkCompareOptions(options);
  if (base.length === 0 || head.length === 0) throw new RangeError('each side needs at least one process figure');
  for (const v of [...base, ...head]) {
    if (!(v > 0 && Number.isFinite(v))) throw new RangeError(`process figures must be positive, got ${v}`);
  }
  const ratio = geometricMean(head) / geometricMean(base);
  const scale = betweenRunsScale(spread, base.length, head.length);
  const dof = betweenRunsDof(spread, base.length, head.length);
  const draws = new Float64Array(options.iterations);
  for (let i = 0; i < draws.length; i++) {
    draws[i] = scale === 0 ? ratio : ratio * Math.exp(scale * studentTVariate(dof, options.random));
  }
  if (options.stateRatio !== undefined) addStateShift(draws, options.stateRatio, options.random);
  return { ratio, ...decideRatio(draws, { threshold, alpha }) };
}

const concat = (values: (number[] | undefined)[]): number[] | undefined =>
  values.every((v) => v !== undefined) ? values.flatMap((v) => v!) : undefined;

/** One case of several processes as one case: pooled samples and slices, and each process's figures. */
function mergeCase(parts: CaseResult[]): CaseResult {
  const failed = parts.find((c) => c.status !== 'ok');
  if (failed !== undefined) return failed;
  const first = parts[0]!;
  const samples = parts.flatMap((c) => c.samples);
  const merged: CaseResult = { ...first, samples };
  // The reference slices lie between one process's slices only: no merged relation to keep.
  delete merged.reference;
  if (samples.length > 0) merged.stats = computeStats(samples, first.bytesPerOp);
  // Every process's figures one after the other, when every process has them.
  // Slice probes lie between one process's slices only, as the reference slices do (processCalmLevels keep
  // what compare needs of them).
  delete merged.sliceStateProbes;
  for (const key of ['sliceMedians', 'sliceFastest', 'relativeSliceMedians', 'stateProbe'] as const) {
    const pooled = concat(parts.map((c) => c[key]));
    if (pooled !== undefined) merged[key] = pooled;
    else delete merged[key];
  }
  if (parts.some((c) => c.digestOk === false)) merged.digestOk = false;
  const fixed = parts.map((c) => c.fixedTime);
  if (fixed.every((f) => f !== undefined)) {
    merged.fixedTime = {
      seconds: fixed.reduce((sum, f) => sum + f!.seconds, 0),
      ops: fixed.reduce((sum, f) => sum + f!.ops, 0),
    };
  }
  const perProcess = parts.map(figuresOfProcess);
  const processFigures: NonNullable<CaseResult['processFigures']> = {};
  for (const basis of figureBases) {
    if (isCalmBasis(basis)) continue;
    const values = perProcess.map((figures) => figures[basis]);
    if (values.every((v) => v !== undefined)) processFigures[basis] = values as number[];
  }
  // Calm figures: of the processes that have one (too few calm slices in a process, or no slice probes, leave
  // it out), each with its calm level, which says which processes' calm figures compare may compare.
  for (const basis of calmBases) {
    delete merged[calmLevelsField[basis]];
    const calm = parts.filter((_, i) => perProcess[i]![basis] !== undefined);
    if (calm.length === 0) continue;
    processFigures[basis] = calm.map((c) => caseFigure(c, basis)!);
    merged[calmLevelsField[basis]] = calm.map((c) => calmLevel(c)!);
  }
  merged.processFigures = processFigures;
  return merged;
}

/**
 * How far into a run of several processes a process must end for its end
 * reading of the 1-minute load average to count as the run's own
 * (middleLoads): one minute, that average's time constant. Before, the
 * reading is mostly the minute before the run (the build or the compare
 * before it; calibration-fit.ts, endLoad).
 */
export const ownLoadAfterSeconds = 60;

/**
 * The 1-minute load average at the end of each process of `runs` but the
 * last (whose end is the merged run's loadAvgEnd) that ended at least
 * ownLoadAfterSeconds after the first began; a process ends when the next
 * one begins (createdAt). A busy stretch in the middle of a run is the
 * run's as much as one at its end: compare reads the run's load from them
 * too (peakLoad, endLoad).
 */
export function middleLoads(runs: readonly RunResult[]): number[] {
  const start = Date.parse(runs[0]?.createdAt ?? '');
  return runs.slice(0, -1).flatMap((run, i) => {
    const ended = Date.parse(runs[i + 1]!.createdAt);
    const load = run.env.loadAvgEnd[0];
    return load !== undefined && ended - start >= ownLoadAfterSeconds * 1000 ? [load] : [];
  });
}

/**
 * Several one-process runs of the same suites, options and machine, one after
 * the other, as one result: each case with every process's samples and
 * slices and its figure per process (processFigures); the environment of the
 * first with the load average at the start of the first and the end of the
 * last, and the end readings of the processes between (middleLoads). A case that failed in any process is failed; a case some processes
 * did not reach (interrupted) is merged over those that did.
 */
export function mergeProcessRuns(runs: readonly RunResult[]): RunResult {
  if (runs.length === 0) throw new RangeError('no runs to merge');
  const first = runs[0]!;
  for (const [i, run] of runs.entries()) {
    if (run.processes !== undefined && run.processes > 1)
      throw new RangeError(`run ${i + 1} is already a run of ${run.processes} processes`);
    if (run.options.timePerCase !== first.options.timePerCase || run.suites.join(' ') !== first.suites.join(' '))
      throw new RangeError(`run ${i + 1} measured other suites or another --time than the first`);
    if (run.env.machineId !== first.env.machineId || run.env.node !== first.env.node)
      throw new RangeError(`run ${i + 1} ran on another machine or runtime than the first`);
  }
  const last = runs[runs.length - 1]!;
  const ids = [...new Set(runs.flatMap((run) => run.cases.map((c) => c.id)))];
  const cases = ids.map((id) => mergeCase(runs.flatMap((run) => run.cases.filter((c) => c.id === id))));
  const env: RunResult['env'] = { ...first.env, loadAvgEnd: last.env.loadAvgEnd };
  const middle = middleLoads(runs);
  if (middle.length > 0) env.processLoadAvgEnds = middle;
  else delete env.processLoadAvgEnds;
  if (runs.some((run) => run.env.measuredOnCpu !== first.env.measuredOnCpu)) {
    delete env.measuredOnCpu;
    env.cpuNote = 'the processes of this run were measured on different CPUs';
  }
  const merged: RunResult = { ...first, env, cases, processes: runs.length };
  const overheads = runs.map((run) => run.overheadNs).filter((v): v is number => v !== undefined);
  if (overheads.length > 0) merged.overheadNs = overheads.sort((a, b) => a - b)[Math.floor(overheads.length / 2)]!;
  if (runs.some((run) => run.interrupted === true)) merged.interrupted = true;
  return merged;
}
