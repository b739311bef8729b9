// The parent's handle on one measuring worker (worker.ts): starts it with the
// composition's node binary, waits until the cases are built, and turns the
// IPC messages into promises. A worker that cannot load its mix is a MixError
// that says which layer and why, so the caller can report that mix and go on.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageNameOf, type CodeLayerName } from '../side-spec.js';
import {
  LAYER_DIRS_ENV,
  RESOLUTION_LOG_ENV,
  type HostedVariant,
  type Measurement,
  type ReadyVariant,
  type ParentMessage,
  type WorkerCase,
  type WorkerEnv,
  type WorkerMessage,
} from './protocol.js';

/** A composition that cannot run (a layer does not load, the suites fail to build, the worker died). */
export class MixError extends Error {
  override name = 'MixError';
  constructor(
    message: string,
    readonly layer?: string,
  ) {
    super(message);
  }
}

/** The built worker script: beside this module in dist/, or in dist/ when running from src (tests). */
export function workerScript(): string {
  const beside = fileURLToPath(new URL('./main.js', import.meta.url));
  if (existsSync(beside)) return beside;
  const dist = fileURLToPath(new URL('../../../dist/bisect/worker/main.js', import.meta.url));
  if (existsSync(dist)) return dist;
  throw new MixError(`the measuring worker is not built (${dist} missing): run \`npx tsc -b\` in apps/cli`);
}

/**
 * Whether a runtime lacks module.register (added in Node 20.6 and 18.19), so the
 * worker's resolution hook must be given as --experimental-loader instead.
 */
export function needsLoaderFlag(nodeVersion: string): boolean {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  if (major >= 21) return false;
  if (major === 20) return minor < 6;
  if (major === 18) return minor < 19;
  return true;
}

export interface WorkerOptions {
  nodePath: string;
  /** `process.version` of that binary: decides how the resolution hook is installed. */
  nodeVersion: string;
  dirs: Record<CodeLayerName, string>;
  suites: string[];
  filter?: string;
  /** Leave out the peer libraries' cases. */
  skipPeers?: boolean;
  /** Seconds each case runs once at start-up, unmeasured (see the protocol). */
  warmupSeconds?: number;
  /** Cases of these layers are left out (a swap variant's cases that do not run the layer it swaps). */
  skipCaseLayers?: string[];
  /** Extra environment for the child (e.g. a forced dispatch). */
  env?: NodeJS.ProcessEnv;
}

type Pending = { resolve: (m: WorkerMessage) => void; reject: (e: Error) => void };

/** What bisect measures through: one variant in a worker process (a worker of its own, or one of a paired worker's). */
export interface VariantWorker {
  readonly cases: WorkerCase[];
  /** The selected cases this variant left out (its skipCaseLayers). */
  readonly skipped: { id: string; layer: string }[];
  readonly suiteErrors: { suite: string; message: string }[];
  /** The process id (shared by every variant of a paired worker). */
  readonly pid: number | undefined;
  measure(id: string, seconds: number): Promise<Measurement>;
  env(): Promise<WorkerEnv & { error?: string }>;
  close(): Promise<void>;
}

/** One variant of a paired worker: the variant's tag on every request; the process is shared. */
class HostedVariantView implements VariantWorker {
  constructor(
    private readonly worker: CompositionWorker,
    private readonly tag: string,
    readonly cases: WorkerCase[],
    readonly suiteErrors: { suite: string; message: string }[],
    readonly skipped: { id: string; layer: string }[],
  ) {}
  get pid(): number | undefined {
    return this.worker.pid;
  }
  measure(id: string, seconds: number): Promise<Measurement> {
    return this.worker.measureVariant(this.tag, id, seconds);
  }
  env(): Promise<WorkerEnv & { error?: string }> {
    return this.worker.envOf(this.tag);
  }
  close(): Promise<void> {
    return this.worker.close();
  }
}

/** Per variant of a paired worker: its view, or why that variant cannot run (the others still can). */
export type PairedVariant = { tag: string; view: VariantWorker } | { tag: string; problem: MixError };

export class CompositionWorker implements VariantWorker {
  cases: WorkerCase[] = [];
  skipped: { id: string; layer: string }[] = [];
  suiteErrors: { suite: string; message: string }[] = [];
  /** Per hosted variant, from the worker's ready message. */
  private hosted: ReadyVariant[] = [];
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private stderr = '';
  private exited: Error | undefined;

  private constructor(private readonly child: ChildProcess) {}

  /** A worker of one composition (untagged: its modules load as usual). */
  static async start(options: WorkerOptions): Promise<CompositionWorker> {
    const only: HostedVariant = { tag: '', dirs: options.dirs };
    if (options.skipCaseLayers?.length) only.skipCaseLayers = options.skipCaseLayers;
    const worker = await CompositionWorker.launch(options, [only]);
    const hosted = worker.hosted[0];
    if (hosted?.ok) {
      worker.cases = hosted.cases;
      worker.suiteErrors = hosted.suiteErrors;
      worker.skipped = hosted.skipped ?? [];
    }
    return worker;
  }

  /**
   * A paired worker: one process hosting every composition of `variants`
   * (distinct non-empty tags; one runtime, `options.nodePath`), each in a
   * module graph of its own. Throws a MixError only when none can run.
   */
  static async startPaired(
    options: Omit<WorkerOptions, 'dirs'>,
    variants: HostedVariant[],
  ): Promise<{ worker: CompositionWorker; variants: PairedVariant[] }> {
    if (
      variants.length < 2 ||
      variants.some((v) => v.tag === '') ||
      new Set(variants.map((v) => v.tag)).size !== variants.length
    ) {
      throw new RangeError('a paired worker hosts two or more variants with distinct non-empty tags');
    }
    const worker = await CompositionWorker.launch(options, variants);
    return {
      worker,
      variants: worker.hosted.map((h) =>
        h.ok
          ? { tag: h.tag, view: new HostedVariantView(worker, h.tag, h.cases, h.suiteErrors, h.skipped ?? []) }
          : { tag: h.tag, problem: new MixError(h.message, h.layer) },
      ),
    };
  }

  private static async launch(
    options: Omit<WorkerOptions, 'dirs'>,
    variants: HostedVariant[],
  ): Promise<CompositionWorker> {
    const script = workerScript();
    // The resolution hook's log lives here until the worker exits.
    const scratch = mkdtempSync(join(tmpdir(), 'layerbench-worker-'));
    const layerDirs: Record<string, Record<string, string>> = {};
    for (const { tag, dirs } of variants) {
      const own: Record<string, string> = {};
      for (const [layer, dir] of Object.entries(dirs)) own[packageNameOf(layer as CodeLayerName)] = dir;
      layerDirs[tag] = own;
    }
    const hooks = new URL('./one-copy-hooks.js', pathToFileURL(script)).href;
    const child = fork(script, [], {
      execPath: options.nodePath,
      // Not the parent's flags (a test runner's, --inspect): only the hook, where register() is missing.
      execArgv: needsLoaderFlag(options.nodeVersion) ? ['--experimental-loader', hooks] : [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      env: {
        ...process.env,
        ...options.env,
        [LAYER_DIRS_ENV]: JSON.stringify(layerDirs),
        [RESOLUTION_LOG_ENV]: join(scratch, 'resolved.log'),
      },
    });
    const worker = new CompositionWorker(child);
    child.stderr?.on('data', (chunk: Buffer) => {
      worker.stderr = (worker.stderr + chunk.toString('utf8')).slice(-4000);
    });
    const ready = new Promise<WorkerMessage>((resolve, reject) => worker.pending.set(0, { resolve, reject }));
    child.on('message', (message: WorkerMessage) => worker.receive(message));
    child.on('exit', (code, signal) => {
      rmSync(scratch, { recursive: true, force: true });
      const why = `the worker (${options.nodePath}) exited with ${signal ?? `code ${code}`}`;
      worker.exited = new MixError(
        worker.stderr.trim() ? `${why}: ${worker.stderr.trim().split('\n').slice(-5).join(' | ')}` : why,
      );
      for (const p of worker.pending.values()) p.reject(worker.exited);
      worker.pending.clear();
    });
    child.on('error', (err) => {
      rmSync(scratch, { recursive: true, force: true });
      worker.exited = new MixError(`cannot start the worker with ${options.nodePath}: ${err.message}`);
      for (const p of worker.pending.values()) p.reject(worker.exited);
      worker.pending.clear();
    });
    const init: ParentMessage = { type: 'init', variants, suites: options.suites };
    if (options.filter !== undefined) init.filter = options.filter;
    if (options.skipPeers) init.skipPeers = true;
    if (options.warmupSeconds !== undefined) init.warmupSeconds = options.warmupSeconds;
    child.send(init);
    let first: WorkerMessage;
    try {
      first = await ready;
    } catch (err) {
      worker.kill();
      throw err;
    }
    if (first.type === 'failed') {
      worker.kill();
      throw new MixError(first.message, first.layer);
    }
    if (first.type !== 'ready') {
      worker.kill();
      throw new MixError(`the worker answered '${first.type}' before it was ready`);
    }
    worker.hosted = first.variants;
    return worker;
  }

  private receive(message: WorkerMessage): void {
    const key = message.type === 'ready' || message.type === 'failed' ? 0 : message.seq;
    const pending = this.pending.get(key);
    if (!pending) return;
    this.pending.delete(key);
    pending.resolve(message);
  }

  private request(message: ParentMessage & { seq: number }): Promise<WorkerMessage> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.pending.set(message.seq, { resolve, reject });
      this.child.send(message);
    });
  }

  measure(id: string, seconds: number): Promise<Measurement> {
    return this.measureVariant('', id, seconds);
  }

  env(): Promise<WorkerEnv & { error?: string }> {
    return this.envOf('');
  }

  /** One visit of variant `tag`'s case ('' : the worker's only variant). */
  async measureVariant(tag: string, id: string, seconds: number): Promise<Measurement> {
    const reply = await this.request({ type: 'measure', seq: ++this.seq, variant: tag, id, seconds });
    if (reply.type !== 'measured') throw new MixError(`the worker answered '${reply.type}' to a measure request`);
    return reply.result;
  }

  /** What variant `tag`'s runtime and layers report ('' : the worker's only variant). */
  async envOf(tag: string): Promise<WorkerEnv & { error?: string }> {
    const reply = await this.request({ type: 'env', seq: ++this.seq, variant: tag });
    if (reply.type !== 'env') throw new MixError(`the worker answered '${reply.type}' to an env request`);
    return reply.error === undefined ? reply.env : { ...reply.env, error: reply.error };
  }

  /** The worker's process id (undefined if it never started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Asks the worker to exit, and kills it if it has not within a second. */
  close(): Promise<void> {
    // Once: the variants of a paired worker share it, and each may ask.
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private closing: Promise<void> | undefined;

  private async closeOnce(): Promise<void> {
    if (this.exited || this.child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    try {
      this.child.send({ type: 'exit' } satisfies ParentMessage);
    } catch {
      // Already disconnected.
    }
    const timer = setTimeout(() => this.kill(), 1000);
    await gone;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
