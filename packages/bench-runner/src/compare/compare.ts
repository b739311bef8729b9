// Comparing two separate runs. Per case: the ratio head/base of its figures
// (slice medians, or relative to the reference workload), its interval,
// p-value and verdict by the one verdict rule (stats/verdict.ts), with the
// between-run spread of the case on this machine added (noise.ts). Across
// runs: digest changes, cases on one side only, failures, the differences of
// the two environment fingerprints, and whether they can be compared at all.
import {
  bootstrapGeomeanRatioDraws,
  bootstrapQuantileRatioDraws,
  bootstrapRatioDraws,
  geometricMean,
  lowQuantile,
  median,
  seededRandom,
  studentTVariate,
  type RandomSource,
} from '../stats/stats.js';
import {
  bootstrapIterations,
  checkCompareOptions,
  decideRatio,
  pFloorIndependent,
  type CompareOptions,
} from '../stats/verdict.js';
import { endLoad } from './calibration-fit.js';
import { basisOf, commonBasis, isCalmBasis, pairFigures, summaryOf, withinCalmLevel } from './figures.js';
import {
  addStateShift,
  calmBasesFor,
  defaultRunNoise,
  defaultSpread,
  stateMoved,
  stateSensitivity,
  type CaseSpreadEstimate,
  type RunNoise,
} from './noise.js';
import {
  calmModeFactor,
  calmModeSigmas,
  calmProcessFigures,
  compareProcessFigures,
  hasProcessFigures,
  minCalmModeFactor,
  minCalmProcessesPerSide,
  modeRuleFor,
  ownSpread,
  pooledSpread,
  processFiguresOn,
  runPartOf,
  withoutIsolatedMode,
  type ModeRule,
} from './processes.js';
import type {
  CaseComparison,
  CaseResult,
  FigureBasis,
  Comparison,
  EnvFingerprint,
  FingerprintDiff,
  RunResult,
  SampleComparison,
  Verdict,
} from '../types.js';

function implOf(c: CaseResult): string | undefined {
  if (c.implementation !== undefined) return c.implementation;
  return c.params.impl !== undefined ? String(c.params.impl) : undefined;
}

function diffValue(
  diffs: FingerprintDiff[],
  kind: string,
  what: string,
  base: string | undefined,
  head: string | undefined,
  field?: string,
): void {
  if (base === head) return;
  const diff: FingerprintDiff = { kind, what, base: base ?? '(none)', head: head ?? '(none)' };
  if (field !== undefined) diff.field = field;
  diffs.push(diff);
}

/** Differences between two environment fingerprints: the first hints of where a change came from. */
export function diffFingerprints(base: EnvFingerprint, head: EnvFingerprint): FingerprintDiff[] {
  const diffs: FingerprintDiff[] = [];
  diffValue(diffs, 'runtime', 'node', base.node, head.node);
  diffValue(diffs, 'v8', 'v8', base.v8, head.v8);
  diffValue(diffs, 'openssl', 'openssl', base.openssl, head.openssl);
  diffValue(diffs, 'os', 'os', base.os, head.os);
  diffValue(diffs, 'cpu', 'cpu', `${base.cpuModel} x${base.cpuCount}`, `${head.cpuModel} x${head.cpuCount}`);
  diffValue(diffs, 'capabilities', 'CPU capabilities', base.capabilities, head.capabilities);

  const decisions = (env: EnvFingerprint) => new Map(env.dispatch.map((d) => [`${d.layer}: ${d.decision}`, d.impl]));
  const baseDispatch = decisions(base);
  const headDispatch = decisions(head);
  for (const key of new Set([...baseDispatch.keys(), ...headDispatch.keys()])) {
    diffValue(diffs, 'dispatch', key, baseDispatch.get(key), headDispatch.get(key));
  }

  const layers = (env: EnvFingerprint) => new Map(env.layers.map((l) => [l.name, l]));
  const baseLayers = layers(base);
  const headLayers = layers(head);
  for (const name of new Set([...baseLayers.keys(), ...headLayers.keys()])) {
    const b = baseLayers.get(name);
    const h = headLayers.get(name);
    if (!b || !h) {
      diffValue(diffs, 'layer', name, b ? b.version : '(absent)', h ? h.version : '(absent)', 'presence');
      continue;
    }
    diffValue(diffs, 'layer', name, b.version, h.version, 'version');
    diffValue(diffs, 'layer', name, b.source, h.source, 'source');
    diffValue(diffs, 'layer', name, b.commit, h.commit, 'commit');
    diffValue(diffs, 'layer', name, b.contentHash, h.contentHash, 'contentHash');
  }
  return diffs;
}

/**
 * A run's 1-minute load average: the larger of the one at its start and
 * endLoad's (at its end and, for a run of several processes, at the ends of
 * the processes between).
 */
export function peakLoad(env: EnvFingerprint): number {
  return Math.max(env.loadAvgStart[0] ?? 0, endLoad({ env }));
}

/**
 * Reasons to distrust a comparison of two separate runs: a load average above
 * the CPU count (other processes took turns with the measurement) or two
 * different machines.
 */
export function comparisonWarnings(base: EnvFingerprint, head: EnvFingerprint): string[] {
  const warnings: string[] = [];
  for (const [side, env] of [
    ['base', base],
    ['head', head],
  ] as const) {
    const load = peakLoad(env);
    if (load > env.cpuCount) {
      warnings.push(
        `${side} ran with load average ${load.toFixed(1)} on ${env.cpuCount} CPU(s): other processes shared the CPUs, so separate runs drift; prefer an interleaved comparison`,
      );
    }
  }
  if (base.machineId !== head.machineId)
    warnings.push(`base and head ran on different machines (${base.machineId}, ${head.machineId})`);
  else if (base.measuredOnCpu !== head.measuredOnCpu) {
    const where = (env: EnvFingerprint) =>
      env.measuredOnCpu === undefined ? 'no one CPU' : `CPU ${env.measuredOnCpu}`;
    warnings.push(
      `base measured on ${where(base)}, head on ${where(head)}: the CPUs of a shared machine differ in speed (up to 1.5x measured), so a case can move between them; measure both with the same --cpu`,
    );
  }
  return warnings;
}

/**
 * Why two runs cannot be compared for speed: a different CPU model, core
 * count or runtime (Node, V8) changes every timing, whatever the code did.
 */
export function environmentMismatch(base: EnvFingerprint, head: EnvFingerprint): string[] {
  const reasons: string[] = [];
  if (base.cpuModel !== head.cpuModel) reasons.push(`CPU ${base.cpuModel} -> ${head.cpuModel}`);
  if (base.cpuCount !== head.cpuCount) reasons.push(`${base.cpuCount} -> ${head.cpuCount} CPUs`);
  if (base.node !== head.node) reasons.push(`Node ${base.node} -> ${head.node}`);
  else if (base.v8 !== head.v8) reasons.push(`V8 ${base.v8} -> ${head.v8}`);
  return reasons;
}

/** The engine: every case runs through it. */
export const enginePackage = '@layerbench/bench-runner';

/**
 * Whether every part of a case's code is byte-identical in two runs: the
 * runtime (Node, V8, OpenSSL), the CPU and its capability word, the engine,
 * and each of `layers` (package names: the case's own layer and those below
 * it) by content hash, with the same dispatch decisions. Identical code cannot
 * have become slower: what a comparison then measures is noise.
 */
export function codeUnchanged(base: EnvFingerprint, head: EnvFingerprint, layers: readonly string[]): boolean {
  if (base.node !== head.node || base.v8 !== head.v8 || base.openssl !== head.openssl) return false;
  if (base.cpuModel !== head.cpuModel || base.cpuCount !== head.cpuCount || base.capabilities !== head.capabilities)
    return false;
  const hash = (env: EnvFingerprint, name: string) => env.layers.find((l) => l.name === name)?.contentHash;
  for (const name of [...layers, enginePackage]) {
    const b = hash(base, name);
    if (b === undefined || b !== hash(head, name)) return false;
  }
  const short = new Set(layers.map((name) => name.replace(/^@layerbench\//, '')));
  const decisions = (env: EnvFingerprint) =>
    JSON.stringify(
      env.dispatch
        .filter((d) => short.has(d.layer))
        .map((d) => `${d.layer}\0${d.decision}\0${d.impl}`)
        .sort(),
    );
  return decisions(base) === decisions(head);
}

/**
 * The packages a case's code consists of as both runs recorded them
 * (CaseResult.packages, written by whoever built the case), both lists
 * together; undefined unless both files record them (older files do not).
 */
export function recordedPackages(
  base: { readonly packages?: readonly string[] | undefined },
  head: { readonly packages?: readonly string[] | undefined },
): readonly string[] | undefined {
  if (base.packages === undefined || head.packages === undefined) return undefined;
  return [...new Set([...base.packages, ...head.packages])];
}

export interface CompareResultsOptions extends CompareOptions {
  /**
   * What separate runs of identical code differ by (see noise.ts): a
   * calibration of this machine, or the conservative default when absent.
   */
  noise?: RunNoise;
  /** Give regressed/improved verdicts even when the CPU, core count or runtime differ. */
  acrossEnvironments?: boolean;
  /**
   * The layer packages a case's code consists of (its own and those below
   * it), for the unchanged-code guard; undefined for a case it cannot apply
   * to. For a case both files record the packages of (CaseResult.packages,
   * recordedPackages), the files' lists are used instead.
   */
  caseLayers?: (c: CaseResult) => readonly string[] | undefined;
  /** Call a case whose code is byte-identical on both sides (codeUnchanged) unchanged, whatever the timings say. */
  guardUnchangedCode?: boolean;
  /** Compute the interval of the geometric-mean summary (default true; calibration skips it and gives [ratio, ratio]). */
  geomean?: boolean;
}

export function compareResults(base: RunResult, head: RunResult, options: CompareResultsOptions = {}): Comparison {
  const { threshold, alpha } = checkCompareOptions(options);
  const noise = options.noise ?? defaultRunNoise();
  const random = options.random ?? seededRandom(0x5eed1e55);
  const iterations = options.iterations ?? bootstrapIterations(alpha);
  const incomparable = environmentMismatch(base.env, head.env);
  const withhold = incomparable.length > 0 && options.acrossEnvironments !== true;
  const headById = new Map(head.cases.map((c) => [c.id, c]));
  const baseIds = new Set(base.cases.map((c) => c.id));
  const cases: CaseComparison[] = [];
  const failed: string[] = [];
  const onlyBase: string[] = [];
  const geomeanParts: { base: number[]; head: number[] }[] = [];
  const sigmas: number[] = [];
  // Cases of several processes the calibration could have judged on calm figures, but too few processes a side
  // met the fast state (or met it at the calibration's level).
  const calmShort: string[] = [];
  // Cases of which a side's process in a mode of its own was left out of the calm comparison.
  const modesLeftOut: string[] = [];
  for (const b of base.cases) {
    const h = headById.get(b.id);
    if (!h) {
      onlyBase.push(b.id);
      continue;
    }
    if (b.status !== 'ok' || h.status !== 'ok' || b.samples.length === 0 || h.samples.length === 0) {
      failed.push(b.id);
      continue;
    }
    const sameReference = base.options.reference === head.options.reference;
    const severalProcesses = hasProcessFigures(b) || hasProcessFigures(h);
    // Calm figures of the processes in one state (the probe's fast state), with the calm spread: as for other
    // process figures, the interval averages over processes only the part of the spread the calibration saw
    // change between neighbouring processes (see processes.ts: the processes of one run can share a state the
    // probe does not see).
    // Only for a case whose calm spread the calibration measured (or estimated from the cases it measured).
    // Of the calm bases, the one with the smallest calibrated spread on which both runs have enough processes in
    // the calibration's state: levels of one state probe (calm-relative also needs one reference workload).
    const sameProbe = base.options.stateProbe === head.options.stateProbe;
    const calmCandidates = severalProcesses
      ? calmBasesFor(noise, b.id).filter((basis) => sameProbe && (sameReference || basis !== 'calm-relative'))
      : [];
    let calmFound: (NonNullable<ReturnType<typeof calmProcessFigures>> & { basis: FigureBasis }) | undefined;
    for (const basis of calmCandidates) {
      const found = calmWithinCalibration(calmProcessFigures(b, h, minCalmProcessesPerSide, basis), noise, b.id, basis);
      if (found !== undefined) {
        calmFound = { ...found, basis };
        break;
      }
    }
    if (calmCandidates.length > 0 && calmFound === undefined) calmShort.push(b.id);
    // A process alone in a mode of its own is left out of each side (at most one; see withoutIsolatedMode).
    const calm =
      calmFound === undefined ? undefined : withoutIsolatedModes(calmFound, calmModeRule(noise, b.id, calmFound.basis));
    if (calm !== undefined && calm.left > 0) modesLeftOut.push(`${b.id} (${calm.leftText})`);
    const byProcess =
      calm !== undefined
        ? { method: calm.basis, base: calm.base, head: calm.head }
        : severalProcesses
          ? commonBasis(b, h, noise.basis, sameReference, processFiguresOn)
          : undefined;
    const figures = byProcess ?? pairFigures(b, h, noise.basis);
    let spread = noise.spreadFor(b.id, basisOf(figures.method));
    let source: 'runs' | 'calibration' | 'pooled' | 'default' =
      noise.summary.source === 'calibration' && spread.assumed !== true ? 'calibration' : 'default';
    // Calm figures leave out the slices the probe found in the slow state, in runs whose fast states read
    // alike: the state term is for figures that may carry the state.
    const state = isCalmBasis(figures.method) ? undefined : stateRatioOf(base, head, b, h);
    let sample: SampleComparison;
    try {
      if (byProcess !== undefined) {
        const own = ownSpread(byProcess.base, byProcess.head);
        if ((calm !== undefined || spread.neighbour !== undefined) && source === 'calibration') {
          // Calm figures, or a calibration that measured the spread between neighbouring processes: the files'
          // spread (between the neighbouring processes of each run) pooled with the calibration's while they agree.
          ({ spread, source } = pooledSpread(spread, own));
        } else if (own !== undefined && own.sigma > spread.sigma) {
          // The spread measured in the two files when it is wider than the calibration's or the default's.
          spread = own;
          source = 'runs';
        }
        sample = compareProcessFigures(byProcess.base, byProcess.head, spread, {
          threshold,
          alpha,
          iterations,
          random,
          ...(state === undefined ? {} : { stateRatio: state }),
        });
      } else {
        const how = summaryOf(figures.method);
        sample = compareSeparateRuns(figures.base, figures.head, spread, {
          threshold,
          alpha,
          iterations,
          random,
          ...(how === 'median' ? {} : { quantile: how.quantile }),
          ...(state === undefined ? {} : { stateRatio: state }),
        });
      }
    } catch {
      failed.push(b.id);
      continue;
    }
    const comparison: CaseComparison = {
      id: b.id,
      layer: h.layer,
      params: { ...h.params },
      baseMedian: median(b.samples),
      headMedian: median(h.samples),
      ratio: sample.ratio,
      ratioCi: sample.ratioCi,
      pValue: sample.pValue,
      verdict: sample.verdict,
      digestChanged: b.digest !== undefined && h.digest !== undefined && b.digest !== h.digest,
      method: figures.method,
      betweenRuns: {
        sigma: spread.sigma,
        dof: spread.dof,
        source,
        ...(byProcess !== undefined && spread.neighbour !== undefined
          ? { parts: { process: spread.neighbour, run: runPartOf(spread) } }
          : {}),
      },
    };
    if (byProcess !== undefined) comparison.processes = { base: byProcess.base.length, head: byProcess.head.length };
    if (stateMoved(state)) comparison.stateRatio = state;
    if (withhold && (sample.verdict === 'regressed' || sample.verdict === 'improved')) {
      comparison.suppressedVerdict = sample.verdict;
      comparison.verdict = 'inconclusive';
    }
    const layers = recordedPackages(b, h) ?? options.caseLayers?.(h);
    if (layers !== undefined && codeUnchanged(base.env, head.env, layers)) {
      comparison.codeUnchanged = true;
      if (options.guardUnchangedCode) {
        if (comparison.verdict === 'regressed' || comparison.verdict === 'improved')
          comparison.suppressedVerdict = comparison.verdict;
        comparison.verdict = 'unchanged';
      }
    }
    const baseImpl = implOf(b);
    const headImpl = implOf(h);
    if (baseImpl !== undefined) comparison.baseImpl = baseImpl;
    if (headImpl !== undefined) comparison.headImpl = headImpl;
    cases.push(comparison);
    // A case summarised by a low quantile enters the summary by that figure alone
    // (the summary's interval is the between-run term's, as for every case).
    const how = summaryOf(figures.method);
    geomeanParts.push(
      byProcess !== undefined
        ? { base: [geometricMean(byProcess.base)], head: [geometricMean(byProcess.head)] }
        : how === 'median'
          ? { base: figures.base, head: figures.head }
          : { base: [lowQuantile(figures.base, how.quantile)], head: [lowQuantile(figures.head, how.quantile)] },
    );
    sigmas.push(spread.sigma);
  }
  const onlyHead = head.cases.filter((c) => !baseIds.has(c.id)).map((c) => c.id);
  const summary: Record<Verdict, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
  for (const c of cases) summary[c.verdict]++;
  let geomean: Comparison['geomean'] = { ratio: 1, ci: [1, 1] };
  if (cases.length > 0) {
    const ratio = geometricMean(cases.map((c) => c.ratio));
    geomean = { ratio, ci: [ratio, ratio] };
    if (options.geomean !== false) {
      // The run-to-run offset of the summary is taken as shared by all cases (the
      // median case's spread), not averaged away over them.
      const draws = bootstrapGeomeanRatioDraws(geomeanParts, { iterations, random });
      addBetweenRunNoise(
        draws,
        { sigma: median(sigmas), dof: Math.min(...cases.map((c) => c.betweenRuns!.dof)) },
        random,
      );
      geomean.ci = decideRatio(draws, { threshold, alpha }).ratioCi;
    }
  }
  const comparison: Comparison = {
    kind: 'layerbench/compare',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    threshold,
    alpha,
    base: { createdAt: base.createdAt, env: base.env },
    head: { createdAt: head.createdAt, env: head.env },
    fingerprintDiffs: diffFingerprints(base.env, head.env),
    cases,
    onlyBase,
    onlyHead,
    failed,
    geomean,
    summary,
    warnings: [...comparisonWarnings(base.env, head.env), ...stateWarnings(cases)],
    noise: describeNoise(noise.summary, base, head, cases, calmShort, modesLeftOut),
  };
  if (incomparable.length > 0) comparison.incomparable = incomparable;
  if (incomparable.length > 0 && options.acrossEnvironments === true) comparison.acrossEnvironments = true;
  return comparison;
}

/** The rule a case's calm figures leave a process out by: from its calibrated calm spread and its process part. */
function calmModeRule(noise: RunNoise, id: string, basis: FigureBasis): ModeRule {
  const spread = noise.spreadFor(id, basis);
  return modeRuleFor(spread.sigma, spread.neighbour);
}

/** Both sides of a calm comparison without a process alone in a mode of its own (withoutIsolatedMode). */
function withoutIsolatedModes<T extends { base: number[]; head: number[] }>(
  calm: T,
  rule: ModeRule,
): T & { left: number; leftText: string } {
  const b = withoutIsolatedMode(calm.base, rule);
  const h = withoutIsolatedMode(calm.head, rule);
  const sides = [
    b.left > 0 ? `base ${b.left} of ${calm.base.length}` : '',
    h.left > 0 ? `head ${h.left} of ${calm.head.length}` : '',
  ];
  const beyond = `beyond ${((rule.factor - 1) * 100).toFixed(1)}%, ${rule.spreads} sds`;
  return {
    ...calm,
    base: b.kept,
    head: h.kept,
    left: b.left + h.left,
    leftText: `${sides.filter(Boolean).join(', ')}, ${beyond}`,
  };
}

/**
 * Calm process figures only in the state the calibration measured their
 * spread in (or a faster one): two runs whose processes all met the slow
 * state have calm figures too, at a level the calibration's spread does not
 * describe.
 */
function calmWithinCalibration<T extends { lowestLevel: number }>(
  calm: T | undefined,
  noise: RunNoise,
  id: string,
  basis: FigureBasis,
): T | undefined {
  if (calm === undefined || noise.calmLevelFor === undefined) return calm;
  const calibrated = noise.calmLevelFor(id, basis);
  return calibrated !== undefined && withinCalmLevel(calm.lowestLevel, calibrated) ? calm : undefined;
}

/**
 * The noise summary, saying how many cases were judged by the spread between
 * the runs' own processes, and how many a calibration never measured.
 */
function describeNoise(
  summary: RunNoise['summary'],
  base: RunResult,
  head: RunResult,
  cases: readonly CaseComparison[],
  calmShort: readonly string[] = [],
  modesLeftOut: readonly string[] = [],
): RunNoise['summary'] {
  let description = summary.description;
  const unmeasured =
    summary.source === 'calibration' ? cases.filter((c) => c.betweenRuns?.source === 'default').length : 0;
  if (unmeasured > 0) {
    description += `; ${unmeasured} of ${cases.length} case(s) not in the calibration, judged with the conservative default spread (${(defaultSpread.sigma * 100).toFixed(0)}% per process, heavy-tailed)`;
  }
  const byProcess = cases.filter((c) => c.processes !== undefined);
  if (byProcess.length > 0) {
    const own = byProcess.filter((c) => c.betweenRuns?.source === 'runs').length;
    const calm = byProcess.filter((c) => c.method !== undefined && isCalmBasis(c.method));
    const pooled = byProcess.filter((c) => c.betweenRuns?.source === 'pooled').length;
    const split = byProcess.filter((c) => c.betweenRuns?.parts !== undefined).length;
    description =
      `${byProcess.length} of ${cases.length} case(s) compared by the geometric mean of their processes (base ${base.processes ?? 1}, head ${head.processes ?? 1}); ` +
      `${own} of them with the spread between those processes, wider than ${summary.source === 'calibration' ? "the calibration's" : 'the default'}; ` +
      (calm.length > 0
        ? `${calm.length} by the calm figures of the processes in the fast state, ${pooled} with the spread of those processes pooled with the calibration's; `
        : '') +
      (split > 0
        ? `${split} averaging over their processes only the spread the calibration measured between neighbouring processes, the rest taken as shared by each run's processes; `
        : '') +
      (modesLeftOut.length > 0
        ? `${modesLeftOut.length} without a process that ran the case alone in a mode of its own (its calm figure beyond ${calmModeSigmas} of the case's calibrated sds, ${Math.round((minCalmModeFactor - 1) * 100)}-${Math.round((calmModeFactor - 1) * 100)}%, from its run's median and far beyond the others' spread: ${modesLeftOut.slice(0, 3).join('; ')}${modesLeftOut.length > 3 ? '; ...' : ''}); `
        : '') +
      (calmShort.length > 0
        ? `${calmShort.length} not by calm figures (${calmShort.slice(0, 3).join(', ')}${calmShort.length > 3 ? ', ...' : ''}): fewer than ${minCalmProcessesPerSide} processes a side met the CPU's fast state (at the calibration's level) while the case ran, so their intervals are wide; more processes (\`run --processes\`) or a quieter time narrow them; `
        : '') +
      `otherwise ${description}`;
  }
  return description === summary.description ? summary : { ...summary, description };
}

/**
 * What the state probe says the shared CPU's state may have done between
 * the two runs while this case ran, head / base, when both runs probed with
 * the same work: the larger of (slowest head probe / fastest base probe)
 * and its mirror (fastest head / slowest base), by size of its log. The
 * probe is timed before and after each case, and the state can flip during
 * the case: one run's case measured fast throughout (probes 4411 and 6933
 * ns around it) and the other's mostly slow (7260 and 4356) have probe
 * means 1.7% apart, yet the case read x1.68 (measured, 2026-12-02 07:00
 * UTC); where in the case the flip fell, the probes cannot say, so the
 * whole range counts.
 */
function stateRatioOf(base: RunResult, head: RunResult, b: CaseResult, h: CaseResult): number | undefined {
  const work = base.options.stateProbe;
  if (work === undefined || work !== head.options.stateProbe) return undefined;
  const before = b.stateProbe;
  const after = h.stateProbe;
  if (!before?.length || !after?.length || [...before, ...after].some((v) => !(v > 0))) return undefined;
  const slower = Math.max(...after) / Math.min(...before);
  const faster = Math.min(...after) / Math.max(...before);
  return Math.abs(Math.log(slower)) >= Math.abs(Math.log(faster)) ? slower : faster;
}

/** One line when the state probe moved between the runs for some cases. */
function stateWarnings(cases: readonly CaseComparison[]): string[] {
  const moved = cases.filter((c) => c.stateRatio !== undefined).map((c) => c.stateRatio!);
  if (moved.length === 0) return [];
  const typical = median(moved);
  return [
    `the shared CPU was in another state in the two runs for ${moved.length} case(s): a store-and-reload probe ran x${typical.toFixed(2)} (median; head / base) while they ran, and that state moves memory-heavy code by about as much, so their intervals allow up to x${(typical ** stateSensitivity).toFixed(2)} of their change to be the machine's; for small changes compare in one session (\`layerbench bisect\`)`,
  ];
}

/** Multiplies each draw by exp(sqrt(2) sigma T): the log ratio of two processes, each off by sigma. */
function addBetweenRunNoise(draws: Float64Array, spread: CaseSpreadEstimate, random: RandomSource): void {
  if (spread.sigma === 0) return;
  const scale = Math.SQRT2 * spread.sigma;
  for (let i = 0; i < draws.length; i++) draws[i] = draws[i]! * Math.exp(scale * studentTVariate(spread.dof, random));
}

export interface SeparateRunsOptions extends CompareOptions {
  /**
   * Compare a low quantile of each side's values (an order statistic, see
   * stats' lowQuantile) instead of their median: what the 'fastest-low' basis uses.
   */
  quantile?: number;
  /** The state probe's head / base ratio for this case (see noise.ts, addStateShift). */
  stateRatio?: number;
}

/**
 * The verdict rule for one case measured in two separate runs: the bootstrap
 * of the ratio of the two runs' values (their medians, or a low quantile),
 * each draw also carrying the between-run spread of the case (noise.ts).
 */
export function compareSeparateRuns(
  base: readonly number[],
  head: readonly number[],
  spread: CaseSpreadEstimate,
  options: SeparateRunsOptions = {},
): SampleComparison {
  const { threshold, alpha } = checkCompareOptions(options);
  const quantile = options.quantile;
  const baseFigure = quantile === undefined ? median(base) : lowQuantile(base, quantile);
  const headFigure = quantile === undefined ? median(head) : lowQuantile(head, quantile);
  if (!(baseFigure > 0 && headFigure > 0)) {
    throw new RangeError(`cannot form a ratio of figures ${headFigure} / ${baseFigure}: both must be positive`);
  }
  const random = options.random ?? seededRandom(0x5eed1e55);
  const bootstrap = { iterations: options.iterations ?? bootstrapIterations(alpha), random };
  const draws =
    quantile === undefined
      ? bootstrapRatioDraws(base, head, bootstrap)
      : bootstrapQuantileRatioDraws(base, head, quantile, bootstrap);
  addBetweenRunNoise(draws, spread, random);
  if (options.stateRatio !== undefined) addStateShift(draws, options.stateRatio, random);
  const decision = decideRatio(draws, { threshold, alpha, pFloor: pFloorIndependent(base.length, head.length) });
  return { ratio: headFigure / baseFigure, ...decision };
}
