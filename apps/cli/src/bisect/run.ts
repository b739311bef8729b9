// Layer bisection, the measuring part, in its phases:
//
//   plan     the variants: all good, all bad, the A/A control (the good stack
//            in processes of its own), and for each differing layer the good
//            stack with it from bad ("swap in") and the bad stack with it from
//            good ("swap out") — variants.ts;
//   start    several worker processes per variant (worker/), each loading its
//            variant's layers, one copy each, started in waves (one process of
//            every variant per wave);
//   measure  a discarded warm-up round, then rounds that visit every process
//            of every variant, for every case, in a freshly shuffled order, so
//            drift over time lands on every variant alike; one value per visit;
//   analyse  per case: the process model (bench-runner: processes are the
//            replicates), the total, the A/A control and each layer's swaps,
//            and the attribution (attribution.ts);
//   report   the stack changes (versions, runtime, capability word, dispatch
//            decisions) with the layer whose swap shows each, the summary, and
//            whether the bisect finished.
//
// One record per case (CaseRecord) carries everything measured about it.
import { availableParallelism, loadavg } from 'node:os';
import { layerFingerprint } from '@layerbench/bench-runner';
import {
  median,
  pairedProcessModel,
  percentile,
  processModel,
  type ProcessModel,
  type SampleComparison,
} from '@layerbench/bench-runner/stats';
import {
  attributeCase,
  CONTROL_ID,
  inOverOutWeights,
  mainEffectWeights,
  swapInId,
  type CaseComparisons,
  type Effect,
} from './attribution.js';
import type { BisectCase, BisectResult, BisectVariant } from '@layerbench/bench-runner/results';
import type { ResolvedComposition } from './side-sources.js';
import type { LayerName } from './side-spec.js';
import {
  caseLayersSkipped,
  caseRunsLayer,
  differingLayers,
  dirsFor,
  identicalCaseLayers,
  planVariants,
  stackChanges,
  variantRunsCase,
  type SideIdentity,
  type VariantPlan,
} from './variants.js';
import { cpuFields, describeCpuPlan, pinAll, type CpuPlan } from '../cpu.js';
import { CompositionWorker, MixError, type VariantWorker } from './worker/client.js';
import type { Measurement, WorkerCase, WorkerEnv } from './worker/protocol.js';

export interface BisectInputs {
  good: ResolvedComposition;
  bad: ResolvedComposition;
  goodId: SideIdentity;
  badId: SideIdentity;
  layers: LayerName[];
  suites: string[];
  filter?: string;
  /** Measure the peer libraries' cases too (they run on no layer but the runtime and the engine). */
  peers: boolean;
  /** Seconds measured per case per variant, over all its processes and rounds. */
  timePerCase: number;
  rounds: number;
  /** Worker processes per variant; every round visits each of them. */
  processes: number;
  /**
   * Paired: each worker process hosts every variant (one runtime on both
   * sides), each in a module graph of its own, and comparisons are made within
   * processes (pairedProcessModel): a process's offset lands on every variant.
   */
  paired?: boolean;
  /** Percentile (0..100) of a visit's samples that stands for the visit. */
  visitPercentile: number;
  threshold: number;
  alpha: number;
  machine: BisectResult['machine'];
  /** The CPU every worker is pinned to once started (cpu.ts), or why none is. */
  cpu: CpuPlan;
  random?: () => number;
  signal?: AbortSignal;
  /** Paired: worker processes that load and warm up at once (default: one per CPU). */
  startTogether?: number;
  /** Per case and round (a terminal's progress line). */
  progress?: (message: string) => void;
  /** Once per round (a CI log's progress). */
  onRound?: (round: number, rounds: number) => void;
  /** After each wave of worker starts: how many of the `processes` are loaded and warmed up (a CI log's progress). */
  onStarted?: (started: number, processes: number) => void;
}

/**
 * Seconds each worker runs each of its cases once at start-up, unmeasured: a
 * fresh process's JIT tiers the code up over its first calls. The workers do
 * it in parallel while they start, instead of a discarded round of visits.
 */
export const WARMUP_SECONDS = 0.05;

/** Default of --percentile: the value each visit contributes. */
export const DEFAULT_VISIT_PERCENTILE = 10;

/**
 * The one value a visit contributes: a low percentile of its samples (default
 * the 10th). Why one value: the batch size adapts to the machine's state,
 * so a slice yields from a few hundred to a few hundred thousand samples;
 * pooled raw, one quiet or busy slice would outweigh all the others and the
 * drift the rounds are there to cancel would come back. Why a low percentile:
 * on a shared machine the median of a slice mostly measures how often the
 * process was preempted (an A/A check here: 38% interquartile spread of visit
 * medians against 2% for the 10th percentile); the lower tail is what the code
 * costs. Costs that only show in the upper tail (GC pauses) need --percentile 50.
 */
export function visitValue(samples: readonly number[], p: number): number {
  return percentile(samples, p);
}

/**
 * Separate processes (`--separate`, two runtimes, find's separate steps): each
 * visit value taken relative to the state of its round. A round's visits
 * follow each other (about a second at the defaults), and this VM's CPU sits
 * in a fast state or one about x1.6-1.8 slower for a few seconds at a time
 * (node:crypto CMAC 4.7 or 8.2 µs a visit), so a few neighbouring rounds can
 * be slow for every variant at once; a process's median over its rounds then
 * lands in either state and its variant looks spread or shifted. The state
 * of round r is the mean log value of every visit of the case in it, over all
 * the variants and processes (each visited once a round, so every variant
 * carries the same share of it); each value is divided by its round's state
 * over the mean state of the rounds, which keeps the figures at the run's own
 * level. A round that did not visit every variant (the last one of an
 * interrupted bisect) is left out: its state would be that of some variants
 * only; with no complete round at all (interrupted in the first) the values
 * stay as measured. NaN (a visit without samples) stays NaN. Measured 2026-12-06
 * (BISECT.md, "Separate processes"): the runtime bisect of
 * `cmac/aes-128/pl=48/native/node:crypto`, process spread at 12 rounds up to
 * 9.5% by the median of raw visits, up to 1.8% relative to the rounds.
 */
export function relativeToRounds(
  values: Readonly<Record<string, readonly (readonly number[])[]>>,
): Record<string, number[][]> {
  const variants = Object.values(values);
  const rounds = Math.max(0, ...variants.flatMap((processes) => processes.map((visits) => visits.length)));
  const state: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    let n = 0;
    let everyVariant = true;
    for (const processes of variants) {
      let visited = false;
      for (const visits of processes) {
        const x = visits[r];
        if (x === undefined) continue;
        visited = true;
        if (Number.isFinite(x) && x > 0) {
          sum += Math.log(x);
          n++;
        }
      }
      everyVariant &&= visited;
    }
    state.push(everyVariant && n > 0 ? sum / n : Number.NaN);
  }
  const kept = state.filter((s) => !Number.isNaN(s));
  // Interrupted in its first round: no round to take a state from, so the visits stay as measured (each variant
  // visited so far keeps its value, as before rounds were taken into account) rather than none.
  if (kept.length === 0)
    return Object.fromEntries(
      Object.entries(values).map(([variant, processes]) => [variant, processes.map((visits) => [...visits])]),
    );
  const level = kept.reduce((a, b) => a + b, 0) / kept.length;
  return Object.fromEntries(
    Object.entries(values).map(([variant, processes]) => [
      variant,
      processes.map((visits) =>
        visits.flatMap((x, r) => (Number.isNaN(state[r]!) ? [] : [x * Math.exp(level - state[r]!)])),
      ),
    ]),
  );
}

/** Each process's visit values without the NaN of visits that had no samples; processes left with none, left out. */
export function visitsWithValues(processes: readonly (readonly number[])[]): number[][] {
  return processes.map((visits) => visits.filter((x) => !Number.isNaN(x))).filter((visits) => visits.length > 0);
}

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface VariantRun {
  plan: VariantPlan;
  /** The variant's worker processes (empty when the mix cannot run); paired, process p is shared by every variant. */
  workers: VariantWorker[];
  problem?: string;
  /** The cases its first worker built. */
  cases: Map<string, WorkerCase>;
}

/** Everything measured about one case. */
interface CaseRecord {
  meta: WorkerCase;
  /** Per variant: per process, the value of each visit. */
  values: Map<string, number[][]>;
  /** Why a variant has no values for this case (cannot run the mix, no such case, the case failed there). */
  problems: Map<string, string>;
  implementations: Map<string, string>;
  digests: Map<string, string>;
}

/**
 * Phase start: the worker processes of every variant, in waves: wave p starts
 * process p of every variant at once (in a shuffled order) and waits until
 * they are all ready, then wave p + 1. A worker's JIT state depends on the
 * conditions while it loads and warms up, and the processes of one variant
 * started together shared them: in the scenario suite (load 13-20) all three
 * `good` processes of a harmless-only bisect ran cmac's table CMAC 2x slower
 * than every other variant's, and a harmless aes-core change read "regressed"
 * x3.1. In waves, each variant's processes come from different start
 * conditions, and each wave's conditions are shared by every variant alike.
 */
async function startVariants(
  inputs: BisectInputs,
  plans: VariantPlan[],
  skip: (plan: VariantPlan) => string[],
): Promise<VariantRun[]> {
  if (inputs.paired) return startPairedVariants(inputs, plans, skip);
  const progress = inputs.progress ?? (() => undefined);
  const random = inputs.random ?? Math.random;
  const optionsOf = (plan: VariantPlan) => {
    const runtime = plan.take.runtime === 'good' ? inputs.good.runtime : inputs.bad.runtime;
    return {
      nodePath: runtime.nodePath,
      nodeVersion: runtime.version,
      dirs: dirsFor(plan, inputs.good, inputs.bad),
      suites: inputs.suites,
      ...(inputs.filter === undefined ? {} : { filter: inputs.filter }),
      skipPeers: !inputs.peers,
      warmupSeconds: WARMUP_SECONDS,
      skipCaseLayers: skip(plan),
    };
  };
  const workers = new Map<string, VariantWorker[]>(plans.map((p) => [p.id, []]));
  const problems = new Map<string, string>();
  for (let wave = 0; wave < inputs.processes; wave++) {
    const starting = shuffle(
      plans.filter((p) => !problems.has(p.id)),
      random,
    );
    const started = await Promise.allSettled(starting.map((plan) => CompositionWorker.start(optionsOf(plan))));
    inputs.onStarted?.(wave + 1, inputs.processes);
    started.forEach((s, i) => {
      const plan = starting[i]!;
      if (s.status === 'fulfilled') workers.get(plan.id)!.push(s.value);
      else {
        const e = s.reason as Error;
        const problem = s.reason instanceof MixError ? e.message : `${e.name}: ${e.message}`;
        progress(`${plan.id}: cannot run this mix: ${problem}`);
        problems.set(plan.id, problem);
      }
    });
  }
  return variantRuns(plans, workers, problems, false);
}

/** The runs of every plan: its workers, or (a plan that failed anywhere) none and the reason. */
async function variantRuns(
  plans: VariantPlan[],
  workers: Map<string, VariantWorker[]>,
  problems: Map<string, string>,
  shared: boolean,
): Promise<VariantRun[]> {
  const runs: VariantRun[] = [];
  for (const plan of plans) {
    const own = workers.get(plan.id)!;
    const problem = problems.get(plan.id);
    if (problem !== undefined) {
      // Paired, closing a variant's view closes the shared process: the others keep it until the end.
      if (!shared) await Promise.all(own.map((w) => w.close()));
      runs.push({ plan, workers: [], problem, cases: new Map() });
    } else runs.push({ plan, workers: own, cases: new Map(own[0]!.cases.map((c) => [c.id, c])) });
  }
  return runs;
}

/**
 * Phase start, paired: `processes` worker processes, each hosting every
 * variant (one runtime: the sides' runtimes are the same, which the command
 * checks), so each process's start conditions are shared by every variant
 * alike. A variant that cannot run in some process is left out of all. Up to
 * `startTogether` processes load and warm up at once (one per CPU: a process's
 * warm-up is one thread, and its variants share whatever the others do to
 * it); the visits come later, pinned to one CPU. Measured on 2 CPUs: 13 cmac
 * cases x 7 variants, 22 s per process, one after the other 133 s.
 */
async function startPairedVariants(
  inputs: BisectInputs,
  plans: VariantPlan[],
  skip: (plan: VariantPlan) => string[],
): Promise<VariantRun[]> {
  const progress = inputs.progress ?? (() => undefined);
  const workers = new Map<string, VariantWorker[]>(plans.map((p) => [p.id, []]));
  const problems = new Map<string, string>();
  const processes: CompositionWorker[] = [];
  const random = inputs.random ?? Math.random;
  const tags = new Map(plans.map((plan, i) => [plan.id, `v${i}`]));
  const byTag = new Map(plans.map((plan) => [tags.get(plan.id)!, plan]));
  const startOne = () => {
    // Loaded (and warmed) in a shuffled order in each process: a copy's place in the process then varies
    // from process to process instead of favouring one variant in all of them.
    const order = shuffle(plans, random);
    return CompositionWorker.startPaired(
      {
        nodePath: inputs.good.runtime.nodePath,
        nodeVersion: inputs.good.runtime.version,
        suites: inputs.suites,
        ...(inputs.filter === undefined ? {} : { filter: inputs.filter }),
        skipPeers: !inputs.peers,
        warmupSeconds: WARMUP_SECONDS,
      },
      order.map((plan) => ({
        tag: tags.get(plan.id)!,
        dirs: dirsFor(plan, inputs.good, inputs.bad),
        skipCaseLayers: skip(plan),
      })),
    );
  };
  const together = inputs.startTogether ?? startTogetherDefault();
  const outcomes = await startInWaves(inputs.processes, together, startOne, (started) =>
    inputs.onStarted?.(started, inputs.processes),
  );
  for (const [p, outcome] of outcomes.entries()) {
    if (outcome.status === 'rejected') {
      const e = outcome.reason as Error;
      const problem = outcome.reason instanceof MixError ? e.message : `${e.name}: ${e.message}`;
      progress(`paired worker ${p + 1}: cannot run any mix: ${problem}`);
      for (const plan of plans) if (!problems.has(plan.id)) problems.set(plan.id, problem);
      continue;
    }
    const started = outcome.value;
    processes.push(started.worker);
    for (const v of started.variants) {
      const plan = byTag.get(v.tag)!;
      if ('view' in v) workers.get(plan.id)!.push(v.view);
      else if (!problems.has(plan.id)) {
        progress(`${plan.id}: cannot run this mix: ${v.problem.message}`);
        problems.set(plan.id, v.problem.message);
      }
    }
  }
  const runs = await variantRuns(plans, workers, problems, true);
  // A process none of whose variants is left to measure (each failed in some process) is closed now.
  const used = new Set(runs.flatMap((r) => r.workers.map((w) => w.pid)));
  await Promise.all(processes.filter((w) => !used.has(w.pid)).map((w) => w.close()));
  return runs;
}

/**
 * The case layers each variant leaves out: `identical` (code identical on
 * both sides: every variant), and those that do not run the layer a swap
 * variant swaps.
 */
function skipsOf(identical: readonly string[]): (plan: VariantPlan) => string[] {
  return (plan) => [...new Set([...identical, ...caseLayersSkipped(plan)])];
}

/** The selected cases of the `identical` case layers, which no variant measured (as a good worker left them out). */
function identicalCases(identical: readonly string[], runs: VariantRun[]): string[] {
  const good = runs.find((r) => r.plan.id === 'good')?.workers[0];
  return (good?.skipped ?? []).filter((c) => identical.includes(c.layer)).map((c) => c.id);
}

/** Paired worker processes started at once: one per CPU this process may use. */
export function startTogetherDefault(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Runs start(0) .. start(count - 1) in waves of up to `together` at once,
 * each wave after the previous one has settled (then `onWave` with how many
 * have settled so far); the outcomes in index order.
 */
export async function startInWaves<T>(
  count: number,
  together: number,
  start: (index: number) => Promise<T>,
  onWave?: (settled: number) => void,
): Promise<PromiseSettledResult<T>[]> {
  const size = Math.max(1, Math.floor(together));
  const outcomes: PromiseSettledResult<T>[] = [];
  for (let first = 0; first < count; first += size) {
    const wave = Array.from({ length: Math.min(size, count - first) }, (_, i) => first + i);
    outcomes.push(...(await Promise.allSettled(wave.map((index) => start(index)))));
    onWave?.(outcomes.length);
  }
  return outcomes;
}

/** The cases to measure, in the order the good and bad stacks list them, each with its record. */
function caseRecords(runs: VariantRun[]): CaseRecord[] {
  const byId = new Map(runs.map((r) => [r.plan.id, r]));
  const records: CaseRecord[] = [];
  const seen = new Set<string>();
  for (const r of [byId.get('good')!, byId.get('bad')!, ...runs]) {
    for (const c of r.cases.values()) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      const record: CaseRecord = {
        meta: c,
        values: new Map(),
        problems: new Map(),
        implementations: new Map(),
        digests: new Map(),
      };
      for (const v of runs) {
        // A swap of a layer this case does not run: not measured, not a problem (analyseCase leaves the layer out).
        if (!variantRunsCase(v.plan, c.layer)) continue;
        if (v.workers.length === 0) record.problems.set(v.plan.id, `this mix cannot run: ${v.problem}`);
        else if (!v.cases.has(c.id)) {
          const failed = v.workers[0]!.suiteErrors.map((e) => `${e.suite}: ${e.message}`).join('; ');
          record.problems.set(
            v.plan.id,
            `this mix has no such case${failed ? ` (suites that fail to build their cases here: ${failed})` : ''}`,
          );
        } else
          record.values.set(
            v.plan.id,
            v.workers.map(() => []),
          );
      }
      records.push(record);
    }
  }
  return records;
}

/**
 * Records one visit; a failed visit ends that variant's part in the case. A visit without samples is
 * recorded as NaN, so that visit r of every process stays round r (paired and relativeToRounds need it).
 */
function recordVisit(record: CaseRecord, variant: string, process: number, m: Measurement, percentileP: number): void {
  if (m.status !== 'ok' || m.digestOk === false) {
    record.problems.set(
      variant,
      m.error
        ? `${m.error.name}: ${m.error.message}`
        : `output digest ${m.digest ?? '?'} does not match the expected one`,
    );
    record.values.delete(variant);
    return;
  }
  if (m.samples.length === 0) {
    record.values.get(variant)?.[process]?.push(Number.NaN);
    return;
  }
  record.values.get(variant)?.[process]?.push(visitValue(m.samples, percentileP));
  if (m.implementation !== undefined) record.implementations.set(variant, m.implementation);
  if (m.digest !== undefined) record.digests.set(variant, m.digest);
}

interface MeasureOutcome {
  roundsDone: number;
  interrupted: boolean;
}

/**
 * Phase measure: `rounds` rounds; each visits every process of every variant
 * that runs the case, in a shuffled order, for timePerCase / (rounds x
 * processes) seconds. Stops between visits when aborted.
 */
async function measureRounds(inputs: BisectInputs, runs: VariantRun[], records: CaseRecord[]): Promise<MeasureOutcome> {
  const progress = inputs.progress ?? (() => undefined);
  const random = inputs.random ?? Math.random;
  const visitSeconds = inputs.timePerCase / (inputs.rounds * inputs.processes);
  for (let round = 1; round <= inputs.rounds; round++) {
    inputs.onRound?.(round, inputs.rounds);
    for (const [index, record] of records.entries()) {
      const id = record.meta.id;
      progress(`round ${round}/${inputs.rounds}, case ${index + 1}/${records.length}: ${id}`);
      const measuring = runs.filter((r) => record.values.has(r.plan.id));
      // Paired: a process's visits to its variants follow each other (shuffled among themselves), so the
      // machine's state of those moments lands on every variant of the process alike.
      const visits = inputs.paired
        ? shuffle(
            Array.from({ length: inputs.processes }, (_, p) => p),
            random,
          ).flatMap((p) =>
            shuffle(
              measuring.filter((r) => r.workers[p] !== undefined).map((r) => [r, p] as const),
              random,
            ),
          )
        : shuffle(
            measuring.flatMap((r) => r.workers.map((_, p) => [r, p] as const)),
            random,
          );
      for (const [run, p] of visits) {
        if (inputs.signal?.aborted) return { roundsDone: round - 1, interrupted: true };
        const variant = run.plan.id;
        if (!record.values.has(variant)) continue; // failed earlier in this round
        let m: Measurement;
        try {
          m = await run.workers[p]!.measure(id, visitSeconds);
        } catch (err) {
          record.problems.set(variant, (err as Error).message);
          record.values.delete(variant);
          continue;
        }
        recordVisit(record, variant, p, m, inputs.visitPercentile);
      }
    }
  }
  return { roundsDone: inputs.rounds, interrupted: false };
}

/** Phase report (part): each variant's environment, from every worker; a one-copy breach fails the variant. */
async function variantReports(
  runs: VariantRun[],
  records: CaseRecord[],
): Promise<{ variants: BisectVariant[]; envs: Record<string, WorkerEnv> }> {
  const envs: Record<string, WorkerEnv> = {};
  const variants: BisectVariant[] = [];
  for (const r of runs) {
    const variant: BisectVariant = {
      id: r.plan.id,
      label: r.plan.label,
      take: r.plan.take,
      status: r.workers.length ? 'ok' : 'failed',
      processes: r.workers.length,
    };
    if (r.problem) variant.problem = r.problem;
    for (const worker of r.workers) {
      let env: WorkerEnv & { error?: string };
      try {
        env = await worker.env();
      } catch (err) {
        variant.problem = `no environment report: ${(err as Error).message}`;
        continue;
      }
      for (const l of env.loadedLayers) {
        const hash = layerFingerprint(l.folder).contentHash;
        if (hash !== undefined) l.contentHash = hash;
      }
      if (!variant.env) {
        envs[r.plan.id] = env;
        variant.env = env;
      }
      if (env.oneCopyProblem !== undefined) {
        // A layer loaded twice while measuring: this variant's numbers are about no stack a user can install.
        variant.status = 'failed';
        variant.problem = `a layer was loaded from two places: ${env.oneCopyProblem}`;
        variant.env = env;
        for (const record of records) {
          record.values.delete(r.plan.id);
          record.problems.set(r.plan.id, variant.problem);
        }
      }
    }
    variants.push(variant);
  }
  return { variants, envs };
}

/** A comparison as the result files keep it (ratio, interval, p-value, verdict). */
export function asEffect(c: SampleComparison): Effect {
  return { ratio: c.ratio, ci: c.ratioCi, pValue: c.pValue, verdict: c.verdict };
}

/** A case's result before anything is known about it (status ok, no comparisons yet). */
export function emptyBisectCase(meta: Pick<WorkerCase, 'id' | 'layer' | 'params'>): BisectCase {
  return {
    id: meta.id,
    layer: meta.layer,
    params: meta.params,
    status: 'ok',
    layers: [],
    attributed: [],
    oneWay: [],
    notes: [],
    medians: {},
    processes: {},
  };
}

/** Phase analyse: one case's statistics and attribution. */
function analyseCase(record: CaseRecord, inputs: BisectInputs, measured: MeasureOutcome): BisectCase {
  const out = emptyBisectCase(record.meta);
  // Only the layers this case runs were swapped for it; the others are named as such.
  const layers = inputs.layers.filter((l) => caseRunsLayer(record.meta.layer, l));
  const notRun = inputs.layers.filter((l) => !layers.includes(l));
  if (notRun.length) out.layersNotRun = notRun;
  if (record.meta.bytesPerOp !== undefined) out.bytesPerOp = record.meta.bytesPerOp;
  const values: Record<string, number[][]> = {};
  // Paired: process p is the same process in every variant, so the model needs the positions kept.
  // Separate: each visit relative to its round's state (relativeToRounds).
  const positional: Record<string, number[][]> = inputs.paired
    ? Object.fromEntries(record.values)
    : relativeToRounds(Object.fromEntries(record.values));
  for (const [variant, perProcess] of Object.entries(positional)) {
    // (NaN: a visit without samples, kept only to align the rounds.)
    const withValues = visitsWithValues(perProcess);
    out.processes[variant] = withValues.length;
    if (withValues.length === 0) continue;
    values[variant] = withValues;
    // Geometric mean over processes of each process's median visit value: what the model compares.
    out.medians[variant] = Math.exp(withValues.reduce((s, v) => s + Math.log(median(v)), 0) / withValues.length);
  }
  const missing = (['good', 'bad'] as const).filter((v) => !values[v]);
  let model: ProcessModel | undefined;
  let modelProblem: string | undefined;
  try {
    const rule = { threshold: inputs.threshold, alpha: inputs.alpha };
    model = inputs.paired ? pairedProcessModel(positional, rule) : processModel(values, rule);
  } catch (err) {
    modelProblem = (err as Error).message;
  }
  if (missing.length) {
    const failed = missing.filter((v) => record.problems.has(v));
    out.status = failed.length ? 'failed' : 'not-measured';
    out.problem = missing
      .map(
        (v) =>
          `the all-${v} stack has no values: ${record.problems.get(v) ?? (measured.interrupted ? 'the bisect stopped before it was measured' : 'not measured')}`,
      )
      .join('; ');
    // No whole to attribute, but each layer swapped into the good stack still says what it does alone.
    if (model && values.good) {
      for (const layer of layers) {
        const c = model.compare('good', swapInId(layer));
        const share: BisectCase['layers'][number] = { layer, reproduced: 'neither', explains: false };
        if (c) share.swapIn = asEffect(c);
        else share.problem = `${swapInId(layer)}: ${record.problems.get(swapInId(layer)) ?? 'not measured'}`;
        out.layers.push(share);
      }
    }
    return out;
  }
  if (!model) {
    out.status = measured.interrupted ? 'not-measured' : 'failed';
    out.problem = modelProblem ?? 'no process model';
    return out;
  }
  out.processSd = model.sd;
  out.df = model.df;
  const effect = (c: SampleComparison | undefined): Effect | undefined => c && asEffect(c);
  const comparisons: CaseComparisons = {
    compare: (base, head) => effect(model.compare(base, head)),
    // (head / base) / (control / good); for a swap in (base = good) the good terms cancel.
    overControl: (base, head) => {
      const weights: Record<string, number> = {};
      for (const [variant, w] of [
        [head, 1],
        [base, -1],
        [CONTROL_ID, -1],
        ['good', 1],
      ] as const)
        weights[variant] = (weights[variant] ?? 0) + w;
      return effect(model.contrast(weights, 0));
    },
    together: (layer) => {
      const main = mainEffectWeights(layer);
      const overControl = { ...main, [CONTROL_ID]: -1, good: (main.good ?? 0) + 1 };
      const e = effect(model.contrast(main));
      const o = effect(model.contrast(overControl, 0));
      const io = effect(model.contrast(inOverOutWeights(layer), 0));
      return e && o && io ? { effect: e, overControl: o, inOverOut: io } : undefined;
    },
  };
  const a = attributeCase(layers, comparisons, Object.fromEntries(record.problems), inputs.threshold)!;
  out.total = a.total;
  if (a.control) out.control = a.control;
  out.layers = a.layers;
  out.attributed = a.attributed;
  out.oneWay = a.oneWay;
  out.notes = a.notes;
  if (model.processesLeftOut?.length) {
    const which = model.processesLeftOut.map((p) => p + 1).join(', ');
    out.notes.push(
      `paired: process${model.processesLeftOut.length === 1 ? '' : 'es'} ${which} of ${inputs.processes} left out: a variant's copy there settled far from its value in the other processes (a stuck JIT outcome, not a change of the code)`,
    );
  }
  const im = Object.fromEntries(record.implementations);
  if (new Set(Object.values(im)).size > 1) out.implementations = im;
  const good = record.digests.get('good');
  const bad = record.digests.get('bad');
  if (good !== undefined && bad !== undefined) out.digestChanged = good !== bad;
  return out;
}

/** The counts of a bisect's cases by verdict, and the cases each layer explains. */
export function summarise(cases: BisectCase[]): BisectResult['summary'] {
  const summary: BisectResult['summary'] = {
    regressed: 0,
    improved: 0,
    unchanged: 0,
    inconclusive: 0,
    failed: 0,
    notMeasured: 0,
    controlMoved: 0,
    attributed: {},
  };
  for (const c of cases) {
    if (c.status === 'failed') summary.failed++;
    else if (c.status === 'not-measured' || !c.total) summary.notMeasured++;
    else summary[c.total.verdict]++;
    if (c.control?.verdict === 'regressed' || c.control?.verdict === 'improved') summary.controlMoved++;
    for (const l of c.attributed) summary.attributed[l] = (summary.attributed[l] ?? 0) + 1;
  }
  return summary;
}

/** Runs the bisection and returns the result file's content. */
export async function runBisect(inputs: BisectInputs): Promise<BisectResult> {
  const loadStart = loadAverage();
  const plans = planVariants(inputs.layers);
  // Every layer that differs counts here, not only the swapped ones (--layers may swap fewer).
  const identical = identicalCaseLayers(differingLayers(inputs.goodId, inputs.badId));
  const runs = await startVariants(inputs, plans, skipsOf(identical));
  try {
    // Pinned once every worker is ready: their warm-ups ran on all CPUs, their visits run on one.
    const cpu = pinAll([...new Set(runs.flatMap((r) => r.workers.map((w) => w.pid)))], inputs.cpu);
    inputs.progress?.(describeCpuPlan(cpu));
    const records = caseRecords(runs);
    const measured = await measureRounds(inputs, runs, records);
    const { variants, envs } = await variantReports(runs, records);
    const cases = records.map((r) => analyseCase(r, inputs, measured));
    const summary = summarise(cases);
    const identicalCode = identicalCases(identical, runs);
    const result: BisectResult = {
      kind: 'layerbench/bisect',
      schemaVersion: 2,
      createdAt: new Date().toISOString(),
      options: {
        suites: inputs.suites,
        ...(inputs.filter === undefined ? {} : { filter: inputs.filter }),
        timePerCase: inputs.timePerCase,
        rounds: inputs.rounds,
        processes: inputs.processes,
        ...(inputs.paired ? { paired: true } : {}),
        visitPercentile: inputs.visitPercentile,
        threshold: inputs.threshold,
        alpha: inputs.alpha,
        peers: inputs.peers,
      },
      machine: { ...inputs.machine, ...cpuFields(cpu) },
      load: { start: loadStart, end: loadAverage() },
      good: { spec: inputs.goodId.spec, layers: Object.values(inputs.goodId.layers) },
      bad: { spec: inputs.badId.spec, layers: Object.values(inputs.badId.layers) },
      layers: inputs.layers,
      changes: stackChanges(inputs.layers, inputs.goodId, inputs.badId, envs),
      variants,
      cases,
      ...(identicalCode.length ? { identicalCode } : {}),
      summary,
      complete: !measured.interrupted && summary.notMeasured === 0,
    };
    if (!result.complete) {
      result.incomplete = {
        reason: measured.interrupted
          ? `interrupted after ${measured.roundsDone} of ${inputs.rounds} rounds`
          : `${summary.notMeasured} case${summary.notMeasured === 1 ? '' : 's'} not measured`,
        interrupted: measured.interrupted,
        roundsDone: measured.roundsDone,
        roundsPlanned: inputs.rounds,
      };
    }
    return result;
  } finally {
    await Promise.all(runs.flatMap((r) => r.workers.map((w) => w.close())));
  }
}

function loadAverage(): number {
  return loadavg()[0] ?? 0;
}
