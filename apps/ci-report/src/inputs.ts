// Reading the report's inputs: run, compare and bisect result files, each
// validated by its schema (bench-runner's readers, the bisect one included),
// and run files merged per machine (env.machineId) so the shards of one CI
// matrix become one run per machine.
import { readFileSync } from 'node:fs';
import { readComparison, readRunResult, ResultFileError } from '@layerbench/bench-runner/results';
import type { CaseResult, Comparison, EnvFingerprint, RunResult } from '@layerbench/bench-runner';
import { BISECT_KIND, readBisectResult, type BisectResult } from '@layerbench/bench-runner/results';

/** An input file that cannot be used: the bin prints the message and exits 2. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
  readonly exitCode = 2;
}

export interface NamedInput<T> {
  file: string;
  data: T;
}

/** The run files of one machine, shards concatenated. */
export interface MachineRun {
  machineId: string;
  env: EnvFingerprint;
  files: string[];
  shards: string[];
  suites: string[];
  cases: CaseResult[];
  /** Case ids present in more than one shard (the first one is kept). */
  duplicates: string[];
  interrupted: boolean;
}

export interface ReportInputs {
  runs: MachineRun[];
  comparisons: NamedInput<Comparison>[];
  bisects: NamedInput<BisectResult>[];
}

const KINDS = ['layerbench/run', 'layerbench/compare', BISECT_KIND];

function kindOf(file: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { kind?: unknown };
    return typeof parsed?.kind === 'string' ? parsed.kind : undefined;
  } catch {
    // Unreadable or not JSON: the schema reader below gives the precise message.
    return undefined;
  }
}

function readOne(file: string): { kind: string; data: unknown } {
  const kind = kindOf(file);
  if (kind === 'layerbench/compare') return { kind, data: readComparison(file) };
  if (kind === BISECT_KIND) return { kind, data: readBisectResult(file) };
  if (kind === 'layerbench/run' || kind === undefined) return { kind: 'layerbench/run', data: readRunResult(file) };
  throw new ReportInputError(`${file}: unknown result kind '${kind}'; expected one of ${KINDS.join(', ')}`);
}

/** Merges run files by machine: cases of the shards concatenated in file order. */
export function mergeRuns(runs: NamedInput<RunResult>[]): MachineRun[] {
  const byMachine = new Map<string, MachineRun>();
  for (const { file, data } of runs) {
    const id = data.env.machineId;
    let machine = byMachine.get(id);
    if (!machine) {
      machine = { machineId: id, env: data.env, files: [], shards: [], suites: [], cases: [], duplicates: [], interrupted: false };
      byMachine.set(id, machine);
    }
    machine.files.push(file);
    if (data.options.shard) machine.shards.push(data.options.shard);
    for (const s of data.suites) if (!machine.suites.includes(s)) machine.suites.push(s);
    const seen = new Set(machine.cases.map((c) => c.id));
    for (const c of data.cases) {
      if (seen.has(c.id)) machine.duplicates.push(c.id);
      else {
        seen.add(c.id);
        machine.cases.push(c);
      }
    }
    machine.interrupted ||= data.interrupted === true;
  }
  return [...byMachine.values()];
}

/** Reads every file; the first unusable one is a ReportInputError naming it and what is wrong. */
export function readReportInputs(files: readonly string[]): ReportInputs {
  const runs: NamedInput<RunResult>[] = [];
  const comparisons: NamedInput<Comparison>[] = [];
  const bisects: NamedInput<BisectResult>[] = [];
  for (const file of files) {
    let one;
    try {
      one = readOne(file);
    } catch (err) {
      if (err instanceof ResultFileError) throw new ReportInputError(err.message);
      throw err;
    }
    if (one.kind === 'layerbench/compare') comparisons.push({ file, data: one.data as Comparison });
    else if (one.kind === BISECT_KIND) bisects.push({ file, data: one.data as BisectResult });
    else runs.push({ file, data: one.data as RunResult });
  }
  return { runs: mergeRuns(runs), comparisons, bisects };
}
