// Reading the report's inputs: run, compare, bisect and find result files,
// each validated by its schema (bench-runner's readers, the bisect and find
// ones included).
// Run files are grouped into runs by what they measured: files with the same
// run identity (machine, runtime, layers and their commits, dispatch,
// suites and options) and distinct `--shard k/n` specs are the shards of one
// CI matrix and are merged; any other run file is a run of its own (two runs
// of different code on one machine are never merged). `--base` and `--head`
// name two runs to compare explicitly: the report compares them itself, by
// the between-run calibration given (`calibration`: noiseForRuns, as
// `layerbench compare --calibration`) or else the one stored for the runs'
// machine and runtime (`calibrationDir`: storedCalibrationForRuns, as
// `layerbench compare`), each with the same load guard, and with the
// conservative default spread between runs when there is none.
import { readFileSync } from 'node:fs';
import { storedCalibrationForRuns } from '@layerbench/bench-runner/calibration';
import {
  compareResults,
  defaultRunNoise,
  noiseForRuns,
  storedRunNoise,
  type RunNoise,
} from '@layerbench/bench-runner/compare';
import type { CaseResult, Comparison, EnvFingerprint, RunResult } from '@layerbench/bench-runner';
import {
  BISECT_KIND,
  FIND_KIND,
  readBisectResult,
  readFindResult,
  readBetweenRunCalibration,
  readComparison,
  readRunResult,
  ResultFileError,
  type BisectResult,
  type FindResult,
} from '@layerbench/bench-runner/results';

/**
 * The report's unchanged-code guard for cases whose files do not record
 * the packages they run (CaseResult.packages: `layerbench run` writes them,
 * and compareResults reads them first, as for `layerbench compare`): every
 * case is taken to run every package either run names. So a case is called
 * unchanged whatever its timings only when no package's built code, no
 * dispatch decision, runtime or CPU differs between the runs (codeUnchanged):
 * an A/A pair, whose separate processes can still differ by a mode of their
 * own (x1.35-x2.9 measured). Any change, and every case is judged by timing.
 */
export function everyPackageOf(base: RunResult, head: RunResult): () => readonly string[] {
  const names = [...new Set([...base.env.layers, ...head.env.layers].map((l) => l.name))].filter(
    (name) => name !== 'runtime',
  );
  return () => names;
}

/** An input file that cannot be used, or inputs that are ambiguous: the bin prints the message and exits 2. */
export class ReportInputError extends Error {
  override name = 'ReportInputError';
  readonly exitCode = 2;
}

export interface NamedInput<T> {
  file: string;
  data: T;
}

/** One run: a single run file, or the shards of one CI matrix merged. */
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
  /** 'base' or 'head' when named with --base / --head. */
  role?: 'base' | 'head';
  /** How tables and charts name this run: its role, or its file(s). */
  label: string;
  /** The merged run as one result (shard option dropped), for compareResults. */
  merged: RunResult;
}

export interface ReportInputs {
  runs: MachineRun[];
  comparisons: NamedInput<Comparison>[];
  bisects: NamedInput<BisectResult>[];
  /** `layerbench find --out` files: which commit changed a case. */
  finds: NamedInput<FindResult>[];
}

export interface ReportInputOptions {
  /** Run files of the base run (one file, or the shards of one run). */
  base?: readonly string[];
  /** Run files of the head run. */
  head?: readonly string[];
  /** A between-run calibration file (`layerbench calibrate --out`) to judge base against head by. */
  calibration?: string;
  /**
   * Without `calibration`: the folder of stored calibrations (bench-runner's
   * calibrationDir) to look up the one of the runs' machine and runtime in,
   * as `layerbench compare` does; undefined, none is looked up.
   */
  calibrationDir?: string;
}

const KINDS = ['layerbench/run', 'layerbench/compare', BISECT_KIND, FIND_KIND];

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
  try {
    if (kind === 'layerbench/compare') return { kind, data: readComparison(file) };
    if (kind === BISECT_KIND) return { kind, data: readBisectResult(file) };
    if (kind === FIND_KIND) return { kind, data: readFindResult(file) };
    if (kind === 'layerbench/run' || kind === undefined) return { kind: 'layerbench/run', data: readRunResult(file) };
  } catch (err) {
    if (err instanceof ResultFileError) throw new ReportInputError(err.message);
    throw err;
  }
  throw new ReportInputError(`${file}: unknown result kind '${kind}'; expected one of ${KINDS.join(', ')}`);
}

/**
 * What makes two run files parts of the same run: the machine, the runtime,
 * each layer's version, commit and content, every dispatch decision, and what
 * was asked for (suites, filter, time per case, number of shards).
 */
export function runIdentity(run: RunResult): string {
  const env = run.env;
  return JSON.stringify({
    machine: env.machineId,
    runtime: [env.node, env.v8, env.openssl],
    capabilities: env.capabilities ?? null,
    layers: env.layers.map((l) => [l.name, l.version, l.commit ?? null, l.contentHash ?? null]).sort(),
    dispatch: env.dispatch.map((d) => [d.layer, d.decision, d.impl]).sort(),
    suites: [...run.suites].sort(),
    filter: run.options.filter ?? null,
    timePerCase: run.options.timePerCase,
    shardCount: run.options.shard?.split('/')[1] ?? null,
  });
}

function shortLabel(files: readonly string[]): string {
  return files.length === 1 ? files[0]! : `${files[0]} + ${files.length - 1} more`;
}

/** One run from run files that must be one file or the distinct shards of one run. */
function mergeOneRun(parts: NamedInput<RunResult>[], role?: 'base' | 'head'): MachineRun {
  const first = parts[0]!;
  const cases: CaseResult[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();
  const suites: string[] = [];
  for (const { data } of parts) {
    for (const s of data.suites) if (!suites.includes(s)) suites.push(s);
    for (const c of data.cases) {
      if (seen.has(c.id)) duplicates.push(c.id);
      else {
        seen.add(c.id);
        cases.push(c);
      }
    }
  }
  const files = parts.map((p) => p.file);
  const { shard: _shard, ...options } = first.data.options;
  const interrupted = parts.some((p) => p.data.interrupted === true);
  return {
    machineId: first.data.env.machineId,
    env: first.data.env,
    files,
    shards: parts.map((p) => p.data.options.shard).filter((s): s is string => s !== undefined),
    suites,
    cases,
    duplicates,
    interrupted,
    ...(role === undefined ? {} : { role }),
    label: role ?? shortLabel(files),
    merged: { ...first.data, suites, options, cases, ...(interrupted ? { interrupted } : {}) },
  };
}

/**
 * Groups run files into runs. Shards (`options.shard` k/n) with the same run
 * identity are merged; the same shard twice is refused (which of the two is
 * meant?). A file without a shard is a run of its own.
 */
export function mergeRuns(runs: NamedInput<RunResult>[]): MachineRun[] {
  const groups = new Map<string, NamedInput<RunResult>[]>();
  const single: NamedInput<RunResult>[][] = [];
  for (const run of runs) {
    if (run.data.options.shard === undefined) {
      single.push([run]);
      continue;
    }
    const key = runIdentity(run.data);
    const group = groups.get(key) ?? [];
    const twin = group.find((other) => other.data.options.shard === run.data.options.shard);
    if (twin) {
      throw new ReportInputError(
        `${twin.file} and ${run.file} are both shard ${run.data.options.shard} of the same run: give one of them, ` +
          'or name two runs to compare with --base and --head',
      );
    }
    group.push(run);
    groups.set(key, group);
  }
  // In the order the files were given.
  const ordered = [...groups.values(), ...single].sort((a, b) => runs.indexOf(a[0]!) - runs.indexOf(b[0]!));
  return ordered.map((parts) => mergeOneRun(parts));
}

/** The files of --base or --head as one run; refused unless they are one file or the shards of one run. */
function explicitRun(flag: '--base' | '--head', parts: NamedInput<RunResult>[]): MachineRun {
  const runs = mergeRuns(parts);
  if (runs.length !== 1) {
    throw new ReportInputError(
      `${flag} ${parts.map((p) => p.file).join(' ')}: these are ${runs.length} different runs, not the shards of one ` +
        '(shards have distinct --shard k/n and the same machine, layers, dispatch and options)',
    );
  }
  return mergeOneRun(parts, flag === '--base' ? 'base' : 'head');
}

/** A between-run calibration file; a ReportInputError naming it when it is not one. */
function readCalibration(file: string) {
  try {
    return readBetweenRunCalibration(file);
  } catch (err) {
    if (err instanceof ResultFileError) throw new ReportInputError(`--calibration ${err.message}`);
    throw err;
  }
}

/**
 * What base and head are judged by: the calibration given, else the one
 * stored for their machine and runtime (storedCalibrationForRuns, as
 * `layerbench compare` judges by it), else the conservative default, saying
 * why.
 */
function noiseFor(base: RunResult, head: RunResult, options: ReportInputOptions): RunNoise {
  if (options.calibration !== undefined)
    return noiseForRuns(readCalibration(options.calibration), options.calibration, base, head);
  const none = 'no --calibration given to layerbench-report';
  if (options.calibrationDir === undefined) return defaultRunNoise(none);
  const stored = storedCalibrationForRuns(base, head, options.calibrationDir);
  if (!stored.found) return defaultRunNoise(`${none}, and ${stored.reason}`);
  return storedRunNoise(stored);
}

/** Reads every file; the first unusable one is a ReportInputError naming it and what is wrong. */
export function readReportInputs(files: readonly string[], options: ReportInputOptions = {}): ReportInputs {
  const runs: NamedInput<RunResult>[] = [];
  const comparisons: NamedInput<Comparison>[] = [];
  const bisects: NamedInput<BisectResult>[] = [];
  const finds: NamedInput<FindResult>[] = [];
  for (const file of files) {
    const one = readOne(file);
    if (one.kind === 'layerbench/compare') comparisons.push({ file, data: one.data as Comparison });
    else if (one.kind === BISECT_KIND) bisects.push({ file, data: one.data as BisectResult });
    else if (one.kind === FIND_KIND) finds.push({ file, data: one.data as FindResult });
    else runs.push({ file, data: one.data as RunResult });
  }
  const grouped = mergeRuns(runs);

  const base = options.base ?? [];
  const head = options.head ?? [];
  if ((base.length === 0) !== (head.length === 0)) {
    throw new ReportInputError(
      `${base.length === 0 ? '--head' : '--base'} needs ${base.length === 0 ? '--base' : '--head'} too: they name the two runs to compare`,
    );
  }
  if (base.length === 0) return { runs: grouped, comparisons, bisects, finds };

  const runFile =
    (flag: string) =>
    (file: string): NamedInput<RunResult> => {
      if (files.includes(file))
        throw new ReportInputError(`${file} is given both as a file and with ${flag}: give it once`);
      const one = readOne(file);
      if (one.kind !== 'layerbench/run')
        throw new ReportInputError(`${flag} ${file}: expected a layerbench/run file, got ${one.kind}`);
      return { file, data: one.data as RunResult };
    };
  const baseRun = explicitRun('--base', base.map(runFile('--base')));
  const headRun = explicitRun('--head', head.map(runFile('--head')));
  const both = baseRun.files.find((f) => headRun.files.includes(f));
  if (both !== undefined) throw new ReportInputError(`${both} is given as both --base and --head`);
  const comparison = compareResults(baseRun.merged, headRun.merged, {
    caseLayers: everyPackageOf(baseRun.merged, headRun.merged),
    guardUnchangedCode: true,
    noise: noiseFor(baseRun.merged, headRun.merged, options),
  });
  return {
    runs: [baseRun, headRun, ...grouped],
    comparisons: [
      {
        file: `${baseRun.label} (${shortLabel(baseRun.files)}) -> ${headRun.label} (${shortLabel(headRun.files)})`,
        data: comparison,
      },
      ...comparisons,
    ],
    bisects,
    finds,
  };
}
