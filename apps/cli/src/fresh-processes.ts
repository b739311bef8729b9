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
import { mergeProcessRuns } from '@layerbench/bench-runner/compare';
import { readRunResult, writeResultFile } from '@layerbench/bench-runner/results';
import type { BenchCase, RunResult } from '@layerbench/bench-runner';
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

export interface ProcessesOutcome {
  /** The processes that finished, merged (undefined when none did; its `processes` counts them). */
  run?: RunResult;
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
 */
export async function runInProcesses(
  ctx: CommandContext,
  runArgs: readonly string[],
  processes: number,
  say: (message: string) => void,
): Promise<ProcessesOutcome> {
  const work = mkdtempSync(join(tmpdir(), 'layerbench-processes-'));
  const runs: RunResult[] = [];
  let failure: ProcessesOutcome['failure'];
  const outcome = (interrupted: boolean): ProcessesOutcome => ({
    ...merged(runs),
    interrupted,
    ...(failure === undefined ? {} : { failure }),
  });
  try {
    for (let k = 1; k <= processes; k++) {
      const file = join(work, `process-${k}.json`);
      say(`process ${k} of ${processes}`);
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
): Promise<Measurement | number> {
  const { prepared, report } = await prepareMeasurement(request);
  // Nothing selected: the empty run of this process says so as a run of one process does.
  if (prepared.selected.length === 0) return measurePrepared(request, ctx, prepared, report);
  // Progress, as everywhere: on a terminal only, never with --quiet.
  const say = (message: string) => {
    if (!request.quiet && ctx.stderr.isTTY === true) ctx.stderr.write(`${command}: ${message}\n`);
  };
  const args = typeof childArgs === 'function' ? childArgs(prepared.selected) : childArgs;
  const outcome = await runInProcesses(ctx, args, processes, say);
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

/** A --filter that selects exactly these case ids (regular-expression characters escaped). */
export function exactIdsFilter(ids: readonly string[]): string {
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return `^(?:${escaped.join('|')})$`;
}
