// The measuring child process of bisect and find: one per composition, started
// with that composition's node binary (so the runtime is a layer too). It loads
// the layers from their folders, builds the suite's cases once, then answers
// "measure case X for t seconds" with raw samples until told to exit, and
// reports what its runtime and layers say about themselves (capability word,
// dispatch decisions, the folder each layer was loaded from). Before anything
// imports a layer it registers the resolution hook that gives every import of a
// layer the variant's copy (one-copy-hooks.ts), and it refuses to measure when a
// layer was loaded from two places (one-copy.ts). Runs under Node 16: runtime
// code only, no newer APIs.
import * as nodeModule from 'node:module';
import type { BenchCase, CaseResult } from '@layerbench/bench-runner';
import { loadLayers, LayerLoadError } from './load-layers.js';
import type { LoadedComposition } from './load-layers.js';
import { layerCopies, oneCopyProblem } from './one-copy.js';
import {
  RESOLUTION_LOG_ENV,
  type Measurement,
  type ParentMessage,
  type WorkerEnv,
  type WorkerMessage,
} from './protocol.js';

// Node >= 20.6 / 18.19; older runtimes were started with --experimental-loader by the parent.
const register = (nodeModule as { register?: (specifier: string) => void }).register;
if (typeof register === 'function') register(new URL('./one-copy-hooks.js', import.meta.url).href);

function send(message: WorkerMessage): void {
  process.send?.(message);
}

function errorOf(err: unknown): { name: string; message: string } {
  return err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
}

let loaded: LoadedComposition | undefined;
/** Package name -> the folder this variant takes it from. */
let expectedDirs: Record<string, string> = {};
const cases = new Map<string, BenchCase>();

type RunCases = (
  cases: BenchCase[],
  options: { timePerCase: number; quiet: boolean; overhead: boolean; reference: boolean; slices: number },
) => Promise<{ cases: CaseResult[] }>;

/** Which folder each layer came from so far, and what breaks the one-copy rule. */
function copies(): { loadedLayers: WorkerEnv['loadedLayers']; problem?: string } {
  const found = layerCopies(process.env[RESOLUTION_LOG_ENV] ?? '', Object.keys(expectedDirs));
  const loadedLayers: WorkerEnv['loadedLayers'] = [];
  for (const [name, folders] of found.folders) {
    for (const folder of folders.keys()) loadedLayers.push({ layer: name.replace(/^@layerbench\//, ''), folder });
  }
  const problem = oneCopyProblem(found, expectedDirs);
  return problem === undefined ? { loadedLayers } : { loadedLayers, problem };
}

async function init(message: Extract<ParentMessage, { type: 'init' }>): Promise<void> {
  expectedDirs = {};
  for (const [layer, dir] of Object.entries(message.dirs)) expectedDirs[`@layerbench/${layer}`] = dir;
  try {
    loaded = await loadLayers(message.dirs);
  } catch (err) {
    const layer = err instanceof LayerLoadError ? err.layer : undefined;
    send({ type: 'failed', stage: 'load', ...(layer ? { layer } : {}), message: errorOf(err).message });
    return;
  }
  try {
    // Lazily: the registry pulls in every suite, and suites import peers lazily themselves.
    const registry = await import('../../suites/index.js');
    const suites = message.suites.map((name) => registry.suiteByName(name));
    const built = registry.buildCases(suites, loaded.layers, { esptestSeconds: 1 });
    const selected = registry.selectCases(built.cases, message.filter === undefined ? {} : { filter: message.filter });
    const kept = message.skipPeers ? selected.filter((c) => c.params.peer === undefined) : selected;
    for (const c of kept) {
      // Bisection interleaves short slices, so fixed-time loops (esptest) run as timed slices too.
      cases.set(c.id, { ...c, fixedTimeSeconds: undefined });
    }
    // Every layer is imported by now (loadLayers, the suites, the layers' own imports).
    const problem = copies().problem;
    if (problem !== undefined) {
      send({ type: 'failed', stage: 'one-copy', message: problem });
      return;
    }
    // A fresh process runs a case's code cold and tiers it up over its first calls: done here, unmeasured,
    // while the other workers start too, rather than in a discarded round of visits.
    if (message.warmupSeconds !== undefined) await warmAll(message.warmupSeconds);
    send({
      type: 'ready',
      cases: kept.map((c) => ({
        id: c.id,
        layer: c.layer,
        params: c.params,
        ...(c.bytesPerOp === undefined ? {} : { bytesPerOp: c.bytesPerOp }),
      })),
      suiteErrors: built.errors.map((e) => ({ suite: e.suite, message: `${e.error.name}: ${e.error.message}` })),
    });
  } catch (err) {
    send({ type: 'failed', stage: 'suites', message: `${errorOf(err).name}: ${errorOf(err).message}` });
  }
}

interface OpenCase {
  measure(seconds: number): Promise<CaseResult>;
  rewarm(): void;
  close(): unknown;
}
type OpenCaseFn = (benchCase: BenchCase, warmSeconds?: number) => Promise<OpenCase>;

/** The cases kept warm by the variant's engine (engines with openCase). */
const opened = new Map<string, OpenCase>();

/**
 * Sets every case up and settles its loop once (engines with openCase), then
 * settles each again now that all have run: code shared by several cases may
 * have been re-optimised for the later ones (bench-runner's interleaved runs
 * do the same). Engines without openCase get one unmeasured visit per case.
 */
async function warmAll(seconds: number): Promise<void> {
  const openCase = loaded?.benchRunner.openCase as OpenCaseFn | undefined;
  if (typeof openCase !== 'function') {
    for (const id of cases.keys()) await runVisit(id, seconds);
    return;
  }
  for (const [id, c] of cases) opened.set(id, await openCase(c, seconds));
  for (const handle of opened.values()) handle.rewarm();
}

function measurementOf(r: CaseResult): Measurement {
  const result: Measurement = { id: r.id, status: r.status, samples: r.samples };
  if (r.digest !== undefined) result.digest = r.digest;
  if (r.digestOk !== undefined) result.digestOk = r.digestOk;
  if (r.implementation !== undefined) result.implementation = r.implementation;
  if (r.error !== undefined) result.error = r.error;
  return result;
}

/** One visit: the variant's own engine measures the case for `seconds`. Never throws. */
async function runVisit(id: string, seconds: number): Promise<Measurement> {
  const benchCase = cases.get(id);
  if (!benchCase || !loaded) {
    return { id, status: 'failed', samples: [], error: { name: 'Error', message: `no case '${id}' in this mix` } };
  }
  try {
    const openCase = loaded.benchRunner.openCase as OpenCaseFn | undefined;
    if (typeof openCase === 'function') {
      let handle = opened.get(id);
      if (!handle) opened.set(id, (handle = await openCase(benchCase)));
      return measurementOf(await handle.measure(seconds));
    }
    // An engine from before openCase: one runCases call per visit (no overhead or reference
    // timing: bisection compares variants; one slice: a visit contributes one value).
    const runCases = loaded.benchRunner.runCases as RunCases;
    const run = await runCases([benchCase], {
      timePerCase: seconds,
      quiet: true,
      overhead: false,
      reference: false,
      slices: 1,
    });
    const r = run.cases[0];
    if (!r) throw new Error('runCases returned no result');
    return measurementOf(r);
  } catch (err) {
    return { id, status: 'failed', samples: [], error: errorOf(err) };
  }
}

async function measure(message: Extract<ParentMessage, { type: 'measure' }>): Promise<void> {
  send({ type: 'measured', seq: message.seq, result: await runVisit(message.id, message.seconds) });
}

async function describe(seq: number): Promise<void> {
  const env: WorkerEnv = {
    node: process.version,
    v8: process.versions.v8,
    openssl: process.versions.openssl ?? 'none',
    dispatch: [],
    missing: [],
    loadedLayers: [],
  };
  try {
    if (!loaded) throw new Error('layers not loaded');
    const { describeLayers } = await import('../../layer-env.js');
    const report = describeLayers(loaded.layers, []);
    if (report.capabilities !== undefined) env.capabilities = report.capabilities;
    env.dispatch = report.dispatch;
    env.missing = report.missing;
    // Checked again after measuring: a layer that imports lazily could have pulled in a second copy since.
    const now = copies();
    env.loadedLayers = now.loadedLayers;
    if (now.problem !== undefined) env.oneCopyProblem = now.problem;
    send({ type: 'env', seq, env });
  } catch (err) {
    send({ type: 'env', seq, env, error: errorOf(err).message });
  }
}

// Requests are handled one at a time, in order: a measurement must never overlap another.
let queue: Promise<void> = Promise.resolve();
process.on('message', (message: ParentMessage) => {
  queue = queue.then(async () => {
    switch (message.type) {
      case 'init':
        return init(message);
      case 'measure':
        return measure(message);
      case 'env':
        return describe(message.seq);
      case 'exit':
        for (const handle of opened.values()) handle.close();
        process.disconnect?.();
        return;
    }
  });
});
process.on('disconnect', () => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group: the parent decides when its workers stop.
process.on('SIGINT', () => undefined);
