// `layerbench find --paired`: each step's commits measured side by side in the
// same worker processes. Every process hosts every commit of the step (the good
// one, the bad one, and the midpoint or the A/A control), each in a module
// graph of its own (bisect --paired's worker), so a process's offset and the
// machine's state of the moment land on every commit alike; the paired process
// model (bench-runner /stats) compares them within processes. This is the form
// of find for changes of a few percent: unpaired, a commit's processes differ
// from another commit's by 5-15% on this machine, more than such a change.
import { pairedProcessModel, type ProcessModel } from '@layerbench/bench-runner/stats';
import type { LayerResolver } from '../bisect/side-sources.js';
import { CODE_LAYERS, type CodeLayerName } from '../bisect/side-spec.js';
import { shuffle, visitValue, WARMUP_SECONDS } from '../bisect/run.js';
import { CompositionWorker, type VariantWorker } from '../bisect/worker/client.js';
import type { WorkerCase } from '../bisect/worker/protocol.js';
import { pinAll, type CpuPlan } from '../cpu.js';

export interface PairedStepOptions {
  resolver: LayerResolver;
  suites: string[];
  filter: string;
  /** Worker processes per batch; each hosts every commit of the step. */
  processes: number;
  rounds: number;
  /** Seconds measured per commit per batch, over its processes and rounds. */
  time: number;
  percentile: number;
  cpu: CpuPlan;
  signal?: AbortSignal | undefined;
  random?: () => number;
}

/** A commit of the step that cannot be built, loaded or measured; `tag` says which (undefined: none could load). */
export class StepCommitError extends Error {
  override name = 'StepCommitError';
  constructor(
    readonly tag: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Ctrl-C during a step: find stops between visits. */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

/**
 * One step of a paired find: batches of worker processes, each process hosting
 * every commit of `commits` (tag -> commit), and per tag, per process, the
 * value of each visit (NaN for a visit without samples, so that visit r of
 * every commit of a process stays round r).
 */
export class PairedStep {
  private readonly processes: CompositionWorker[] = [];
  private readonly views: Map<string, VariantWorker>[] = [];
  readonly values: Record<string, number[][]>;

  private constructor(
    private readonly options: PairedStepOptions,
    private readonly commits: Record<string, string>,
    private readonly dirs: Record<string, Record<CodeLayerName, string>>,
  ) {
    this.values = Object.fromEntries(Object.keys(commits).map((tag) => [tag, []]));
  }

  /** Builds every commit's stack (cached worktrees) and starts the first batch. */
  static async start(options: PairedStepOptions, commits: Record<string, string>): Promise<PairedStep> {
    const dirs: Record<string, Record<CodeLayerName, string>> = {};
    for (const [tag, commit] of Object.entries(commits)) {
      const own = {} as Record<CodeLayerName, string>;
      try {
        for (const name of CODE_LAYERS)
          own[name] = options.resolver.resolveLayer(name, { kind: 'git', ref: commit }).dir;
      } catch (err) {
        throw new StepCommitError(tag, (err as Error).message);
      }
      dirs[tag] = own;
    }
    const step = new PairedStep(options, commits, dirs);
    try {
      await step.startBatch();
    } catch (err) {
      await step.close();
      throw err;
    }
    return step;
  }

  /** The cases the commit of `tag` built (in the first process). */
  casesOf(tag: string): WorkerCase[] {
    return this.views[0]?.get(tag)?.cases ?? [];
  }

  /**
   * Starts `processes` more worker processes, one after the other (processes
   * started together share their start-up conditions, see bisect/run.ts), each
   * loading the commits in a shuffled order, then pins them all.
   */
  private async startBatch(): Promise<number> {
    const { options } = this;
    const random = options.random ?? Math.random;
    const first = this.processes.length;
    for (let p = 0; p < options.processes; p++) {
      // Starting a batch takes seconds: Ctrl-C is heard between its processes too.
      if (options.signal?.aborted) throw new Interrupted();
      const order = shuffle(Object.keys(this.commits), random);
      let started: Awaited<ReturnType<typeof CompositionWorker.startPaired>>;
      try {
        started = await CompositionWorker.startPaired(
          {
            nodePath: process.execPath,
            nodeVersion: process.version,
            suites: options.suites,
            filter: options.filter,
            warmupSeconds: WARMUP_SECONDS,
          },
          order.map((tag) => ({ tag, dirs: this.dirs[tag]! })),
        );
      } catch (err) {
        // No commit of the step could load in this process.
        throw new StepCommitError(undefined, (err as Error).message);
      }
      this.processes.push(started.worker);
      const views = new Map<string, VariantWorker>();
      for (const v of started.variants) {
        if ('problem' in v) throw new StepCommitError(v.tag, v.problem.message);
        views.set(v.tag, v.view);
      }
      this.views.push(views);
      for (const tag of Object.keys(this.commits)) this.values[tag]!.push([]);
    }
    pinAll(
      this.processes.map((w) => w.pid),
      options.cpu,
    );
    return first;
  }

  /**
   * Measures the case in every process from `from` on, in `rounds` rounds: each
   * round visits the processes in a shuffled order, and one process's commits
   * one after the other (shuffled among themselves).
   */
  async measure(caseId: string, from = 0): Promise<void> {
    const { options } = this;
    const random = options.random ?? Math.random;
    const tags = Object.keys(this.commits);
    const visitSeconds = options.time / (options.rounds * options.processes);
    const indices = Array.from({ length: this.processes.length - from }, (_, i) => from + i);
    for (let round = 0; round < options.rounds; round++) {
      for (const p of shuffle(indices, random)) {
        for (const tag of shuffle(tags, random)) {
          if (options.signal?.aborted) throw new Interrupted();
          let m: Awaited<ReturnType<VariantWorker['measure']>>;
          try {
            m = await this.views[p]!.get(tag)!.measure(caseId, visitSeconds);
          } catch (err) {
            throw new StepCommitError(tag, (err as Error).message);
          }
          if (m.status !== 'ok')
            throw new StepCommitError(tag, m.error ? `${m.error.name}: ${m.error.message}` : 'the case failed');
          this.values[tag]![p]!.push(m.samples.length ? visitValue(m.samples, options.percentile) : Number.NaN);
        }
      }
    }
  }

  /** Another batch of processes, measured: for a step whose answer was not clear. */
  async extend(caseId: string): Promise<void> {
    const first = await this.startBatch();
    await this.measure(caseId, first);
  }

  /** The paired process model over every process so far. */
  model(threshold: number, alpha: number): ProcessModel {
    try {
      return pairedProcessModel(this.values, { threshold, alpha });
    } catch (err) {
      // Too few visits with samples (a --time too short for the case): about the step, not one commit.
      if (err instanceof RangeError)
        throw new StepCommitError(undefined, `too little measured (more --time): ${err.message}`);
      throw err;
    }
  }

  get processCount(): number {
    return this.processes.length;
  }

  close(): Promise<void> {
    return Promise.all(this.processes.map((w) => w.close())).then(() => undefined);
  }
}
