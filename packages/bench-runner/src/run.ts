// runCases(): turns a list of bench cases into a RunResult. Each case is set
// up outside timing, run once for its digest (checked against the expected
// one), warmed up, measured, and checked again; any failure is recorded on
// that case and the run goes on with the next.
import os from 'node:os';
import { collectEnv } from './env.js';
import { Progress } from './progress.js';
import { computeStats, median } from './stats/stats.js';
import { batchSize, createCaseTimer, isThenable, sampleTargetNs, type CaseTimer } from './timing.js';
import { referenceCase, referenceWorkName, stateProbeCase, stateProbeWorkName } from './reference.js';
import type { BenchCase, CaseError, CaseInstance, CaseResult, RunOptions, RunResult } from './types.js';

export class DigestMismatchError extends Error {
  override name = 'DigestMismatchError';
}

/** Seconds of warm-up before measuring: a tenth of the budget, at most a quarter second. */
export function warmupSeconds(budgetSeconds: number): number {
  return Math.min(0.25, budgetSeconds / 10);
}

export function toCaseError(error: unknown): CaseError {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** Samples are kept to the picosecond: more digits are noise and bloat the file. */
function roundSamples(samples: readonly number[]): number[] {
  return samples.map((v) => Math.round(v * 1000) / 1000);
}

export function checkTimePerCase(timePerCase: number): void {
  if (!(Number.isFinite(timePerCase) && timePerCase > 0)) {
    throw new RangeError(`timePerCase must be a positive number of seconds, got ${timePerCase}`);
  }
}

function checkUniqueIds(cases: readonly BenchCase[]): void {
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw new RangeError(`duplicate case id '${c.id}': ids must be unique within a run`);
    seen.add(c.id);
  }
}

export function emptyCaseResult(benchCase: BenchCase): CaseResult {
  const result: CaseResult = {
    id: benchCase.id,
    layer: benchCase.layer,
    params: { ...benchCase.params },
    status: 'ok',
    samples: [],
  };
  if (benchCase.packages !== undefined) result.packages = [...benchCase.packages];
  if (benchCase.bytesPerOp !== undefined) result.bytesPerOp = benchCase.bytesPerOp;
  if (benchCase.expectedDigest !== undefined) result.expectedDigest = benchCase.expectedDigest.toLowerCase();
  return result;
}

export function failCase(result: CaseResult, error: unknown): CaseResult {
  result.status = 'failed';
  result.error = toCaseError(error);
  return result;
}

/** A prepared case: set up, run once, digest recorded and checked. */
export interface PreparedCase {
  instance: CaseInstance;
  /** fn returned a promise on its first run: it is timed as asynchronous. */
  async: boolean;
  result: CaseResult;
}

/**
 * Sets the case up and runs it once outside timing; records the digest and
 * throws DigestMismatchError when it differs from the expected one. The caller
 * owns teardown of the returned instance.
 */
export async function prepareCase(benchCase: BenchCase, result: CaseResult): Promise<PreparedCase> {
  const instance = await benchCase.setup();
  if (!instance || typeof instance.fn !== 'function' || typeof instance.digest !== 'function') {
    throw new TypeError(`setup() of case '${benchCase.id}' must return { fn(), digest() }`);
  }
  if (instance.implementation !== undefined) result.implementation = instance.implementation;
  const first = instance.fn();
  const async = isThenable(first);
  if (async) await first;
  checkDigest(instance, result, 'after the first run');
  return { instance, async, result };
}

/** Records the instance's digest; throws when it differs from the expected or earlier one. */
export function checkDigest(instance: CaseInstance, result: CaseResult, when: string): void {
  const digest = String(instance.digest()).toLowerCase();
  if (result.digest !== undefined && result.digest !== digest) {
    result.digestOk = false;
    throw new DigestMismatchError(
      `digest changed while timing (${when}): ${result.digest} then ${digest}; fn() is not repeatable`,
    );
  }
  result.digest = digest;
  if (result.expectedDigest !== undefined) {
    result.digestOk = digest === result.expectedDigest;
    if (!result.digestOk) {
      throw new DigestMismatchError(`digest ${digest} does not match the expected ${result.expectedDigest}`);
    }
  }
}

export function safeTeardown(instance: CaseInstance | undefined): CaseError | undefined {
  try {
    instance?.teardown?.();
    return undefined;
  } catch (error) {
    return toCaseError(error);
  }
}

/** Medians of `count` consecutive, nearly equal groups of `samples` (in time order). */
export function consecutiveMedians(samples: readonly number[], count: number): number[] {
  const groups = Math.min(count, samples.length);
  const out: number[] = [];
  for (let g = 0; g < groups; g++) {
    const from = Math.floor((g * samples.length) / groups);
    const to = Math.floor(((g + 1) * samples.length) / groups);
    out.push(median(samples.slice(from, to)));
  }
  return out;
}

export const defaultSlices = 10;

/** Slice length that relative figures aim for: short enough to follow the machine's slow phases. */
const referenceSliceTarget = 0.03;

/** A warmed timer of the reference workload, shared by every case of a run. */
export interface ReferenceTimer {
  work: string;
  /** One short slice: the median and the fastest batch, ns per reference call. */
  slice(): Promise<{ median: number; fastest: number }>;
}

export async function createReferenceTimer(seconds: number): Promise<ReferenceTimer> {
  return createWorkloadTimer(referenceCase, referenceWorkName, seconds);
}

/** A warmed timer of a fixed workload (the reference, the state probe): slices of `seconds`, 16 batches each. */
async function createWorkloadTimer(workload: BenchCase, work: string, seconds: number): Promise<ReferenceTimer> {
  const result = emptyCaseResult(workload);
  const prepared = await prepareCase(workload, result);
  const timer = await createCaseTimer(prepared.instance, prepared.async, 0.05);
  const batch = batchSize(timer.nsPerOp, (seconds * 1e9) / 16);
  return {
    work,
    slice: async () => {
      const samples = await timer.measure(seconds, batch);
      return { median: median(samples), fastest: Math.min(...samples) };
    },
  };
}

/** Measures one case; never throws (failures are recorded on the result). */
export async function runCase(
  benchCase: BenchCase,
  timePerCase: number,
  slices = defaultSlices,
  reference?: ReferenceTimer,
  probe?: ReferenceTimer,
): Promise<CaseResult> {
  const result = emptyCaseResult(benchCase);
  let prepared: PreparedCase | undefined;
  try {
    prepared = await prepareCase(benchCase, result);
    const fixed = benchCase.fixedTimeSeconds;
    if (fixed !== undefined) checkTimePerCase(fixed);
    const budget = fixed ?? timePerCase;
    const timer = await createCaseTimer(prepared.instance, prepared.async, warmupSeconds(budget));
    if (fixed !== undefined) {
      const loop = await timer.fixedTime(fixed);
      result.samples = roundSamples(loop.samples);
      result.sliceMedians = consecutiveMedians(result.samples, slices);
      result.fixedTime = { seconds: fixed, ops: loop.ops, elapsedSeconds: loop.elapsedSeconds };
    } else {
      const batch = batchSize(timer.nsPerOp, sampleTargetNs(budget));
      const samples: number[] = [];
      const sliceMedians: number[] = [];
      const count = reference ? Math.max(slices, Math.ceil(budget / referenceSliceTarget)) : slices;
      const sliceFastest: number[] = [];
      const refs: { median: number; fastest: number }[] = [];
      // The state probe beside each reference slice (only with a reference: the slices are then short).
      const probes: number[] = [];
      const probeAround = reference ? probe : undefined;
      if (reference) refs.push(await reference.slice());
      if (probeAround) probes.push((await probeAround.slice()).fastest);
      for (let s = 0; s < count; s++) {
        const slice = roundSamples(await timer.measure(budget / count, batch));
        sliceMedians.push(median(slice));
        let fastest = Infinity;
        for (const v of slice) {
          samples.push(v);
          if (v < fastest) fastest = v;
        }
        sliceFastest.push(fastest);
        if (reference) refs.push(await reference.slice());
        if (probeAround) probes.push((await probeAround.slice()).fastest);
      }
      result.samples = samples;
      result.sliceMedians = sliceMedians;
      result.sliceFastest = sliceFastest;
      if (reference) {
        // Each slice against the reference slices just before and after it.
        result.reference = {
          work: reference.work,
          sliceMedians: roundSamples(refs.map((r) => r.median)),
          sliceFastest: roundSamples(refs.map((r) => r.fastest)),
        };
        result.relativeSliceMedians = sliceMedians.map((v, i) => v / Math.sqrt(refs[i]!.median * refs[i + 1]!.median));
      }
      if (probeAround) result.sliceStateProbes = roundSamples(probes);
    }
    checkDigest(prepared.instance, result, 'after timing');
    result.stats = computeStats(result.samples, benchCase.bytesPerOp);
  } catch (error) {
    failCase(result, error);
  } finally {
    const teardownError = safeTeardown(prepared?.instance);
    if (teardownError && result.status === 'ok') failCase(result, teardownError);
  }
  return result;
}

/**
 * One case kept set up, its loop compiled, warmed and settled once, for many
 * short measurements in one process (`layerbench bisect`'s visits: a few
 * tens of milliseconds each, taking turns with other cases). runCases would
 * set the case up and settle a fresh loop on every call, which costs more
 * than such a visit measures. Fixed-time cases are timed like the others.
 */
export interface OpenCase {
  /**
   * Samples of `seconds` more timing (after waiting for any compile queued
   * meanwhile), with the digest checked after; never throws: a failure is on
   * the result (status 'failed'), and every later measure() fails the same way.
   */
  measure(seconds: number): Promise<CaseResult>;
  /** Settles the loop again: after other cases ran in this process, V8 may have dropped code this one runs. */
  rewarm(): void;
  /** Tears the case down; the error of its teardown, if any. */
  close(): CaseError | undefined;
}

export async function openCase(benchCase: BenchCase, warmSeconds = 0.05): Promise<OpenCase> {
  const opened = emptyCaseResult(benchCase);
  let prepared: PreparedCase | undefined;
  let timer: CaseTimer | undefined;
  try {
    prepared = await prepareCase(benchCase, opened);
    timer = await createCaseTimer(prepared.instance, prepared.async, warmSeconds);
  } catch (error) {
    failCase(opened, error);
  }
  return {
    async measure(seconds) {
      checkTimePerCase(seconds);
      const result: CaseResult = { ...opened, params: { ...opened.params }, samples: [] };
      if (result.status !== 'ok' || !prepared || !timer) return result;
      try {
        result.samples = roundSamples(await timer.measure(seconds, batchSize(timer.nsPerOp, sampleTargetNs(seconds))));
        checkDigest(prepared.instance, result, 'after timing');
      } catch (error) {
        failCase(result, error);
        failCase(opened, error);
      }
      return result;
    },
    rewarm() {
      if (opened.status === 'ok') timer?.rewarm();
    },
    close: () => safeTeardown(prepared?.instance),
  };
}

/** The empty-case timing overhead (ns/op) measured through the same path as real cases. */
export async function measureOverhead(seconds: number): Promise<{ samples: number[]; medianNs: number }> {
  const emptyCase: BenchCase = {
    id: 'overhead/empty',
    layer: 'bench-runner',
    params: {},
    setup: () => ({ fn: () => undefined, digest: () => '' }),
  };
  const result = await runCase(emptyCase, seconds);
  if (result.status !== 'ok' || !result.stats)
    throw new Error(`measuring the empty case failed: ${result.error?.message}`);
  return { samples: result.samples, medianNs: result.stats.median };
}

export interface RunCasesOptions extends RunOptions {
  /** Measure the empty-case overhead first (default true). */
  overhead?: boolean;
  /** Time the reference workload between slices and record relative figures (default true). */
  reference?: boolean;
}

/**
 * Length of the state probe's slice beside each reference slice: 1.5 ms (16
 * batches of about 20 calls; the fastest batch reads the state, which moves
 * the probe by x1.2-1.6, well beyond that batch's own noise).
 */
export const sliceProbeSeconds = 0.0015;

/** Length of one reference slice: a sixth of a case slice, 2-5 ms (16 samples of the reference). */
export function referenceSliceSeconds(timePerCase: number): number {
  const caseSlice = Math.min(referenceSliceTarget, timePerCase / defaultSlices);
  return Math.min(0.005, Math.max(0.002, caseSlice / 6));
}

export async function runCases(cases: BenchCase[], options: RunCasesOptions = {}): Promise<RunResult> {
  const timePerCase = options.timePerCase ?? 1;
  const slices = options.slices ?? defaultSlices;
  checkTimePerCase(timePerCase);
  if (!(Number.isInteger(slices) && slices >= 1))
    throw new RangeError(`slices must be a positive integer, got ${slices}`);
  checkUniqueIds(cases);
  const env = collectEnv(options.env);
  const run: RunResult = {
    kind: 'layerbench/run',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    suites: options.suites ? [...options.suites] : [],
    options: { timePerCase },
    env,
    cases: [],
  };
  if (options.shard !== undefined) run.options.shard = options.shard;
  if (options.filter !== undefined) run.options.filter = options.filter;

  if (options.overhead !== false && !options.signal?.aborted) {
    run.overheadNs = (await measureOverhead(Math.min(timePerCase, 0.25))).medianNs;
  }

  const reference =
    options.reference === false ? undefined : await createReferenceTimer(referenceSliceSeconds(timePerCase));
  if (reference) run.options.reference = reference.work;
  // The state probe, timed before the first case and after each one (see reference.ts).
  const probe =
    options.reference === false
      ? undefined
      : await createWorkloadTimer(stateProbeCase, stateProbeWorkName, referenceSliceSeconds(timePerCase));
  if (probe) run.options.stateProbe = probe.work;
  // The same work in shorter slices beside every reference slice: which slices ran in which state.
  const sliceProbe = probe
    ? await createWorkloadTimer(stateProbeCase, stateProbeWorkName, sliceProbeSeconds)
    : undefined;
  let probedBefore = probe ? (await probe.slice()).fastest : undefined;
  const planned = cases.map((c) => (c.fixedTimeSeconds ?? timePerCase) * 1.15);
  const progress = new Progress(options, planned);
  try {
    for (let i = 0; i < cases.length; i++) {
      // A macrotask turn between cases: timing loops are synchronous, and without it
      // a SIGINT handler (the CLI's AbortController) never runs until the whole run ends.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) {
        run.interrupted = true;
        break;
      }
      progress.caseStarting(i, cases[i]!.id);
      const result = await runCase(cases[i]!, timePerCase, slices, reference, sliceProbe);
      if (probe && probedBefore !== undefined) {
        const probedAfter = (await probe.slice()).fastest;
        if (result.status === 'ok') result.stateProbe = roundSamples([probedBefore, probedAfter]);
        probedBefore = probedAfter;
      }
      progress.caseDone(i);
      run.cases.push(result);
      env.loadAvgEnd = os.loadavg();
      options.onCase?.(result, { ...run, cases: [...run.cases] });
    }
  } finally {
    progress.finish();
  }
  if (options.signal?.aborted && run.cases.length < cases.length) run.interrupted = true;
  return run;
}
