// `layerbench run` in fresh processes, one after the other: what `calibrate`
// measures the machine with, and what `run --processes k` and
// `check --processes k` measure with. Each process draws its own offset on a
// shared machine (the CPU it stays on, its JIT state), so several of them are
// the replicates a between-run comparison needs (compare/processes.ts in
// bench-runner).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  calmBases,
  calmLevel,
  caseFigure,
  mergeProcessRuns,
  minCalmProcessesPerSide,
  withinCalmLevel,
} from '@layerbench/bench-runner/compare';
import { readRunResult, writeResultFile } from '@layerbench/bench-runner/results';
import type { BenchCase, RunResult } from '@layerbench/bench-runner';
import { UsageError } from './args.js';
import { storedCalibration } from './between-runs.js';
import type { CommandContext } from './commands/types.js';
import {
  measurementOf,
  measurePrepared,
  prepareMeasurement,
  type Measurement,
  type MeasureRequest,
} from './measure.js';

/** One `layerbench run` in a fresh process; undefined when interrupted (the child got SIGTERM). */
export function runInFreshProcess(
  ctx: CommandContext,
  args: string[],
): Promise<{ code: number; stderr: string } | undefined> {
  const main = fileURLToPath(new URL('./main.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, 'run', ...args], {
      cwd: ctx.cwd,
      env: ctx.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const onAbort = () => child.kill('SIGTERM');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      ctx.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(ctx.signal.aborted ? undefined : { code: code ?? 1, stderr });
    });
  });
}

/**
 * Each case of one process as the top-up sees it: its calm level (the state
 * probe's level beside its slices) when the process has a calm figure of it
 * on either calm basis (calm-fastest needs only the probes beside its
 * slices), null when it has none. Cases without slice probes are left out:
 * no process would give them a calm figure.
 */
export function calmStatesOf(run: RunResult): Map<string, number | null> {
  const states = new Map<string, number | null>();
  for (const c of run.cases) {
    if (c.status !== 'ok') continue;
    const level = calmLevel(c);
    if (level === undefined) continue;
    states.set(c.id, calmBases.some((basis) => caseFigure(c, basis) !== undefined) ? level : null);
  }
  return states;
}

/**
 * The top-up of a run of k processes unless --extra-processes says: half as
 * many again, rounded up (at most 1.5 x the time). Over 132 windows of 4
 * consecutive calibration processes at --time 1 (eight sittings, CLI README
 * "Processes in the CPU's fast state"), every case had 4 fast-state
 * processes in 34% of them without a top-up and in 60% with up to 2 more,
 * at 5.1 processes on average.
 */
export function defaultExtraProcesses(processes: number): number {
  return Math.ceil(processes / 2);
}

/**
 * The --extra-processes of `run` and `check`: the number given, else
 * defaultExtraProcesses; bad input when given for a run of one process,
 * which has nothing to top up (`severalProcesses` says how that command
 * asks for several).
 */
export function extraProcessesFor(given: number | undefined, processes: number, severalProcesses: string): number {
  if (given !== undefined && processes < 2)
    throw new UsageError(`--extra-processes goes with ${severalProcesses}: it tops up a run of fresh processes`);
  return given ?? defaultExtraProcesses(processes);
}

/** A case that fewer than the wanted processes measured in the CPU's fast state. */
export interface FastStateShortfall {
  id: string;
  /** Its processes in the fast state. */
  fast: number;
  /** Its processes with slice probes. */
  processes: number;
}

/**
 * The cases with fewer than `wanted` processes in the CPU's fast state: a
 * calm figure at a calm level within calmLevelTolerance of the lowest level
 * of any case in any of these processes, or of the case's level in this
 * machine's calibration (`calibratedLevel`) when that is lower. compare
 * compares the calm figures of processes in one state only, and only at
 * the calibration's level (a run whose processes all met the slow state
 * has no calm comparison), and a run in the fast state may be the other
 * side, so those are the processes that count. Empty when no process has a
 * calm figure of any case: none forms at this --time or on this machine,
 * and more processes would not give one.
 */
export function shortOfFastState(
  processes: readonly ReadonlyMap<string, number | null>[],
  wanted: number,
  calibratedLevel: (id: string) => number | undefined = () => undefined,
): FastStateShortfall[] {
  const levels = processes.flatMap((states) => [...states.values()].filter((level) => level !== null));
  if (levels.length === 0) return [];
  const lowest = Math.min(...levels);
  const counts = new Map<string, { fast: number; processes: number }>();
  for (const states of processes) {
    for (const [id, level] of states) {
      const count = counts.get(id) ?? { fast: 0, processes: 0 };
      count.processes++;
      const fastest = Math.min(lowest, calibratedLevel(id) ?? lowest);
      if (level !== null && withinCalmLevel(level, fastest)) count.fast++;
      counts.set(id, count);
    }
  }
  return [...counts].filter(([, count]) => count.fast < wanted).map(([id, count]) => ({ id, ...count }));
}

/** The calm level of each case in this machine's stored calibration (`file`), the fast state compare compares in. */
export interface CalibratedLevels {
  file: string;
  level: (id: string) => number | undefined;
}

/**
 * The calm levels of the stored calibration compare would take for `run`
 * (storedCalibration: this machine and runtime, the nearest --time, not a
 * calibration made at a lower load), undefined when there is none or it
 * has no calm level.
 * compare compares calm figures only of processes at that level, so a run
 * whose processes all met the slow state is short of the fast state even
 * when they agree with each other.
 */
export function calibratedLevelsFor(ctx: CommandContext, run: RunResult): CalibratedLevels | undefined {
  const stored = storedCalibration(ctx, run, run);
  if (!stored.found) return undefined;
  const cases = stored.calibration.cases;
  // The lowest of the case's calm levels (one per calm basis; calmLevel alone in calibrations before calm-fastest).
  const levelOf = (c: (typeof cases)[string] | undefined) => {
    const levels = [...Object.values(c?.calmLevels ?? {}), ...(c?.calmLevel === undefined ? [] : [c.calmLevel])];
    return levels.length === 0 ? undefined : Math.min(...levels);
  };
  if (!Object.values(cases).some((c) => levelOf(c) !== undefined)) return undefined;
  return { file: stored.file, level: (id) => levelOf(cases[id]) };
}

export interface ProcessesOutcome {
  /** The processes that finished, merged (undefined when none did; its `processes` counts them). */
  run?: RunResult;
  /** The processes that finished, each its own run, in the order they ran. */
  runs: RunResult[];
  /**
   * Processes started beyond the planned ones, and the cases still short of
   * the fast state after them; `calibration`: the stored calibration whose
   * calm levels set the fast state, when there was one.
   */
  topUp?: { extra: number; short: FastStateShortfall[]; calibration?: string };
  /** Interrupted (Ctrl-C) before the last process finished. */
  interrupted: boolean;
  /** The first process that exited non-zero: its exit code and what it printed. */
  failure?: { process: number; code: number; stderr: string };
}

/**
 * `layerbench run <runArgs>` in `processes` fresh processes one after the
 * other, merged into one result (mergeProcessRuns). A process whose cases
 * failed (exit 1 with its result file) counts, and the others still run (a
 * failing case never discards the others); one that could not run at all
 * (bad input, a crash) stops the series, as does Ctrl-C; the processes that
 * finished are kept.
 *
 * With `extra` > 0, up to that many more processes follow while a case has
 * fewer than `processes` processes in the CPU's fast state
 * (shortOfFastState): a shared CPU falls into a slower state for seconds to
 * minutes, and compare leaves the processes of that state out, so a run
 * whose processes met it ends with too few to compare (measured, CLI
 * README "Processes in the CPU's fast state"). Which processes are added
 * depends on the state probe only, never on a case's figures, and every
 * process runs every case, as the planned ones do.
 */
export async function runInProcesses(
  ctx: CommandContext,
  runArgs: readonly string[],
  processes: number,
  say: (message: string) => void,
  extra = 0,
): Promise<ProcessesOutcome> {
  const work = mkdtempSync(join(tmpdir(), 'layerbench-processes-'));
  const runs: RunResult[] = [];
  const states: Map<string, number | null>[] = [];
  // Looked up once the first process has said which machine and runtime this is.
  let calibrated: CalibratedLevels | undefined;
  const shortfall = () => shortOfFastState(states, processes, calibrated?.level);
  let failure: ProcessesOutcome['failure'];
  const outcome = (interrupted: boolean): ProcessesOutcome => ({
    ...merged(runs),
    runs,
    interrupted,
    ...(failure === undefined ? {} : { failure }),
    ...(extra > 0 && runs.length >= processes
      ? {
          topUp: {
            extra: runs.length - processes,
            short: shortfall(),
            ...(calibrated === undefined ? {} : { calibration: calibrated.file }),
          },
        }
      : {}),
  });
  try {
    for (let k = 1; k <= processes + extra; k++) {
      if (k > processes) {
        const short = shortfall();
        if (short.length === 0) break;
        say(
          `process ${k} (at most ${processes + extra}): ${short.length} case(s) with fewer than ${processes} processes in the CPU's fast state`,
        );
      } else say(`process ${k} of ${processes}`);
      const file = join(work, `process-${k}.json`);
      const ended = await runInFreshProcess(ctx, [...runArgs, '--quiet', '--out', file]);
      if (ended === undefined) return outcome(true);
      let result: RunResult | undefined;
      try {
        result = readRunResult(file);
      } catch {
        result = undefined;
      }
      if (ended.code !== 0) failure ??= { process: k, code: ended.code, stderr: ended.stderr };
      if (result === undefined || (ended.code !== 0 && ended.code !== 1)) return outcome(false);
      runs.push(result);
      states.push(calmStatesOf(result));
      if (extra > 0 && runs.length === 1) calibrated = calibratedLevelsFor(ctx, result);
    }
    return outcome(false);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function merged(runs: RunResult[]): { run?: RunResult } {
  return runs.length === 0 ? {} : { run: mergeProcessRuns(runs) };
}

/**
 * `run --processes k` and `check --processes k`: the cases prepared here
 * (the filter checked, onStart called; `childArgs` may be a function of the
 * selected cases), measured in k fresh processes one after the other and
 * merged; the --out file is written once, atomically, with the processes
 * that finished. An exit code when no process finished (the child's error
 * is printed).
 */
export async function measureInProcesses(
  request: MeasureRequest,
  childArgs: readonly string[] | ((selected: readonly BenchCase[]) => readonly string[]),
  processes: number,
  command: string,
  ctx: CommandContext,
  extra = 0,
): Promise<Measurement | number> {
  const { prepared, report } = await prepareMeasurement(request);
  // Nothing selected: the empty run of this process says so as a run of one process does.
  if (prepared.selected.length === 0) return measurePrepared(request, ctx, prepared, report);
  // Progress, as everywhere: on a terminal only, never with --quiet.
  const say = (message: string) => {
    if (!request.quiet && ctx.stderr.isTTY === true) ctx.stderr.write(`${command}: ${message}\n`);
  };
  const args = typeof childArgs === 'function' ? childArgs(prepared.selected) : childArgs;
  if (!request.quiet) {
    const note = fewProcessesNote(processes);
    if (note !== undefined) ctx.stderr.write(`layerbench ${command}: ${note}\n`);
  }
  const outcome = await runInProcesses(ctx, args, processes, say, extra);
  if (!request.quiet && outcome.topUp !== undefined) {
    for (const line of topUpLines(outcome.topUp, processes)) ctx.stderr.write(`layerbench ${command}: ${line}\n`);
  }
  if (outcome.failure !== undefined) {
    ctx.stderr.write(
      `layerbench ${command}: process ${outcome.failure.process} exited ${outcome.failure.code}:\n${outcome.failure.stderr.replace(/\n?$/, '\n')}`,
    );
  }
  if (outcome.run === undefined) {
    if (!outcome.interrupted) return outcome.failure?.code === 2 ? 2 : 1;
    ctx.stderr.write('layerbench: interrupted before the first process finished; nothing written\n');
    return 130;
  }
  const run = outcome.run;
  if (outcome.interrupted) run.interrupted = true;
  if (request.out !== undefined) await writeResultFile(request.out, run);
  return measurementOf(run, prepared, report);
}

/**
 * Said before a run of fewer processes than compare needs a side for calm
 * figures (bench-runner's minCalmProcessesPerSide): its cases are compared
 * on the calibration's basis, whose intervals are far wider for the cases
 * the CPU's state moves. Undefined when there are enough.
 */
export function fewProcessesNote(processes: number): string | undefined {
  if (processes >= minCalmProcessesPerSide) return undefined;
  return `${processes} processes: compare takes calm figures only from ${minCalmProcessesPerSide} or more processes a side in the CPU's fast state, so this run will be compared on other figures with wider intervals; --processes 4 or more, which --extra-processes tops up when some met the slow state`;
}

/** What the top-up did, for stderr: nothing when it was not needed. */
export function topUpLines(topUp: NonNullable<ProcessesOutcome['topUp']>, processes: number): string[] {
  const lines: string[] = [];
  const total = processes + topUp.extra;
  const state =
    topUp.calibration === undefined
      ? "the CPU's fast state"
      : `the CPU's fast state at the level of the calibration ${topUp.calibration}`;
  if (topUp.extra > 0)
    lines.push(
      `${topUp.extra} more process(es), ${total} in all: cases had fewer than ${processes} processes in ${state} (its slower state is left out by compare)`,
    );
  if (topUp.short.length > 0) {
    const named = topUp.short
      .slice(0, 4)
      .map((s) => `${s.id} ${s.fast} of ${s.processes}`)
      .join(', ');
    const more = topUp.short.length > 4 ? ` and ${topUp.short.length - 4} more` : '';
    lines.push(
      `still fewer than ${processes} processes in ${state}: ${named}${more}; compare may find them inconclusive (measure again later, or with --extra-processes)`,
    );
  }
  return lines;
}

/** A --filter that selects exactly these case ids (regular-expression characters escaped). */
export function exactIdsFilter(ids: readonly string[]): string {
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return `^(?:${escaped.join('|')})$`;
}
