// The between-run calibration: from K runs of the same cases, each in a fresh
// process on one machine (what `compare` sees: a base run and a head run,
// minutes apart), how far each case's figure moves from process to process,
// on both bases (raw, relative to the reference workload). Then, with exactly
// the machinery compare uses, what that gives:
// - the false-alarm rate, cross-validated: each pair of processes is compared
//   with the spreads estimated from the other K - 2 (never from itself); of
//   many processes (several sittings), a seeded sample of pairs in which
//   every process takes part about equally (crossValidationPairs);
// - the detection rate of an injected slowdown (head figures scaled by
//   1 + effect), per case and overall, and so each case's minimum detectable
//   effect at this time per case.
import { compareResults } from '../compare/compare.js';
import { calmLevel, caseFigure, figureBases, firstCalmLevel, inCalmGroup, isCalmBasis } from '../compare/figures.js';
import type { RunNoise } from '../compare/noise.js';
import { calmBasesFor, runNoiseFromCalibration, withinFalseAlarmTargets } from '../compare/noise.js';
import {
  compareProcessFigures,
  isolatedModeIndexes,
  minCalmProcesses,
  minCalmProcessesPerSide,
  runPartOf,
} from '../compare/processes.js';
import type { BetweenRunCalibration, CaseResult, CaseSpread, FigureBasis, RunResult } from '../results/schemas.js';
import { median, percentile, sampleSd, seededRandom, type RandomSource } from '../stats/stats.js';
import { bootstrapIterations, checkCompareOptions } from '../stats/verdict.js';
import { CalibrationInterruptedError } from './calibrate.js';

/** Slowdowns whose detection rate is reported. */
export const defaultDetectionEffects: readonly number[] = [0.02, 0.03, 0.05, 0.1, 0.2, 0.5, 1];

/** Fewest processes: leave-two-out needs at least two left to estimate from. */
export const minCalibrationRuns = 4;

export interface BetweenRunOptions {
  threshold?: number;
  alpha?: number;
  effects?: readonly number[];
  /** Bootstrap draws per comparison (default: the verdict rule's for alpha). */
  iterations?: number;
  random?: RandomSource;
  onProgress?: (message: string) => void;
  /**
   * Pairs of processes cross-validated, at most (default
   * defaultCrossValidationPairs): with more processes, a seeded sample of them
   * (crossValidationPairs).
   */
  maxPairs?: number;
}

/** What calibrateBetweenRunsAsync adds: it stops between pairs once the signal is aborted. */
export interface BetweenRunAsyncOptions extends BetweenRunOptions {
  signal?: { readonly aborted: boolean };
}

/**
 * Pairs cross-validated at most. Each pair is one A/A comparison per
 * candidate floor (up to seven) and one more at the chosen floor, about 33 ms
 * each for six cases on the development machine: 32 processes (496 pairs)
 * took 132 s, and 159 processes of seven sittings (12,561 pairs) did not
 * finish in 20 minutes. 200 pairs judge the targets to 10 pairs and 1% of
 * 1,200 case comparisons for six cases; every pair is taken up to 20
 * processes (190 pairs), as before.
 */
export const defaultCrossValidationPairs = 200;

/**
 * The pairs [i, j] (i < j) of n processes that the cross-validation
 * compares: all of them when there are at most `max`; else `max` of them, in
 * which each process takes part about equally (2·max/n times, give or take
 * one or two): the pairs in a seeded random order, taken in passes, the t-th pass
 * taking a pair while both its processes are in fewer than t pairs. The same
 * n and max always give the same pairs (the calibration is reproducible).
 */
export function crossValidationPairs(n: number, max: number): Array<[number, number]> {
  if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`max pairs must be a whole number >= 1, got ${max}`);
  const all: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) all.push([i, j]);
  if (all.length <= max) return all;
  const random = seededRandom(0xc0ffee + n);
  for (let k = all.length - 1; k > 0; k--) {
    const m = Math.floor(random() * (k + 1));
    [all[k], all[m]] = [all[m]!, all[k]!];
  }
  const taken = new Set<number>();
  const count = new Array<number>(n).fill(0);
  for (let pass = 1; taken.size < max; pass++) {
    for (let p = 0; p < all.length && taken.size < max; p++) {
      const [i, j] = all[p]!;
      if (taken.has(p) || count[i]! >= pass || count[j]! >= pass) continue;
      taken.add(p);
      count[i]!++;
      count[j]!++;
    }
  }
  return [...taken].map((p) => all[p]!).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** The spread of one case over runs on one basis: sd of log(figure); undefined when a run has no such figure. */
function sigmaOf(cases: readonly CaseResult[], basis: FigureBasis): number | undefined {
  const logs: number[] = [];
  for (const c of cases) {
    const f = caseFigure(c, basis);
    if (f === undefined || !(f > 0)) return undefined;
    logs.push(Math.log(f));
  }
  return sampleSd(logs);
}

/** Fewest pairs of neighbouring processes a neighbour spread (CaseSpread.sigmaNeighbour) is measured over. */
export const minNeighbourPairs = 5;

/**
 * The spread between neighbouring processes of one case on one basis:
 * sqrt(mean squared successive difference of log figure / 2) over the
 * processes in the order they ran, the von Neumann estimate of the part of
 * the spread that changes from one process to the next (a slow drift shared
 * by consecutive processes leaves it out). Only processes of one sitting
 * (`sittingOf`, see sittingsOf) are neighbours. Undefined with fewer than
 * minNeighbourPairs such pairs or a process without the figure.
 */
export function neighbourSigmaOf(
  inOrder: readonly CaseResult[],
  basis: FigureBasis,
  sittingOf: (c: CaseResult) => number = () => 0,
): number | undefined {
  let squares = 0;
  let pairs = 0;
  let previous: { log: number; sitting: number } | undefined;
  for (const c of inOrder) {
    const f = caseFigure(c, basis);
    if (f === undefined || !(f > 0)) return undefined;
    const here = { log: Math.log(f), sitting: sittingOf(c) };
    if (previous !== undefined && previous.sitting === here.sitting) {
      squares += (here.log - previous.log) ** 2;
      pairs++;
    }
    previous = here;
  }
  return pairs < minNeighbourPairs ? undefined : Math.sqrt(squares / pairs / 2);
}

/** Runs in the order they ran: by their start times, stable for equal ones (sittingsOf reads them so). */
export function inRunOrder<T extends Pick<RunResult, 'createdAt'>>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

/**
 * Two processes that started more than this many times the median time
 * between consecutive starts apart belong to different sittings (sittingsOf).
 */
export const sittingGapFactor = 3;

/**
 * The sitting of each run (given in the order they ran): a calibration made
 * from the kept runs of several `calibrate` sessions (`--from-runs` on a
 * folder that `--keep-runs` filled more than once) has processes minutes or
 * hours apart, and two processes on either side of such a gap are not
 * neighbours: what differs between them belongs to the run part, the state
 * a run's processes share, measured then at the time scale of the gap.
 */
export function sittingsOf(inOrder: readonly RunResult[]): number[] {
  const starts = inOrder.map((r) => Date.parse(r.createdAt));
  const steps = starts.slice(1).map((t, i) => t - starts[i]!);
  if (steps.length === 0 || steps.some((d) => !Number.isFinite(d))) return inOrder.map(() => 0);
  const gap = sittingGapFactor * median(steps);
  const out = [0];
  for (const d of steps) out.push(out[out.length - 1]! + (d > gap ? 1 : 0));
  return out;
}

/**
 * The processes of a calm group (in the order they ran) that sat alone in a
 * mode of their own (isolatedModeIndexes, in processes.ts: beyond
 * calmModeFactor of the group's median calm figure and beyond
 * calmModeSpreads sds of the other processes' figures, with the processes
 * before and after them within it); at most one in six processes (a mode
 * met more often is part of the spread), and at least minCalmProcesses
 * left. Measured (2026-12-03, 12 and 16 processes at --time 1, quiet): one
 * process read `sha1/1500/wasm`'s calm figure 0.4169 (04:08 UTC) and 0.5510
 * (04:34) against 0.345-0.357 in all the others, with the probe in the fast
 * state throughout; kept, each made the case's calm spread 5.45% and 11.64%
 * instead of about 0.9%. The case records how many it left out (calmModes);
 * compare leaves such a mode out of a run of several processes by the same
 * rule (one a side).
 */
export function isolatedModes(inOrder: readonly CaseResult[], basis: FigureBasis = 'calm-relative'): Set<CaseResult> {
  const figures = inOrder.map((c) => caseFigure(c, basis)!);
  const modes = isolatedModeIndexes(figures, Math.floor(inOrder.length / 6), minCalmProcesses);
  return new Set(modes.map((i) => inOrder[i]!));
}

/**
 * The processes whose calm figures compare may compare with each other: of
 * those with calm figures, the group of the lowest calm level (the fast
 * state) and those within calmLevelTolerance of it, as compare selects them;
 * when that group is smaller than minCalmProcesses, the next lowest level's
 * group that is not; undefined when none is.
 */
export function calmGroup(
  cases: readonly CaseResult[],
  basis: FigureBasis = 'calm-relative',
): CaseResult[] | undefined {
  const withCalm = cases.filter((c) => caseFigure(c, basis) !== undefined);
  const lowest = firstCalmLevel([withCalm.map((c) => calmLevel(c)!)], minCalmProcesses);
  return lowest === undefined ? undefined : withCalm.filter((c) => inCalmGroup(calmLevel(c)!, lowest));
}

function pooledOf(sigmas: readonly number[]): { p50: number; p90: number } {
  return sigmas.length === 0 ? { p50: 0, p90: 0 } : { p50: percentile(sigmas, 50), p90: percentile(sigmas, 90) };
}

/** The cases measured (status ok) in every run, in the first run's order. */
function commonCases(runs: readonly RunResult[]): string[] {
  const okIn = runs.map(
    (r) => new Set(r.cases.filter((c) => c.status === 'ok' && c.samples.length > 0).map((c) => c.id)),
  );
  return runs[0]!.cases.map((c) => c.id).filter((id) => okIn.every((s) => s.has(id)));
}

interface Spreads {
  cases: Record<string, CaseSpread>;
  pooled: BetweenRunCalibration['pooled'];
  basis: FigureBasis;
  floor?: BetweenRunCalibration['floor'];
}

/**
 * Candidate floors, as quantiles of the cases' spreads on the chosen basis. A
 * case that agreed closely in every calibration process can still, in some
 * later process, land in another mode (a different JIT or GC outcome): on the
 * loaded development machine one HMAC case read 40% slower in one process of
 * eight that otherwise agreed to 1.7%. A floor keeps such a case from being
 * trusted more than the machine's typical case.
 */
export const floorQuantiles: readonly number[] = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1];

export { targetCaseFalseAlarms, targetPairFalseAlarms, withinFalseAlarmTargets } from '../compare/noise.js';

function floorOf(spreads: Spreads, quantile: number): number {
  const sigmas = Object.values(spreads.cases)
    .map((c) => c.sigma[spreads.basis])
    .filter((v): v is number => v !== undefined);
  return sigmas.length === 0 || quantile === 0 ? 0 : percentile(sigmas, quantile * 100);
}

function spreadsOf(runs: readonly RunResult[], ids: readonly string[]): Spreads {
  const cases: Record<string, CaseSpread> = {};
  const sittings = sittingsOf(runs);
  const perBasis = new Map<FigureBasis, number[]>(figureBases.map((b) => [b, []]));
  const complete = new Set<FigureBasis>(figureBases);
  for (const id of ids) {
    const each = runs.map((r) => r.cases.find((c) => c.id === id)!);
    const sittingOf = new Map(each.map((c, i) => [c, sittings[i]!]));
    const sigma: CaseSpread['sigma'] = {};
    const neighbour: NonNullable<CaseSpread['sigmaNeighbour']> = {};
    const processesOn: NonNullable<CaseSpread['processesOn']> = {};
    const calmAt: NonNullable<CaseSpread['calmLevels']> = {};
    let calmModes = 0;
    for (const basis of figureBases) {
      // The processes a basis is measured over, in the order they ran (calmGroup picks them by level).
      let group: CaseResult[] | undefined = each;
      if (isCalmBasis(basis)) {
        const calm = calmGroup(each, basis);
        const inOrder = calm === undefined ? undefined : each.filter((c) => calm.includes(c));
        const modes = inOrder === undefined ? new Set<CaseResult>() : isolatedModes(inOrder, basis);
        group = inOrder?.filter((c) => !modes.has(c));
        if (basis === 'calm-relative') calmModes = modes.size;
      }
      const s = group === undefined ? undefined : sigmaOf(group, basis);
      if (s === undefined) complete.delete(basis);
      else {
        sigma[basis] = s;
        perBasis.get(basis)!.push(s);
        const near = neighbourSigmaOf(group!, basis, (c) => sittingOf.get(c)!);
        // Never more than sigma: what differs between neighbours is part of what differs between any two.
        if (near !== undefined) neighbour[basis] = Math.min(near, s);
        if (group!.length < runs.length) processesOn[basis] = group!.length;
        if (isCalmBasis(basis)) calmAt[basis] = Math.min(...group!.map((c) => calmLevel(c)!));
      }
    }
    const medians = each.map((c) => caseFigure(c, 'median')).filter((v): v is number => v !== undefined);
    cases[id] = {
      n: runs.length,
      medianNs: medians.length > 0 ? median(medians) : median(each.map((c) => median(c.samples))),
      sigma,
    };
    if (Object.keys(processesOn).length > 0) cases[id]!.processesOn = processesOn;
    if (Object.keys(neighbour).length > 0) cases[id]!.sigmaNeighbour = neighbour;
    if (calmModes > 0) cases[id]!.calmModes = calmModes;
    if (calmAt['calm-relative'] !== undefined) cases[id]!.calmLevel = calmAt['calm-relative'];
    if (Object.keys(calmAt).length > 0) cases[id]!.calmLevels = calmAt;
  }
  const pooled: BetweenRunCalibration['pooled'] = {};
  for (const [basis, sigmas] of perBasis) if (sigmas.length > 0) pooled[basis] = pooledOf(sigmas);
  // The basis one-process runs are compared on: the smallest typical spread among those every case has (median
  // at worst). Not 'calm-relative', which serves runs of several processes only: measured over the few
  // calibration processes that met one state, a calm spread can be far tighter than a case's rare per-process
  // modes allow. A calibration of six processes of `sha1 hmac --time 0.3` (2026-12-02 08:45 UTC, load 1.1-3.2)
  // measured `sha1/1500/node-crypto`'s calm spread over 4 processes at 0.31%; used for one-process A/A pairs,
  // 3 of 10 pairs exited 1 and 11 of 640 cases were flagged (that case x1.53 and x0.65 in two pairs), against
  // 0 of 640 on the basis chosen here. In a run of several processes such a mode shows in the files' own
  // spread, which compare then takes instead (processes.ts, pooledSpread).
  let basis: FigureBasis = 'median';
  for (const candidate of figureBases) {
    if (isCalmBasis(candidate)) continue;
    if (complete.has(candidate) && pooled[candidate]!.p50 < (pooled[basis]?.p50 ?? Infinity)) basis = candidate;
  }
  return { cases, pooled, basis };
}

/** A run whose figures of every case are `factor` times larger (an injected slowdown). */
export function scaledRun(run: RunResult, factor: number): RunResult {
  const scale = (values: number[] | undefined) => values?.map((v) => v * factor);
  return {
    ...run,
    cases: run.cases.map((c) => {
      const scaled: CaseResult = { ...c, samples: scale(c.samples)! };
      if (c.sliceMedians) scaled.sliceMedians = scale(c.sliceMedians)!;
      if (c.relativeSliceMedians) scaled.relativeSliceMedians = scale(c.relativeSliceMedians)!;
      if (c.sliceFastest) scaled.sliceFastest = scale(c.sliceFastest)!;
      return scaled;
    }),
  };
}

function checkRuns(runs: readonly RunResult[]): void {
  if (runs.length < minCalibrationRuns) {
    throw new RangeError(`a between-run calibration needs at least ${minCalibrationRuns} runs, got ${runs.length}`);
  }
  const first = runs[0]!;
  for (const r of runs) {
    if (r.env.machineId !== first.env.machineId || r.env.node !== first.env.node) {
      throw new RangeError('the runs of a between-run calibration must come from one machine and runtime');
    }
    if (r.options.timePerCase !== first.options.timePerCase) {
      throw new RangeError(
        `the runs of a between-run calibration must have one time per case, got ${first.options.timePerCase} and ${r.options.timePerCase}`,
      );
    }
  }
}

/**
 * The between-run calibration of K runs (K >= 4) of the same cases, each in
 * its own fresh process on one machine and runtime (see the module comment).
 */
export function calibrateBetweenRuns(
  given: readonly RunResult[],
  options: BetweenRunOptions = {},
): BetweenRunCalibration {
  const steps = calibrationSteps(given, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * calibrateBetweenRuns, giving the event loop a turn every 50 ms or so (a
 * calibration of many processes computes for a minute or more): a Ctrl-C
 * handler then runs, and once `options.signal` is aborted this rejects with
 * a CalibrationInterruptedError at the next pair.
 */
export async function calibrateBetweenRunsAsync(
  given: readonly RunResult[],
  options: BetweenRunAsyncOptions = {},
): Promise<BetweenRunCalibration> {
  const steps = calibrationSteps(given, options);
  let turn = Date.now();
  for (;;) {
    if (options.signal?.aborted) throw new CalibrationInterruptedError('calibration interrupted');
    const step = steps.next();
    if (step.done) return step.value;
    if (Date.now() - turn >= 50) {
      await new Promise((resolve) => setImmediate(resolve));
      turn = Date.now();
    }
  }
}

/** The calibration's work, yielding after each pair of processes compared. */
function* calibrationSteps(
  given: readonly RunResult[],
  options: BetweenRunOptions,
): Generator<void, BetweenRunCalibration> {
  const { threshold, alpha } = checkCompareOptions(options);
  checkRuns(given);
  // In the order they ran (their start times; stable for equal ones): the neighbour spreads read it.
  const runs = inRunOrder(given);
  const ids = commonCases(runs);
  if (ids.length === 0) throw new RangeError('no case was measured in every run of the calibration');
  const effects = [...(options.effects ?? defaultDetectionEffects)].sort((a, b) => a - b);
  for (const e of effects) if (!(e > 0)) throw new RangeError(`injected effects must be positive, got ${e}`);
  const say = options.onProgress ?? (() => undefined);
  const pairs = crossValidationPairs(runs.length, options.maxPairs ?? defaultCrossValidationPairs);
  const full = spreadsOf(runs, ids);
  const compareOptions = {
    threshold,
    alpha,
    ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
    ...(options.random === undefined ? {} : { random: options.random }),
  };

  const idSet = new Set(ids);
  const only = (r: RunResult): RunResult => ({ ...r, cases: r.cases.filter((c) => idSet.has(c.id)) });

  /**
   * Leave-two-out: every pair of processes compared A/A with the spreads
   * measured by the other processes, no case taken as steadier than the
   * `floorQuantile` quantile of their spreads. Also, per case and pair, the
   * smallest injected slowdown that pair would call regressed: scaling the
   * head's figures by 1 + e scales every bootstrap draw by exactly 1 + e (same
   * random stream), so the verdict at e is "regressed" exactly when
   * (1 + e) * lower end > 1 + threshold.
   */
  // The other processes of each pair and their spreads, the same for every floor tried: measured once, when
  // the first floor reaches the pair (so that the async calibration yields between them too).
  const heldOut: Array<{ others: RunResult[]; held: Spreads }> = [];
  function* crossValidate(floorQuantile: number, iterations: number | undefined) {
    const falseAlarms = { flagged: 0, compared: 0, pairsFlagged: 0, pairs: 0 };
    const smallestDetected = new Map(ids.map((id) => [id, [] as number[]]));
    for (const [p, [i, j]] of pairs.entries()) {
      if (heldOut[p] === undefined) {
        const others = runs.filter((_, k) => k !== i && k !== j);
        heldOut[p] = { others, held: spreadsOf(others, ids) };
      }
      const { others, held } = heldOut[p];
      const floor = { quantile: floorQuantile, sigma: floorOf(held, floorQuantile) };
      const noise: RunNoise = runNoiseFromCalibration({
        ...calibrationShell(others, threshold, alpha),
        ...held,
        floor,
      });
      const aa = compareResults(only(runs[i]!), only(runs[j]!), {
        ...compareOptions,
        ...(iterations === undefined ? {} : { iterations }),
        noise,
        geomean: false,
      });
      falseAlarms.flagged += aa.summary.regressed + aa.summary.improved;
      falseAlarms.compared += aa.cases.length;
      falseAlarms.pairs++;
      if (aa.summary.regressed > 0) falseAlarms.pairsFlagged++;
      for (const c of aa.cases) {
        smallestDetected.get(c.id)!.push(c.ratioCi[0] > 0 ? Math.max(0, (1 + threshold) / c.ratioCi[0] - 1) : Infinity);
      }
      yield;
    }
    return { falseAlarms, smallestDetected };
  }

  // The smallest floor at which cross-validated A/A comparisons meet both targets (the largest when none does:
  // a case in a mode of its own in one process is beyond any floor that leaves power, and the text says the
  // targets were missed); searched with fewer draws, then measured with the full number.
  const searchIterations = Math.min(options.iterations ?? Infinity, 1999);
  let floorQuantile = floorQuantiles[floorQuantiles.length - 1]!;
  for (const q of floorQuantiles) {
    const { falseAlarms } = yield* crossValidate(q, searchIterations);
    say(
      `floor at the ${q * 100}th percentile of the cases' spreads: ${falseAlarms.pairsFlagged} of ${falseAlarms.pairs} A/A pairs with a case called regressed, ${falseAlarms.flagged} of ${falseAlarms.compared} case comparisons regressed or improved`,
    );
    if (withinFalseAlarmTargets(falseAlarms)) {
      floorQuantile = q;
      break;
    }
  }
  const { falseAlarms, smallestDetected } = yield* crossValidate(floorQuantile, options.iterations);
  full.floor = { quantile: floorQuantile, sigma: floorOf(full, floorQuantile) };
  for (const id of ids) {
    const worst = Math.max(...smallestDetected.get(id)!);
    // Detected in every pair: just above the largest of the pairs' smallest detected slowdowns.
    full.cases[id]!.minimumDetectableEffect = Number.isFinite(worst) ? Math.round(worst * 1e4) / 1e4 : null;
  }
  const all = [...smallestDetected.values()].flat();
  return {
    ...calibrationShell(runs, threshold, alpha),
    basis: full.basis,
    pooled: full.pooled,
    floor: full.floor!,
    cases: full.cases,
    falseAlarms,
    detection: effects.map((effect) => ({
      effect,
      detected: all.filter((smallest) => effect > smallest).length,
      compared: all.length,
    })),
  };
}

function calibrationShell(runs: readonly RunResult[], threshold: number, alpha: number) {
  const first = runs[0]!;
  const shell = {
    kind: 'layerbench/between-runs' as const,
    schemaVersion: 1 as const,
    createdAt: new Date().toISOString(),
    env: first.env,
    suites: first.suites,
    timePerCase: first.options.timePerCase,
    processes: runs.length,
    load: runs.map((r): [number, number] => [r.env.loadAvgStart[0] ?? 0, r.env.loadAvgEnd[0] ?? 0]),
    threshold,
    alpha,
  };
  return first.options.filter === undefined ? shell : { ...shell, filter: first.options.filter };
}

/** What a calibration says of runs of several processes, for one case. */
export interface SeveralProcessesOutlook {
  /** The figure such runs are compared on: a calm one when the calibration measured its spread (the smaller), else its basis. */
  basis: FigureBasis;
  /** sd of log figure of one process, and its parts (compare/processes.ts): between neighbours, and the run's. */
  sigma: number;
  neighbour?: number;
  run: number;
  /**
   * The smallest slowdown two runs of k processes a side would call
   * regressed, when their processes spread as the calibration measured and
   * both meet the state it measured in (null: none up to x10).
   */
  minimumDetectableEffect: number | null;
}

/**
 * Per case, the minimum detectable effect of two runs of k processes a side
 * (`run --processes k`) by compare's own rule for them (compareProcessFigures
 * with the calibration's spread): what `calibrate` reports beside the
 * one-process figures. A calibration without neighbour spreads gives the
 * one-process interval whatever k (all of sigma is the run's). The calm
 * figure is taken only where compare would take it: with at least
 * minCalmProcessesPerSide processes a side; with fewer, the calibration's
 * basis (one process a side: compare's one-process rule, √2·σ).
 */
export function severalProcessesOutlook(
  calibration: BetweenRunCalibration,
  k: number,
): Record<string, SeveralProcessesOutlook> {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`k must be a whole number of processes >= 1, got ${k}`);
  const noise = runNoiseFromCalibration(calibration);
  const ones = Array<number>(k).fill(1);
  const out: Record<string, SeveralProcessesOutlook> = {};
  for (const [id, c] of Object.entries(calibration.cases)) {
    // The calm basis compare would try first (calmBasesFor), of those measured for this case.
    const calm = calmBasesFor(noise, id).find((b) => c.sigma[b] !== undefined);
    const basis: FigureBasis = calm !== undefined && k >= minCalmProcessesPerSide ? calm : calibration.basis;
    const spread = noise.spreadFor(id, basis);
    const { ratioCi } = compareProcessFigures(ones, ones, spread, {
      threshold: calibration.threshold,
      alpha: calibration.alpha,
      iterations: bootstrapIterations(calibration.alpha),
      random: seededRandom(0x5eed1e55),
    });
    // As in the cross-validation: scaling the head by 1 + e scales every draw by it.
    const mde = (1 + calibration.threshold) / ratioCi[0] - 1;
    out[id] = {
      basis,
      sigma: spread.sigma,
      ...(spread.neighbour === undefined ? {} : { neighbour: spread.neighbour }),
      run: runPartOf(spread),
      minimumDetectableEffect: mde <= 9 ? Math.round(mde * 1e4) / 1e4 : null,
    };
  }
  return out;
}
