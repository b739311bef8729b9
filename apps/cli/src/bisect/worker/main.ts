// The measuring child process of bisect and find: one per composition, started
// with that composition's node binary (so the runtime is a layer too), or,
// paired, one hosting every composition of the bisection side by side, each in
// a module graph of its own (protocol.ts, VARIANT_PARAM). It loads
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
import { layerCopies, oneCopyProblem, strayCopiesProblem } from './one-copy.js';
import {
  RESOLUTION_LOG_ENV,
  withVariantTag,
  type HostedVariant,
  type Measurement,
  type ParentMessage,
  type ReadyVariant,
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

type RunCases = (
  cases: BenchCase[],
  options: { timePerCase: number; quiet: boolean; overhead: boolean; reference: boolean; slices: number },
) => Promise<{ cases: CaseResult[] }>;

interface OpenCase {
  measure(seconds: number): Promise<CaseResult>;
  rewarm(): void;
  close(): unknown;
}
type OpenCaseFn = (benchCase: BenchCase, warmSeconds?: number) => Promise<OpenCase>;

/** One variant this worker hosts: its layers, its cases, and the cases kept warm by its engine. */
interface Host {
  tag: string;
  loaded: LoadedComposition;
  /** Package name -> the folder this variant takes it from. */
  expectedDirs: Record<string, string>;
  cases: Map<string, BenchCase>;
  /** The cases kept warm by the variant's engine (engines with openCase). */
  opened: Map<string, OpenCase>;
}

const hosts = new Map<string, Host>();
/** Whether several variants share this process (each in its own module graph). */
let paired = false;

/** Which folder each layer of `host` came from so far, and what breaks the one-copy rule. */
function copies(host: Host): { loadedLayers: WorkerEnv['loadedLayers']; problem?: string } {
  const log = process.env[RESOLUTION_LOG_ENV] ?? '';
  const names = Object.keys(host.expectedDirs);
  const found = layerCopies(log, names, host.tag);
  const loadedLayers: WorkerEnv['loadedLayers'] = [];
  for (const [name, folders] of found.folders) {
    for (const folder of folders.keys()) loadedLayers.push({ layer: name.replace(/^@layerbench\//, ''), folder });
  }
  const problems: string[] = [];
  const own = oneCopyProblem(found, host.expectedDirs);
  if (own !== undefined) problems.push(own);
  // Paired, every layer file belongs to some variant's graph: one loaded outside them all is shared.
  const stray = paired ? strayCopiesProblem(layerCopies(log, names, '')) : undefined;
  if (stray !== undefined) problems.push(stray);
  return problems.length ? { loadedLayers, problem: problems.join('; ') } : { loadedLayers };
}

type InitOutcome =
  | { ok: true; host: Host; ready: Extract<ReadyVariant, { ok: true }> }
  | Extract<ReadyVariant, { ok: false }>;

/** Loads one variant's layers and builds its suites' cases in its module graph. */
async function initVariant(
  variant: HostedVariant,
  message: Extract<ParentMessage, { type: 'init' }>,
): Promise<InitOutcome> {
  const { tag } = variant;
  let loaded: LoadedComposition;
  try {
    loaded = await loadLayers(variant.dirs, tag);
  } catch (err) {
    const layer = err instanceof LayerLoadError ? err.layer : undefined;
    return { tag, ok: false, stage: 'load', ...(layer ? { layer } : {}), message: errorOf(err).message };
  }
  const expectedDirs: Record<string, string> = {};
  for (const [layer, dir] of Object.entries(variant.dirs)) expectedDirs[`@layerbench/${layer}`] = dir;
  const host: Host = { tag, loaded, expectedDirs, cases: new Map(), opened: new Map() };
  try {
    // Lazily: the registry pulls in every suite, and suites import peers lazily themselves. Paired, each
    // variant gets its own copy of the suites too (its graph), so no case code is shared between variants.
    const registryUrl = withVariantTag(new URL('../../suites/index.js', import.meta.url).href, tag);
    const registry = (await import(registryUrl)) as typeof import('../../suites/index.js');
    const suites = message.suites.map((name) => registry.suiteByName(name));
    const built = registry.buildCases(suites, loaded.layers, { esptestSeconds: 1 });
    const selected = registry.selectCases(built.cases, message.filter === undefined ? {} : { filter: message.filter });
    const skipLayers = variant.skipCaseLayers ?? [];
    const wanted = selected.filter((c) => !(message.skipPeers && c.params.peer !== undefined));
    const kept = wanted.filter((c) => skipLayers.indexOf(c.layer) < 0);
    const skipped = wanted.filter((c) => skipLayers.indexOf(c.layer) >= 0).map((c) => ({ id: c.id, layer: c.layer }));
    for (const c of kept) {
      // Bisection interleaves short slices, so fixed-time loops (esptest) run as timed slices too.
      host.cases.set(c.id, { ...c, fixedTimeSeconds: undefined });
    }
    return {
      ok: true,
      host,
      ready: {
        tag,
        ok: true,
        cases: kept.map((c) => ({
          id: c.id,
          layer: c.layer,
          params: c.params,
          ...(c.bytesPerOp === undefined ? {} : { bytesPerOp: c.bytesPerOp }),
        })),
        suiteErrors: built.errors.map((e) => ({ suite: e.suite, message: `${e.error.name}: ${e.error.message}` })),
        ...(skipped.length ? { skipped } : {}),
      },
    };
  } catch (err) {
    return { tag, ok: false, stage: 'suites', message: `${errorOf(err).name}: ${errorOf(err).message}` };
  }
}

async function init(message: Extract<ParentMessage, { type: 'init' }>): Promise<void> {
  paired = message.variants.length > 1;
  const outcomes: InitOutcome[] = [];
  for (const variant of message.variants) outcomes.push(await initVariant(variant, message));
  const ready: ReadyVariant[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      ready.push(outcome);
      continue;
    }
    // Every layer of every variant is imported by now (loadLayers, the suites, the layers' own imports).
    const problem = copies(outcome.host).problem;
    if (problem !== undefined) ready.push({ tag: outcome.host.tag, ok: false, stage: 'one-copy', message: problem });
    else {
      hosts.set(outcome.host.tag, outcome.host);
      ready.push(outcome.ready);
    }
  }
  if (hosts.size === 0) {
    // Nothing this worker could measure: the first variant's reason (one variant: its only one).
    const first = ready[0] as Extract<ReadyVariant, { ok: false }>;
    send({
      type: 'failed',
      stage: first.stage,
      ...(first.layer ? { layer: first.layer } : {}),
      message: first.message,
    });
    return;
  }
  // A fresh process runs a case's code cold and tiers it up over its first calls: done here, unmeasured,
  // while the other workers start too, rather than in a discarded round of visits.
  if (message.warmupSeconds !== undefined) {
    for (const host of hosts.values()) await warmAll(host, message.warmupSeconds);
    for (const host of hosts.values()) for (const handle of host.opened.values()) handle.rewarm();
  }
  send({ type: 'ready', variants: ready });
}

/**
 * Sets every case up and settles its loop once (engines with openCase); the
 * caller then settles each again once all have run: code shared by several
 * cases may have been re-optimised for the later ones (bench-runner's
 * interleaved runs do the same). Engines without openCase get one unmeasured
 * visit per case.
 */
async function warmAll(host: Host, seconds: number): Promise<void> {
  const openCase = host.loaded.benchRunner.openCase as OpenCaseFn | undefined;
  if (typeof openCase !== 'function') {
    for (const id of host.cases.keys()) await runVisit(host.tag, id, seconds);
    return;
  }
  for (const [id, c] of host.cases) host.opened.set(id, await openCase(c, seconds));
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
async function runVisit(tag: string, id: string, seconds: number): Promise<Measurement> {
  const host = hosts.get(tag);
  const benchCase = host?.cases.get(id);
  if (!host || !benchCase) {
    return { id, status: 'failed', samples: [], error: { name: 'Error', message: `no case '${id}' in this mix` } };
  }
  try {
    const openCase = host.loaded.benchRunner.openCase as OpenCaseFn | undefined;
    if (typeof openCase === 'function') {
      let handle = host.opened.get(id);
      if (!handle) host.opened.set(id, (handle = await openCase(benchCase)));
      return measurementOf(await handle.measure(seconds));
    }
    // An engine from before openCase: one runCases call per visit (no overhead or reference
    // timing: bisection compares variants; one slice: a visit contributes one value).
    const runCases = host.loaded.benchRunner.runCases as RunCases;
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
  send({ type: 'measured', seq: message.seq, result: await runVisit(message.variant, message.id, message.seconds) });
}

async function describe(seq: number, tag: string): Promise<void> {
  const env: WorkerEnv = {
    node: process.version,
    v8: process.versions.v8,
    openssl: process.versions.openssl ?? 'none',
    dispatch: [],
    missing: [],
    loadedLayers: [],
  };
  try {
    const host = hosts.get(tag);
    if (!host) throw new Error('layers not loaded');
    // In the variant's module graph: layer-env imports bench-runner, which must be the variant's copy.
    const layerEnvUrl = withVariantTag(new URL('../../layer-env.js', import.meta.url).href, tag);
    const { describeLayers } = (await import(layerEnvUrl)) as typeof import('../../layer-env.js');
    const report = describeLayers(host.loaded.layers, []);
    if (report.capabilities !== undefined) env.capabilities = report.capabilities;
    env.dispatch = report.dispatch;
    env.missing = report.missing;
    // Checked again after measuring: a layer that imports lazily could have pulled in a second copy since.
    const now = copies(host);
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
        return describe(message.seq, message.variant);
      case 'exit':
        for (const host of hosts.values()) for (const handle of host.opened.values()) handle.close();
        process.disconnect?.();
        return;
    }
  });
});
process.on('disconnect', () => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group: the parent decides when its workers stop.
process.on('SIGINT', () => undefined);
