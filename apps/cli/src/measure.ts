// One measurement as `run` and `check` do it: build the selected cases of some
// suites over a Layers composition, ask the layers for their fingerprint
// reports, run the cases with bench-runner, and keep the --out file valid
// after every finished case (so Ctrl-C keeps what finished).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectEnv, layerFingerprint, runCases } from '@layerbench/bench-runner';
import { writeResultFile } from '@layerbench/bench-runner/results';
import type { BenchCase, EnvFingerprint, LayerFingerprint, RunResult } from '@layerbench/bench-runner';
import type { CommandContext } from './commands/types.js';
import { cliPackageDir, describeLayers, installedPackageDir, peersPackageDir } from './layer-env.js';
import type { LayerReport } from './layer-env.js';
import { loadWorkspaceLayers } from './layers.js';
import type { Layers } from './layers.js';
import { buildCases, selectCases } from './suites/index.js';
import type { BuiltCases, Selection, SuiteDefinition } from './suites/index.js';
import { progressStream } from './terminal.js';
import { UsageError } from './args.js';
import { checkedCpuPlan, cpuFields, planCpu, whilePinned, type CpuChoice } from './cpu.js';

export interface MeasureRequest {
  suites: readonly SuiteDefinition[];
  selection: Selection;
  /** Seconds per case; bench-runner's default when not given. */
  timePerCase?: number;
  esptestSeconds?: number;
  /** Absolute path of the result file, rewritten after every case. */
  out?: string;
  quiet: boolean;
  /** Only cases whose id is in this set (check: the baseline's cases). */
  onlyIds?: ReadonlySet<string>;
  /** A --filter that matches no case of the suites is a usage error (exit 2), not an empty run. */
  filterMustMatch?: boolean;
  /**
   * The CPU to measure on (cpu.ts). Default 'none': unlike bisect's workers,
   * whose variants share the pinned CPU's state in the same rounds, one run
   * is compared with another made minutes apart, and pinned runs spread more
   * between processes here: calibrate of 6 sha1 cases at --time 1, one after
   * the other (2026-12-02 03:12-03:19 UTC, load 1.1-2.6): fastest-low sd
   * median 6.2% not pinned, 10.2% on CPU 1, 16.2% on CPU 0, 8.6% with only
   * the main thread on CPU 1.
   */
  cpu?: CpuChoice;
  /** Before the cases run: the report of the layers and the cases that will run. */
  onStart?: (start: { report: LayerReport; cases: BenchCase[] }) => void;
}

export interface Measurement {
  run: RunResult;
  /** Cases selected (the run may hold fewer when interrupted). */
  selected: BenchCase[];
  suiteOf: Map<string, string>;
  suiteErrors: BuiltCases['errors'];
  report: LayerReport;
}

/** Everything up to running: layers, their report, the selected cases. */
export async function prepareCases(
  request: Pick<MeasureRequest, 'suites' | 'selection' | 'esptestSeconds' | 'onlyIds'>,
  layers?: Layers,
): Promise<{ layers: Layers; built: BuiltCases; selected: BenchCase[] }> {
  const composed = layers ?? (await loadWorkspaceLayers());
  const built = buildCases(
    request.suites,
    composed,
    request.esptestSeconds === undefined ? {} : { esptestSeconds: request.esptestSeconds },
  );
  let selected = selectCases(built.cases, request.selection);
  const onlyIds = request.onlyIds;
  if (onlyIds !== undefined) selected = selected.filter((benchCase) => onlyIds.has(benchCase.id));
  return { layers: composed, built, selected };
}

/** The CLI package's own fingerprint: its suites define what each case does. */
export function cliFingerprint() {
  return layerFingerprint(cliPackageDir(), 'workspace');
}

/** The CLI's fingerprint and, when installed, the npm peers'. */
function ownFingerprints(): LayerFingerprint[] {
  const peers = peersFingerprint();
  return peers === undefined ? [cliFingerprint()] : [cliFingerprint(), peers];
}

/**
 * The npm peers' fingerprint (packages/peers): its built code, and the exact
 * version of every peer library as installed, in one content hash, so that
 * a peer case's code can be known to be identical in two runs. Undefined
 * when the peers package is not installed.
 */
export function peersFingerprint(): LayerFingerprint | undefined {
  const dir = peersPackageDir();
  if (dir === undefined) return undefined;
  const manifestPath = join(dir, 'package.json');
  const fingerprint = layerFingerprint(dir, 'workspace');
  if (fingerprint.contentHash === undefined) return fingerprint;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
  const installed = Object.keys(manifest.dependencies ?? {})
    .sort()
    .map((name) => `${name}@${installedVersion(dir, name) ?? 'missing'}`);
  const hash = createHash('sha256')
    .update(fingerprint.contentHash)
    .update(`\0${installed.join('\0')}`);
  return { ...fingerprint, contentHash: hash.digest('hex') };
}

/** The installed version of `name` as seen from `fromDir`. */
function installedVersion(fromDir: string, name: string): string | undefined {
  const dir = installedPackageDir(fromDir, name);
  if (dir === undefined) return undefined;
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version;
  return typeof version === 'string' ? version : undefined;
}

/**
 * Everything before measuring, as `measure` does it: the cases, the
 * filter checked, the layers' report, onStart called. `run --processes`
 * measures in child processes after this.
 */
export async function prepareMeasurement(
  request: MeasureRequest,
  layers?: Layers,
): Promise<{ prepared: Awaited<ReturnType<typeof prepareCases>>; report: LayerReport }> {
  const prepared = await prepareCases(request, layers);
  const filter = request.selection.filter;
  if (request.filterMustMatch && filter !== undefined && selectCases(prepared.built.cases, { filter }).length === 0) {
    const names = request.suites.map((suite) => suite.name).join(', ');
    throw new UsageError(
      `--filter '${filter}' matches no case of ${names} (see layerbench list ${request.suites.map((s) => s.name).join(' ')})`,
    );
  }
  const report = describeLayers(prepared.layers);
  request.onStart?.({ report, cases: prepared.selected });
  return { prepared, report };
}

export async function measure(request: MeasureRequest, ctx: CommandContext, layers?: Layers): Promise<Measurement> {
  const { prepared, report } = await prepareMeasurement(request, layers);
  return measurePrepared(request, ctx, prepared, report);
}

type LayerEnv = NonNullable<NonNullable<Parameters<typeof runCases>[1]>['env']>;

/** What a run records of this checkout's code: the capability word, the dispatch decisions, and the layers' fingerprints, then the CLI's and the peers'. */
function layerEnv(report: LayerReport): LayerEnv {
  const fingerprints = [...report.layers, ...ownFingerprints()];
  return report.capabilities === undefined
    ? { dispatch: report.dispatch, layers: fingerprints }
    : { capabilities: report.capabilities, dispatch: report.dispatch, layers: fingerprints };
}

/**
 * The environment a run of these layers would record, without measuring
 * anything (its load averages are now's): what `check` holds against a
 * baseline's to know, before measuring, that no case's code has changed.
 */
export function unmeasuredEnv(layers: Layers): EnvFingerprint {
  return collectEnv(layerEnv(describeLayers(layers)));
}

/** The measurement in this process of cases prepared by prepareMeasurement. */
export async function measurePrepared(
  request: MeasureRequest,
  ctx: CommandContext,
  prepared: Awaited<ReturnType<typeof prepareCases>>,
  report: LayerReport,
): Promise<Measurement> {
  // Writes are chained so they land in order; the first failure is kept and rethrown at the end.
  let writes: Promise<unknown> = Promise.resolve();
  let writeError: unknown;
  const out = request.out;
  const keep = (partial: RunResult): void => {
    if (out === undefined) return;
    writes = writes
      .then(() => writeResultFile(out, partial))
      .catch((error: unknown) => {
        writeError ??= error;
      });
  };

  const progress = progressStream(ctx, request.quiet);
  const env = layerEnv(report);
  const plan = checkedCpuPlan(planCpu(request.cpu ?? 'none'));
  const run = await whilePinned(plan, async (cpu) => {
    const result = await runCases(prepared.selected, {
      ...(request.timePerCase === undefined ? {} : { timePerCase: request.timePerCase }),
      quiet: progress === undefined,
      ...(progress === undefined ? {} : { progress }),
      signal: ctx.signal,
      onCase: (_result, partial) => keep(partial),
      env: { ...env, ...cpuFields(cpu) },
      suites: request.suites.map((suite) => suite.name),
      ...(request.selection.shard === undefined ? {} : { shard: request.selection.shard.text }),
      ...(request.selection.filter === undefined ? {} : { filter: request.selection.filter }),
    });
    return result;
  });
  keep(run);
  await writes;
  if (writeError !== undefined) throw writeError;
  return measurementOf(run, prepared, report);
}

/** A run of prepared cases as a Measurement (in this process or merged from several). */
export function measurementOf(
  run: RunResult,
  prepared: Awaited<ReturnType<typeof prepareCases>>,
  report: LayerReport,
): Measurement {
  return {
    run,
    selected: prepared.selected,
    suiteOf: prepared.built.suiteOf,
    suiteErrors: prepared.built.errors,
    report,
  };
}

/** Cases that failed or whose digest did not match, one line each. */
export function failureLines(run: RunResult): string[] {
  const lines: string[] = [];
  for (const result of run.cases) {
    if (result.status === 'failed') {
      lines.push(
        `FAILED ${result.id}: ${result.error ? `${result.error.name}: ${result.error.message}` : 'no error recorded'}`,
      );
    } else if (result.digestOk === false) {
      lines.push(
        `WRONG OUTPUT ${result.id}: digest ${result.digest ?? '?'} but expected ${result.expectedDigest ?? '?'}`,
      );
    }
  }
  return lines;
}

/** Suites whose cases() threw, one line each (the other suites still ran). */
export function suiteErrorLines(errors: BuiltCases['errors']): string[] {
  return errors.map(({ suite, error }) => `suite ${suite} could not build its cases: ${error.message}`);
}
