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
  type Measurement,
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
  /** Extra environment for the child (e.g. a forced dispatch). */
  env?: NodeJS.ProcessEnv;
}

type Pending = { resolve: (m: WorkerMessage) => void; reject: (e: Error) => void };

export class CompositionWorker {
  cases: WorkerCase[] = [];
  suiteErrors: { suite: string; message: string }[] = [];
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private stderr = '';
  private exited: Error | undefined;

  private constructor(private readonly child: ChildProcess) {}

  static async start(options: WorkerOptions): Promise<CompositionWorker> {
    const script = workerScript();
    // The resolution hook's log lives here until the worker exits.
    const scratch = mkdtempSync(join(tmpdir(), 'layerbench-worker-'));
    const layerDirs: Record<string, string> = {};
    for (const [layer, dir] of Object.entries(options.dirs)) layerDirs[packageNameOf(layer as CodeLayerName)] = dir;
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
    const init: ParentMessage = { type: 'init', dirs: options.dirs, suites: options.suites };
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
    worker.cases = first.cases;
    worker.suiteErrors = first.suiteErrors;
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

  async measure(id: string, seconds: number): Promise<Measurement> {
    const reply = await this.request({ type: 'measure', seq: ++this.seq, id, seconds });
    if (reply.type !== 'measured') throw new MixError(`the worker answered '${reply.type}' to a measure request`);
    return reply.result;
  }

  async env(): Promise<WorkerEnv & { error?: string }> {
    const reply = await this.request({ type: 'env', seq: ++this.seq });
    if (reply.type !== 'env') throw new MixError(`the worker answered '${reply.type}' to an env request`);
    return reply.error === undefined ? reply.env : { ...reply.env, error: reply.error };
  }

  /** Asks the worker to exit, and kills it if it has not within a second. */
  /** The worker's process id (undefined if it never started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  async close(): Promise<void> {
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
