// `layerbench check --against <spec>`: the `git bisect run` step measured the
// way small changes can be seen. The stack of <spec> (e.g. git:v1.0, built in a
// cached worktree) and this checkout run side by side in the same worker
// processes (bisect --paired: every variant in every process, compared within
// processes), instead of this checkout against a result file measured minutes
// or days before (check --baseline), whose between-run spread a change of a
// few percent cannot clear. Same exit codes as check --baseline, same guard: a
// case whose code is identical on both sides cannot have regressed.
import { collectEnv, layerFingerprint } from '@layerbench/bench-runner';
import { formatBisectTable } from '@layerbench/bench-runner/reporters';
import type { BisectCase, BisectResult } from '@layerbench/bench-runner/results';
import { DEFAULT_VISIT_PERCENTILE, runBisect, summarise } from '../bisect/run.js';
import { LayerSourceError, type LayerResolver } from '../bisect/side-sources.js';
import { ALL_LAYERS, CODE_LAYERS, packageNameOf, parseSideSpec, type CompositionSpec } from '../bisect/side-spec.js';
import { caseRunsLayer, differingLayers, identify, type SideIdentity } from '../bisect/variants.js';
import { checkedCpuPlan, planCpu } from '../cpu.js';
import { progressStream, sayer } from '../terminal.js';
import { BISECT_DEFAULTS, PAIRED_DEFAULTS, resolverFor } from './bisect.js';
import { chooseSuites } from '../suite-choice.js';
import { layerPackages } from '../between-runs.js';
import { checkExit as exit, controlMoved, ruledOutNote, slowdownRuledOut, type CheckVerdict } from './check-exit.js';
import { defaultLongerLook, exactIds, longerLookProcesses, seconds } from './longer-look.js';
import type { CommandContext } from './types.js';
import { eachStepHint } from '../bisect-session.js';
import {
  cacheEnds,
  cliCodeHash,
  endLike,
  endsCacheFile,
  endsVerdict,
  readCachedEnds,
  symptomsOf,
  type EndsKey,
  type StepReading,
} from './check-ends.js';

type Resolved = ReturnType<LayerResolver['resolve']>;

/**
 * Whether a case's code is the same on both sides: its layer and the layers
 * below it, the engine (bench-runner) and the runtime, by content hash. The
 * CLI's suites are this checkout's on both sides (one worker runs both).
 * Cases of other layers (peers) are never taken as identical.
 */
export function caseCodeIdentical(layer: string, good: SideIdentity, bad: SideIdentity): boolean {
  const stack = layerPackages(layer);
  if (stack === undefined || !stack.every((name) => CODE_LAYERS.some((l) => packageNameOf(l) === name))) return false;
  return ALL_LAYERS.filter((l) => caseRunsLayer(layer, l)).every((l) => good.code[l] === bad.code[l]);
}

/** The bisect answer for a paired comparison of <spec> (good) with this checkout (bad). */
export function pairedCheckVerdict(result: BisectResult, identical: (c: BisectCase) => boolean): CheckVerdict {
  const judged = result.cases.filter((c) => !identical(c));
  const failed = judged.filter((c) => c.status === 'failed').map((c) => c.id);
  if (failed.length > 0) return { code: exit.cannotTell, reason: `failed: ${failed.join(', ')}` };
  const changedDigest = judged.filter((c) => c.digestChanged).map((c) => c.id);
  if (changedDigest.length > 0)
    return { code: exit.cannotTell, reason: `output digest changed: ${changedDigest.join(', ')}` };
  const moved = judged.filter((c) => c.status === 'ok' && controlMoved(c));
  const regressed = judged.filter((c) => c.total?.verdict === 'regressed' && !moved.includes(c)).map((c) => c.id);
  if (regressed.length > 0) return { code: exit.regressed, reason: `regressed: ${regressed.join(', ')}` };
  if (moved.length > 0) {
    return {
      code: exit.cannotTell,
      reason: `the A/A control moved: ${moved.map((c) => `${c.id} (A/A x${c.control!.ratio.toFixed(3)})`).join(', ')}`,
    };
  }
  const undecided = judged.filter(
    (c) => c.status !== 'ok' || c.total === undefined || c.total.verdict === 'inconclusive',
  );
  const ruledOut = undecided.filter((c) => slowdownRuledOutFor(c, result.options.threshold));
  const open = undecided.filter((c) => !ruledOut.includes(c));
  if (open.length > 0) {
    return {
      code: exit.cannotTell,
      reason: `${result.complete ? 'inconclusive' : 'incomplete'}: ${open.map((c) => c.id).join(', ')}`,
    };
  }
  const unmeasured = result.identicalCode?.length ?? 0;
  if (result.cases.length === 0) {
    if (unmeasured > 0 && result.complete)
      return {
        code: exit.good,
        reason: `the code of all ${unmeasured} selected case(s) is identical on both sides (their layer, the layers below it, the engine, the runtime): nothing measured`,
      };
    return { code: exit.cannotTell, reason: 'no case was compared' };
  }
  const same = result.cases.length - judged.length + unmeasured;
  return {
    code: exit.good,
    reason: `${judged.length} case(s) not regressed${same ? `, ${same} with identical code` : ''}${ruledOutNote(ruledOut.map((c) => ({ id: c.id, ratio: c.total!.ratio, ci: c.total!.ci })))}`,
  };
}

/** An inconclusive case whose interval still rules a slowdown beyond the threshold out (check-exit.ts). */
function slowdownRuledOutFor(c: BisectCase, threshold: number): boolean {
  return c.status === 'ok' && c.total !== undefined && slowdownRuledOut(c.total.ci, threshold);
}

/**
 * The cases a longer look measures again: judged (code not identical),
 * measured, digest unchanged, and either inconclusive and not ruled out as
 * slower, or with an A/A control that moved (whatever their verdict). A
 * failed case or a changed digest is not a matter of time.
 */
export function undecidedCases(result: BisectResult, identical: (c: BisectCase) => boolean): BisectCase[] {
  return result.cases.filter(
    (c) =>
      !identical(c) &&
      c.status === 'ok' &&
      !c.digestChanged &&
      (controlMoved(c) || (c.total?.verdict === 'inconclusive' && !slowdownRuledOutFor(c, result.options.threshold))),
  );
}

/**
 * Why a first look needs no longer look (undefined: it may need one): a case
 * regressed beyond its A/A control makes the step bad whatever the open cases
 * read, and the longer look measures only those, leaving the regressed ones
 * as they are.
 */
export function decidedBeforeLongerLook(
  result: BisectResult,
  identical: (c: BisectCase) => boolean,
): string | undefined {
  const verdict = pairedCheckVerdict(result, identical);
  return verdict.code === exit.regressed ? `${verdict.reason} decides this step (bad)` : undefined;
}

/**
 * The first look's result with the cases the longer look measured again
 * replaced by the longer look's figures (a case it could not measure keeps
 * the first look's, inconclusive). Each look is judged at alpha, so a case
 * of unchanged code is called regressed by one of the two with probability
 * at most alpha (alpha/2 a look, one-sided).
 */
export function withLongerLook(first: BisectResult, longer: BisectResult): BisectResult {
  const again = new Map(longer.cases.map((c) => [c.id, c]));
  const cases = first.cases.map((c) => {
    const later = again.get(c.id);
    return later !== undefined && later.status === 'ok' ? later : c;
  });
  return { ...first, cases, summary: summarise(cases), complete: first.complete && longer.complete };
}

export interface AgainstOptions {
  against: CompositionSpec;
  /** The bad end of the range (check-ends.ts): judge by each regressed case's midpoint between the two ends. */
  bad?: CompositionSpec | undefined;
  /** The bad end is the git bisect session's (bisect-session.ts), not named with --bad. */
  badFromSession?: boolean | undefined;
  suites: string[];
  filter?: string | undefined;
  time?: number | undefined;
  processes?: number | undefined;
  /** The longer look's factor on --time for cases left inconclusive (defaultLongerLook; 1: none). */
  longerLook?: number | undefined;
  threshold?: number | undefined;
  alpha?: number | undefined;
  quiet?: boolean | undefined;
}

export async function checkAgainstStack(options: AgainstOptions, ctx: CommandContext): Promise<number> {
  const progress = progressStream(ctx, options.quiet === true);
  const log = (m: string) => progress?.write(`check: ${m}\n`);
  const say = sayer(ctx, options.quiet, 'check');
  const resolver = resolverFor(ctx, {}, say);
  let good: ReturnType<typeof resolver.resolve>;
  let bad: ReturnType<typeof resolver.resolve>;
  try {
    good = resolver.resolve(options.against);
    bad = resolver.resolve(parseSideSpec('workspace', '--against'));
  } catch (err) {
    if (err instanceof LayerSourceError) {
      ctx.stderr.write(`layerbench check: ${err.message}\n`);
      return exit.badInput;
    }
    // The stack named could not be built or resolved at this step: git bisect skips the commit.
    ctx.stderr.write(`layerbench check: cannot resolve --against: ${(err as Error).message}: cannot tell (125)\n`);
    return exit.cannotTell;
  }
  const goodId = identify(good, layerFingerprint);
  const badId = identify(bad, layerFingerprint);
  if (goodId.code.runtime !== badId.code.runtime) {
    ctx.stderr.write(
      'layerbench check: --against names another runtime; one process runs one runtime, so compare runtimes with `layerbench bisect`\n',
    );
    return exit.badInput;
  }
  if (differingLayers(goodId, badId, CODE_LAYERS).length === 0) {
    ctx.stdout.write(
      `check: good (exit 0): every layer's code is identical to ${options.against.text}'s: nothing here can have regressed\n`,
    );
    return exit.good;
  }
  // The bad end of the range, the same at every step: resolved first, as it decides the suites.
  let badEnd: { spec: CompositionSpec; end: Resolved; endId: SideIdentity } | undefined;
  if (options.bad !== undefined) {
    try {
      const end = resolver.resolve(options.bad);
      badEnd = { spec: options.bad, end, endId: identify(end, layerFingerprint) };
    } catch (err) {
      // If it cannot be built, no step can be judged.
      ctx.stderr.write(
        `layerbench check: cannot resolve --bad${options.badFromSession ? ` (the git bisect session's bad end; ${eachStepHint})` : ''}: ${(err as Error).message}\n`,
      );
      return exit.badInput;
    }
    if (badEnd.endId.code.runtime !== goodId.code.runtime) {
      ctx.stderr.write(
        'layerbench check: --bad names another runtime than --against; compare runtimes with `layerbench bisect`\n',
      );
      return exit.badInput;
    }
  }
  const env = collectEnv();
  const identical = (c: BisectCase) => caseCodeIdentical(c.layer, goodId, badId);
  const processes = options.processes ?? PAIRED_DEFAULTS.processes;
  const threshold = options.threshold ?? BISECT_DEFAULTS.threshold;
  const alpha = options.alpha ?? BISECT_DEFAULTS.alpha;
  // Chosen by what differs between the ends when both are named (every step then measures the same suites, and
  // the ends' kept measurement serves them all), else between --against and this checkout.
  const differing = differingLayers(goodId, badEnd?.endId ?? badId, CODE_LAYERS);
  const suites = await chooseSuites(options.suites, differing, options.filter, say);
  const measureSides = (
    sides: { good: Resolved; goodId: SideIdentity; bad: Resolved; badId: SideIdentity },
    filter: string | undefined,
    timePerCase: number,
    processCount: number,
  ) =>
    runBisect({
      ...sides,
      layers: [],
      suites,
      ...(filter === undefined ? {} : { filter }),
      peers: false,
      timePerCase,
      rounds: BISECT_DEFAULTS.rounds,
      processes: processCount,
      paired: true,
      visitPercentile: DEFAULT_VISIT_PERCENTILE,
      threshold,
      alpha,
      machine: { cpuModel: env.cpuModel, cpuCount: env.cpuCount, os: env.os, machineId: env.machineId },
      cpu: checkedCpuPlan(planCpu('auto')),
      signal: ctx.signal,
      progress: log,
    });
  const time = options.time ?? BISECT_DEFAULTS.time;
  const longer = options.longerLook ?? defaultLongerLook;
  /**
   * Measures, prints, and gives the cases left open a longer look (x `longer` --time in twice the fresh
   * processes: their first visits were too short to see past the machine's flickering state, or their copies of
   * the code settled apart; longer-look.ts). Undefined when interrupted.
   */
  const look = async (
    sides: Parameters<typeof measureSides>[0],
    filter: string | undefined,
    open: (r: BisectResult) => BisectCase[],
    decided?: (r: BisectResult) => string | undefined,
  ): Promise<BisectResult | undefined> => {
    const first = await measureSides(sides, filter, time, processes);
    ctx.stdout.write(`${formatBisectTable(first)}\n`);
    if (first.incomplete?.interrupted) return undefined;
    const left = open(first);
    if (left.length === 0 || longer <= 1) return first;
    const already = decided?.(first);
    if (already !== undefined) {
      ctx.stdout.write(`longer look: not needed for the ${left.length} case(s) left open: ${already}\n`);
      return first;
    }
    const more = longerLookProcesses(processes);
    ctx.stdout.write(
      `longer look: ${left.length} case(s) left open (inconclusive, or their A/A control moved) at --time ${time} in ${processes} processes, measured again at --time ${seconds(time * longer)} (x${longer}) in ${more} fresh processes: ${left.map((c) => c.id).join(', ')}\n`,
    );
    const again = await measureSides(sides, exactIds(left.map((c) => c.id)), time * longer, more);
    ctx.stdout.write(`${formatBisectTable(again)}\n`);
    if (again.incomplete?.interrupted) return undefined;
    return withLongerLook(first, again);
  };
  const interrupted = () => {
    ctx.stderr.write('layerbench check: interrupted\n');
    return 130;
  };
  if (badEnd !== undefined) {
    const { spec: badSpec, end, endId } = badEnd;
    const key: EndsKey = {
      good: goodId.code,
      bad: endId.code,
      cli: cliCodeHash(),
      suites,
      filter: options.filter,
      time,
      processes,
      threshold,
      alpha,
    };
    const file = endsCacheFile(resolver.cacheDir, key);
    const cached = readCachedEnds(file);
    if (cached.problem)
      ctx.stderr.write(
        `check: the kept measurement of the ends is unreadable (${cached.problem}): measuring them again\n`,
      );
    let ends = cached.result;
    if (ends) {
      ctx.stdout.write(`check: the two ends as measured at ${ends.createdAt} (kept in ${file})\n`);
    } else {
      ctx.stdout.write(
        `check: measuring the two ends once, ${options.against.text} (good) and ${badSpec.text} (bad), kept in ${file} for the other steps\n`,
      );
      const sameAsGood = (c: BisectCase) => caseCodeIdentical(c.layer, goodId, endId);
      ends = await look({ good, goodId, bad: end, badId: endId }, options.filter, (r) => undecidedCases(r, sameAsGood));
      if (ends === undefined) return interrupted();
      cacheEnds(file, ends);
    }
    const symptoms = symptomsOf(ends);
    if (symptoms.length === 0) {
      ctx.stderr.write(
        `layerbench check: no case regressed from ${options.against.text} to ${badSpec.text}${options.badFromSession ? " (the git bisect session's bad end)" : ''} (${ends.cases.length} case(s) measured): nothing for git bisect to find here (another --filter, suites or a longer --time${options.badFromSession ? `; ${eachStepHint}` : ''})\n`,
      );
      return exit.badInput;
    }
    ctx.stdout.write(
      `check: the regression to find: ${symptoms.map((y) => `${y.id} x${y.ratio.toFixed(3)} [${y.ci[0].toFixed(3)}, ${y.ci[1].toFixed(3)}] (midpoint x${y.midpoint.toFixed(3)})`).join(', ')}\n`,
    );
    const layerOf = new Map(ends.cases.map((c) => [c.id, c.layer]));
    const readings: StepReading[] = symptoms.map((symptom) => {
      const layer = layerOf.get(symptom.id)!;
      if (caseCodeIdentical(layer, goodId, badId)) return { symptom, like: 'good', by: 'good end' };
      if (caseCodeIdentical(layer, endId, badId)) return { symptom, like: 'bad', by: 'bad end' };
      return { symptom, like: 'open', by: undefined };
    });
    const toMeasure = readings.filter((r) => r.by === undefined);
    let complete = true;
    if (toMeasure.length > 0) {
      const symptomOf = new Map(symptoms.map((y) => [y.id, y]));
      const step = await look({ good, goodId, bad, badId }, exactIds(toMeasure.map((r) => r.symptom.id)), (r) =>
        r.cases.filter((c) => c.status === 'ok' && !c.digestChanged && endLike(c, symptomOf.get(c.id)!) === 'open'),
      );
      if (step === undefined) return interrupted();
      complete = step.complete;
      const byId = new Map(step.cases.map((c) => [c.id, c]));
      for (const r of toMeasure) {
        r.by = byId.get(r.symptom.id);
        r.like = endLike(r.by, r.symptom);
      }
    }
    const verdict = endsVerdict(readings, complete);
    const word = verdict.code === exit.good ? 'good' : verdict.code === exit.regressed ? 'bad' : 'cannot tell';
    ctx.stdout.write(`check: ${word} (exit ${verdict.code}): ${verdict.reason}\n`);
    return verdict.code;
  }
  // A case regressed beyond its A/A control decides the step (bad), and the longer look measures only the
  // open cases, leaving regressed ones as they are: it could not change the answer, only cost minutes.
  const result = await look(
    { good, goodId, bad, badId },
    options.filter,
    (r) => undecidedCases(r, identical),
    (r) => decidedBeforeLongerLook(r, identical),
  );
  if (result === undefined) return interrupted();
  const verdict = pairedCheckVerdict(result, identical);
  const word = verdict.code === exit.good ? 'good' : verdict.code === exit.regressed ? 'bad' : 'cannot tell';
  ctx.stdout.write(`check: ${word} (exit ${verdict.code}): ${verdict.reason}\n`);
  return verdict.code;
}
