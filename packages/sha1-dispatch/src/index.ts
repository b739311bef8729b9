// @layerbench/sha1-dispatch: SHA-1 and HMAC-SHA1 with several implementations
// (generic, unrolled, wasm, node) and a dispatcher that always says what it chose.
import { NodeSha1 } from './backends/node.js';
import { BlockHmacSha1, checkTagLength, NodeHmacSha1 } from './hmac.js';
import { compressorOf } from './implementations.js';
import type { Sha1ImplName } from './implementations.js';
import { applyMeasurements, dispatchState, implForSize, resolveImpl } from './dispatch.js';
import { crossoverOf } from './cost-model.js';
import {
  DEFAULT_BLOCK_RUNS,
  DEFAULT_SIZES,
  machineDescription,
  measureBlockRuns,
  measurementClock,
  measureSizes,
} from './measurements.js';
import type { CrossoverMeasurements } from './measurements.js';
import { checkBytes } from './layer-shared.generated.js';
import { BlockSha1 } from './sha1-hash.js';
import { hashWholeMessage } from './whole-message.js';
import type { HmacSha1, Sha1Compressor, Sha1Hash } from './types.js';

export type * from './types.js';
export type { Capabilities, CapabilityName } from './capabilities.js';
export type { Sha1ImplementationInfo, Sha1ImplName } from './implementations.js';
export type { CrossoverMeasurements, SizeMeasurement } from './measurements.js';
export type { DispatchChoice, EnvSource } from './dispatch.js';
export { CAPABILITY_BITS, CAPABILITY_NAMES } from './capabilities.js';
export { SHA1_IMPL_NAMES } from './implementations.js';
export { Sha1ImplementationError } from './errors.js';
export { HMAC_SHA1_MAX_TAG, HMAC_SHA1_MIN_TAG } from './hmac.js';
export {
  constantTimeEqual,
  DestroyedError,
  EnvironmentValueError,
  ImplementationError,
} from './layer-shared.generated.js';
export type { LayerErrorCode } from './layer-shared.generated.js';
export { shippedMeasurements } from './crossover.js';
export {
  CAPS_ENV,
  SHA1_CROSSOVER_ENV,
  SHA1_IMPL_ENV,
  capabilities,
  capabilityWord,
  describeDispatch,
  dispatch,
  resetDispatch,
  sha1Implementations,
} from './dispatch.js';

export interface Sha1Options {
  /** Force an implementation for this call; throws Sha1ImplementationError if it cannot run here. */
  impl?: Sha1ImplName | string;
}

export interface CreateSha1Options extends Sha1Options {
  /** Expected total size: lets the dispatcher pick as it would for a whole message of this size. */
  sizeHint?: number;
}

export interface HmacSha1Options extends Sha1Options {
  /** Tag length in bytes, 10..20 (default 20). */
  tagLength?: number;
}

/** SHA-1 of a whole message: the implementation depends on the size (see dispatch()). */
export function sha1(msg: Uint8Array, options?: Sha1Options): Uint8Array {
  checkBytes(msg, 'sha1: message');
  const impl =
    options?.impl === undefined
      ? implForSize(msg.length)
      : resolveImpl(options.impl, () => implForSize(msg.length), 'sha1');
  return hashWholeMessage(impl, msg);
}

/** A streaming SHA-1 (update/digest/reset/clone). Without impl or sizeHint it uses the streaming choice of dispatch() (no size). */
export function createSha1(options: CreateSha1Options = {}): Sha1Hash {
  const { sizeHint } = options;
  if (sizeHint !== undefined && (!Number.isInteger(sizeHint) || sizeHint < 0)) {
    throw new RangeError(`createSha1: sizeHint must be a non-negative integer, got ${sizeHint}`);
  }
  if (options.impl === undefined && sizeHint === undefined) return streamingHash();
  const impl = resolveImpl(options.impl, () => implForSize(sizeHint!), 'createSha1');
  if (impl === 'node') return new NodeSha1();
  return new BlockSha1(compressorOf(impl)!);
}

/** The dispatcher's choice for streams: node when forced, else the (run-length) block function. */
function streamingHash(): Sha1Hash {
  const c = dispatchState().streamingCompressor;
  return c === undefined ? new NodeSha1() : new BlockSha1(c);
}

/** The block function (OpenSSL's sha1_block_data_order contract) of an implementation, or the dispatched one. */
export function sha1Compressor(options: Sha1Options = {}): Sha1Compressor {
  if (options.impl === undefined) {
    const s = dispatchState();
    return s.streamingCompressor ?? compressorOf(s.block.impl)!;
  }
  const impl = resolveImpl(options.impl, () => dispatchState().block.impl, 'sha1Compressor');
  const c = compressorOf(impl);
  if (c === undefined)
    throw new TypeError(`sha1Compressor: '${impl}' has no block function (node:crypto hides its chaining state)`);
  return c;
}

/** A pre-keyed HMAC-SHA1: mac()/reset()/clone() never re-hash the key. */
export function createHmacSha1(key: Uint8Array, options: HmacSha1Options = {}): HmacSha1 {
  checkBytes(key, 'HMAC-SHA1 key');
  const tagLength = checkTagLength(options.tagLength);
  if (options.impl === undefined) {
    const c = dispatchState().streamingCompressor;
    return c === undefined ? new NodeHmacSha1(key, tagLength) : new BlockHmacSha1(c, key, tagLength);
  }
  const impl = resolveImpl(options.impl, () => dispatchState().block.impl, 'createHmacSha1');
  if (impl === 'node') return new NodeHmacSha1(key, tagLength);
  return new BlockHmacSha1(compressorOf(impl)!, key, tagLength);
}

/** One-shot HMAC-SHA1 (creates, macs and destroys a keyed object). */
export function hmacSha1(key: Uint8Array, msg: Uint8Array, options: HmacSha1Options = {}): Uint8Array {
  checkBytes(msg, 'HMAC-SHA1 message');
  const h = createHmacSha1(key, options);
  const tag = h.mac(msg);
  h.destroy();
  return tag;
}

export interface MeasureCrossoverOptions {
  /** Message sizes to time (default 64 B .. 64 KiB). */
  sizes?: number[];
  /** Milliseconds per (size, implementation) point (default 20). */
  msPerPoint?: number;
  /** Make the dispatcher use these figures from now on (like LAYERBENCH_SHA1_CROSSOVER, but measured). */
  apply?: boolean;
}

/**
 * Re-measures, on this machine, whole-message SHA-1 per available
 * implementation and size, and the size from which node:crypto wins. Takes
 * about (sizes + 8 block runs) x implementations x msPerPoint milliseconds
 * (about a second by default). Also times one blockDataOrder call per run
 * length, which decides the streaming split.
 */
export function measureCrossover(options: MeasureCrossoverOptions = {}): CrossoverMeasurements {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  for (const size of sizes) {
    if (!Number.isInteger(size) || size < 0)
      throw new RangeError(`measureCrossover: sizes must be non-negative integers, got ${size}`);
  }
  const ms = options.msPerPoint ?? 20;
  if (!(ms > 0)) throw new RangeError(`measureCrossover: msPerPoint must be positive, got ${ms}`);
  const avail = dispatchState()
    .infos.filter((i) => i.available && i.name !== 'generic')
    .map((i) => i.name);
  const clock = measurementClock();
  const batches = Math.max(8, Math.round(ms));
  const rows = measureSizes(avail, sizes, ms, batches, clock);
  const pureAvail = avail.filter((n) => n !== 'node');
  const blockRuns = measureBlockRuns(pureAvail, DEFAULT_BLOCK_RUNS, ms, batches, clock);
  const m: CrossoverMeasurements = {
    crossover: crossoverOf(rows, pureAvail),
    machine: machineDescription(),
    clock: clock.kind,
    date: new Date().toISOString(),
    command: `measureCrossover(${JSON.stringify({ sizes, msPerPoint: ms })})`,
    rows,
    blockRuns,
  };
  if (options.apply) applyMeasurements(m);
  return m;
}
