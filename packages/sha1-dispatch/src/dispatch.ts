// The SHA-1 dispatcher: reads the environment once (LAYERBENCH_CAPS,
// LAYERBENCH_SHA1_IMPL, LAYERBENCH_SHA1_CROSSOVER), detects capabilities once,
// and turns the shipped (or re-measured) figures into size-aware choices
// through fitted cost lines (cost-model.ts).
// Every choice carries its reason, and describeDispatch() lists them all, so a
// result file records what ran: the silent generic fallback of the OpenConnect
// report cannot happen unannounced here.
import { applyCapabilityMask, detectCapabilityWord, flagsOf, formatCapabilityWord } from './capabilities.js';
import type { Capabilities } from './capabilities.js';
import { shippedMeasurements } from './crossover.js';
import { Sha1ImplementationError } from './errors.js';
import { EnvironmentValueError } from './layer-shared.generated.js';
import { compressorOf, implementationInfo, isImplName, SHA1_IMPL_NAMES } from './implementations.js';
import type { Sha1ImplementationInfo, Sha1ImplName } from './implementations.js';
import { cheapestBands, cheapestFrom, costAt, describeLine, fitCostLine } from './cost-model.js';
import type { CostLine } from './cost-model.js';
import { runLengthCompressor } from './run-length-compressor.js';
import type { CrossoverMeasurements } from './measurements.js';
import type { DispatchDecision, Sha1Compressor } from './types.js';

export type EnvSource = Record<string, string | undefined>;

/** Masks the capability word, like OPENSSL_ia32cap: `~simd128`, `~0x5`, `0x3`. */
export const CAPS_ENV = 'LAYERBENCH_CAPS';
/** Forces every choice of this layer to one implementation. */
export const SHA1_IMPL_ENV = 'LAYERBENCH_SHA1_IMPL';
/** Whole messages of at least this many bytes go to node:crypto. */
export const SHA1_CROSSOVER_ENV = 'LAYERBENCH_SHA1_CROSSOVER';

/** Whole-message sizes from `minSize` up (to the next segment) use `impl`. */
interface SizeSegment {
  minSize: number;
  impl: Sha1ImplName;
  reason: string;
}

export interface DispatchChoice {
  /** An implementation name, or 'short+long' for the run-length split of streams and HMAC. */
  impl: string;
  reason: string;
}

interface DispatchState {
  detectedWord: number;
  word: number;
  capsSpec?: string;
  forced?: Sha1ImplName;
  forcedBy?: string;
  infos: Sha1ImplementationInfo[];
  availableSet: Set<string>;
  block: DispatchChoice & { impl: Sha1ImplName };
  /** Streams and HMAC: the block function, or a run-length split of two. */
  streaming: DispatchChoice;
  streamingCompressor: Sha1Compressor | undefined;
  /** Whole-message segments, ascending by minSize; the first starts at 0. */
  segments: SizeSegment[];
  /** Fast path of sha1(): segment boundaries and impls as flat arrays. */
  segmentStarts: number[];
  segmentImpls: Sha1ImplName[];
  crossover: number;
  crossoverSource: string;
  measurements: CrossoverMeasurements;
}

let current: DispatchState | undefined;
let envOverride: EnvSource | undefined;
let measuredOverride: CrossoverMeasurements | undefined;

let envSnapshot: EnvSource | undefined;

/** The variables this layer reads, taken once and remembered until resetDispatch(). */
function readEnv(): EnvSource {
  if (envSnapshot === undefined) {
    const env = envOverride ?? (typeof process === 'object' && process.env ? process.env : {});
    envSnapshot = {
      [CAPS_ENV]: env[CAPS_ENV],
      [SHA1_IMPL_ENV]: env[SHA1_IMPL_ENV],
      [SHA1_CROSSOVER_ENV]: env[SHA1_CROSSOVER_ENV],
    };
  }
  return envSnapshot;
}

/**
 * Forgets the remembered environment and decisions (and figures adopted by
 * measureCrossover({ apply: true })): the next use reads process.env again.
 * For long-lived tools that change the environment on purpose. Every layer
 * with a dispatcher has a resetDispatch() of this name.
 */
export function resetDispatch(): void {
  resetDispatchForTests();
}

/**
 * resetDispatch(), then read `env` instead of process.env until the next
 * reset. A test hook: exported from '@layerbench/sha1-dispatch/testing', not
 * from the package root.
 */
export function resetDispatchForTests(env?: EnvSource): void {
  current = undefined;
  envOverride = env;
  envSnapshot = undefined;
  measuredOverride = undefined;
}

/** Adopt re-measured figures (measureCrossover({ apply: true })). */
export function applyMeasurements(m: CrossoverMeasurements): void {
  measuredOverride = m;
  current = undefined;
}

function availableNames(infos: Sha1ImplementationInfo[]): Sha1ImplName[] {
  return infos.filter((i) => i.available).map((i) => i.name);
}

/** Throws Sha1ImplementationError naming what is available when `name` cannot run. */
export function checkImplName(
  name: string,
  infos: Sha1ImplementationInfo[],
  via: string,
  variable?: string,
): Sha1ImplName {
  const avail = availableNames(infos);
  if (!isImplName(name)) {
    throw new Sha1ImplementationError(
      `${via}: unknown SHA-1 implementation '${name}' (known: ${SHA1_IMPL_NAMES.join(', ')}; available here: ${avail.join(', ')})`,
      true,
      name,
      avail,
      variable,
    );
  }
  const info = infos.find((i) => i.name === name)!;
  if (!info.available) {
    throw new Sha1ImplementationError(
      `${via}: SHA-1 implementation '${name}' is not available here (${info.unavailableReason}); available: ${avail.join(', ')}`,
      false,
      name,
      avail,
      variable,
    );
  }
  return name;
}

function computeState(): DispatchState {
  const env = readEnv();
  const detectedWord = detectCapabilityWord();
  const capsSpec = env[CAPS_ENV];
  const word =
    capsSpec !== undefined && capsSpec.trim() !== '' ? applyCapabilityMask(detectedWord, capsSpec) : detectedWord;
  const infos = implementationInfo(word);
  const avail = availableNames(infos);
  const maskNote =
    word !== detectedWord
      ? ` (LAYERBENCH_CAPS=${capsSpec}: ${formatCapabilityWord(detectedWord)} -> ${formatCapabilityWord(word)})`
      : '';
  const skipped = (names: Sha1ImplName[]) =>
    names
      .filter((n) => !avail.includes(n))
      .map((n) => `${n} unavailable: ${infos.find((i) => i.name === n)!.unavailableReason}${maskNote}`)
      .join('; ');

  const measurements = measuredOverride ?? shippedMeasurements;
  const source = measuredOverride
    ? `measured on this machine ${measurements.date}`
    : `shipped measurements (${measurements.machine}, ${measurements.date})`;
  const pureAll: Sha1ImplName[] = ['wasm', 'unrolled', 'generic'];
  const pure = pureAll.filter((n) => avail.includes(n));
  const nodeOk = avail.includes('node');

  // Fit each available implementation's whole-message time as fixed + per-byte cost.
  const lines = new Map<Sha1ImplName, CostLine>();
  for (const name of [...pure, ...(nodeOk ? (['node'] as const) : [])]) {
    const line = fitCostLine(measurements.rows, name);
    if (line) lines.set(name, line);
  }
  const pureLines = pure.map((n) => lines.get(n)).filter((l): l is CostLine => l !== undefined);
  const fitNote = (names: Sha1ImplName[]) =>
    names
      .map((n) => lines.get(n))
      .filter((l): l is CostLine => l !== undefined)
      .map(describeLine)
      .join(', ');

  // Crossover: env override, else where node's line goes under every pure line.
  const nodeLine = lines.get('node');
  let crossover = nodeLine ? cheapestFrom(nodeLine, pureLines) : Infinity;
  let crossoverSource = `${source}; fit ${fitNote([...pure, 'node'])}`;
  const envCross = env[SHA1_CROSSOVER_ENV];
  if (envCross !== undefined && envCross.trim() !== '') {
    if (!/^\d+$/.test(envCross.trim())) {
      throw new EnvironmentValueError(
        `${SHA1_CROSSOVER_ENV} must be a whole number of bytes, got '${envCross}'`,
        SHA1_CROSSOVER_ENV,
        envCross,
      );
    }
    crossover = Number(envCross.trim());
    crossoverSource = `LAYERBENCH_SHA1_CROSSOVER=${envCross.trim()}`;
  }

  // Block function: the pure implementation with the lowest cost per byte.
  const byPerByte = [...pureLines].sort((a, b) => a.nsPerByte - b.nsPerByte);
  const blockImpl: Sha1ImplName = byPerByte[0]?.impl ?? pure[0] ?? 'generic';
  const unavailableNote = skipped(pureAll.slice(0, pureAll.indexOf(blockImpl)));
  let block: DispatchChoice & { impl: Sha1ImplName } = {
    impl: blockImpl,
    reason:
      `lowest cost per byte among available pure implementations in ${source} (fit ${fitNote(pure)})` +
      (unavailableNote ? `; ${unavailableNote}` : ''),
  };

  // Whole messages: the cheapest pure line in each size band, node from the crossover.
  const segments: SizeSegment[] = cheapestBands(pureLines)
    .filter((band) => !(nodeOk && band.minSize >= crossover))
    .map((band) => ({
      minSize: band.minSize,
      impl: band.impl,
      reason: `cheapest available pure implementation for this size in ${source}${nodeOk && Number.isFinite(crossover) ? `; below the node:crypto crossover ${crossover} B` : ''}`,
    }));
  if (segments.length === 0 && !(nodeOk && crossover === 0))
    segments.push({ minSize: 0, impl: blockImpl, reason: block.reason });
  if (nodeOk && Number.isFinite(crossover)) {
    segments.push({
      minSize: crossover,
      impl: 'node',
      reason: `size >= crossover ${crossover} B (${crossoverSource}): node:crypto's per-call cost is repaid`,
    });
  } else if (!nodeOk) {
    segments[segments.length - 1]!.reason += `; ${skipped(['node'])}`;
  }

  // Streams and HMAC: a per-call run-length split when the pure implementation
  // cheapest for a one-block call differs from the block function (wasm's
  // per-call cost loses on the one-block updates a streaming caller makes).
  // Decided from the blockDataOrder-call figures when the file has them, else
  // from the whole-message lines.
  const runRows = measurements.blockRuns;
  const runLines = pure
    .map((n) => (runRows ? fitCostLine(runRows, n) : lines.get(n)))
    .filter((l): l is CostLine => l !== undefined);
  const runsOf = runRows ? 'blockDataOrder-call' : 'whole-message';
  const oneBlock = [...runLines].sort((a, b) => costAt(a, 64) - costAt(b, 64))[0];
  const blockRunLine = runLines.find((l) => l.impl === blockImpl);
  let streaming: DispatchChoice = { impl: block.impl, reason: `the block function: ${block.reason}` };
  let streamingCompressor = compressorOf(block.impl);
  if (oneBlock !== undefined && blockRunLine !== undefined && oneBlock.impl !== blockImpl) {
    const longFrom = cheapestFrom(blockRunLine, [oneBlock]);
    if (Number.isFinite(longFrom)) {
      const minBlocks = Math.max(2, Math.ceil(longFrom / 64));
      streamingCompressor = runLengthCompressor(compressorOf(oneBlock.impl)!, compressorOf(blockImpl)!, minBlocks);
      streaming = {
        impl: streamingCompressor.name,
        reason:
          `runs of < ${minBlocks} blocks (and tails < ${minBlocks * 64} B) -> ${oneBlock.impl}, longer -> ${blockImpl}: ` +
          `the ${runsOf} lines cross at ${longFrom} B (fit ${describeLine(oneBlock)}, ${describeLine(blockRunLine)}; ${source})`,
      };
    }
  } else if (oneBlock !== undefined && oneBlock.impl === blockImpl) {
    streaming = {
      impl: block.impl,
      reason: `the block function, also the cheapest for one block (${runsOf} figures): ${block.reason}`,
    };
  }

  let forced: Sha1ImplName | undefined;
  let forcedBy: string | undefined;
  // apps/cli/scenarios/history.ts edits this exact line to make a slowed history.
  const envImpl = env.LAYERBENCH_SHA1_IMPL;
  if (envImpl !== undefined && envImpl.trim() !== '') {
    forcedBy = `${SHA1_IMPL_ENV}=${envImpl.trim()}`;
    forced = checkImplName(envImpl.trim(), infos, forcedBy, SHA1_IMPL_ENV);
    const reason = `forced by ${forcedBy}`;
    segments.splice(0, segments.length, { minSize: 0, impl: forced, reason });
    if (forced !== 'node') block = { impl: forced, reason };
    else
      block = {
        impl: block.impl,
        reason: `${reason}, but node has no block function; block function: ${block.reason}`,
      };
    streaming = { impl: forced, reason };
    streamingCompressor = compressorOf(forced);
  }

  const state: DispatchState = {
    detectedWord,
    word,
    infos,
    availableSet: new Set(avail),
    block,
    streaming,
    streamingCompressor,
    segments,
    segmentStarts: segments.map((s) => s.minSize),
    segmentImpls: segments.map((s) => s.impl),
    crossover,
    crossoverSource,
    measurements,
  };
  if (capsSpec !== undefined && capsSpec.trim() !== '') state.capsSpec = capsSpec;
  if (forced !== undefined) state.forced = forced;
  if (forcedBy !== undefined) state.forcedBy = forcedBy;
  return state;
}

export function dispatchState(): DispatchState {
  return (current ??= computeState());
}

/** The implementation sha1() uses for a message of `size` bytes (hot path: no allocation). */
export function implForSize(size: number): Sha1ImplName {
  const s = current ?? dispatchState();
  const starts = s.segmentStarts;
  let i = starts.length - 1;
  while (i > 0 && size < starts[i]!) i--;
  return s.segmentImpls[i]!;
}

/**
 * The choice for a whole message of `size` bytes, or with no size the choice
 * for streams and HMAC (the block function, unless forced).
 */
export function dispatch(options: { size?: number } = {}): DispatchChoice {
  const s = dispatchState();
  const size = options.size;
  if (size === undefined)
    return { impl: s.streaming.impl, reason: `size unknown (streams, HMAC): ${s.streaming.reason}` };
  if (!Number.isInteger(size) || size < 0)
    throw new RangeError(`dispatch: size must be a non-negative integer, got ${size}`);
  let seg = s.segments[0]!;
  for (const candidate of s.segments) if (size >= candidate.minSize) seg = candidate;
  return { impl: seg.impl, reason: `size ${size} B: ${seg.reason}` };
}

export function capabilities(): Capabilities {
  const s = dispatchState();
  const caps: Capabilities = {
    flags: flagsOf(s.word),
    word: formatCapabilityWord(s.word),
    detectedWord: formatCapabilityWord(s.detectedWord),
  };
  if (s.capsSpec !== undefined) caps.mask = s.capsSpec;
  return caps;
}

export function capabilityWord(): string {
  return formatCapabilityWord(dispatchState().word);
}

export function sha1Implementations(): Sha1ImplementationInfo[] {
  return dispatchState().infos.map((i) => ({ ...i, requires: [...i.requires] }));
}

/** Resolves an explicit `impl` option (or the forced/dispatched default) to an available implementation. */
export function resolveImpl(requested: string | undefined, fallback: () => Sha1ImplName, via: string): Sha1ImplName {
  const s = current ?? dispatchState();
  if (requested === undefined) return fallback();
  // Hot path for an explicit, available impl: no list building per call.
  if (s.availableSet.has(requested)) return requested as Sha1ImplName;
  return checkImplName(requested, s.infos, via);
}

/** Every decision this layer made, for result fingerprints. */
export function describeDispatch(): DispatchDecision[] {
  const s = dispatchState();
  const layer = 'sha1-dispatch';
  const out: DispatchDecision[] = [];
  out.push({
    layer,
    decision: 'capabilities',
    impl: formatCapabilityWord(s.word),
    reason:
      s.capsSpec !== undefined
        ? `detected ${formatCapabilityWord(s.detectedWord)}, masked by LAYERBENCH_CAPS=${s.capsSpec}`
        : `detected ${formatCapabilityWord(s.detectedWord)}, no mask`,
  });
  if (s.forced !== undefined) out.push({ layer, decision: 'forced', impl: s.forced, reason: `${s.forcedBy}` });
  out.push({ layer, decision: 'block function', impl: s.block.impl, reason: s.block.reason });
  out.push({
    layer,
    decision: 'streaming and HMAC (size unknown)',
    impl: s.streaming.impl,
    reason: s.streaming.reason,
  });
  s.segments.forEach((seg, i) => {
    const next = s.segments[i + 1];
    const range = next ? `${seg.minSize}..${next.minSize - 1} B` : `>= ${seg.minSize} B`;
    out.push({ layer, decision: `whole message ${range}`, impl: seg.impl, reason: seg.reason });
  });
  out.push({
    layer,
    decision: 'crossover',
    impl: Number.isFinite(s.crossover) ? `${s.crossover} B` : 'none',
    reason: s.crossoverSource,
  });
  return out;
}
