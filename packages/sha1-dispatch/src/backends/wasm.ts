// The WebAssembly SHA-1 block function. The module (sha1.wat, assembled into
// sha1-wasm.generated.ts at build time) ships inside the package and is
// compiled synchronously on first use. Data is copied into linear memory up to
// MAX_BLOCKS blocks at a time, so one copy and one call cover many blocks.
import type { Sha1Compressor } from '../types.js';
import { webAssembly } from '../webassembly-api.js';
import type { WasmMemory } from '../webassembly-api.js';
import { sha1WasmBase64 } from './sha1-wasm.generated.js';

/** Must match DATA_OFFSET / MAX_BLOCKS in scripts/gen-wat.mjs. */
const DATA_OFFSET = 64;
const MAX_BLOCKS = 1024;

interface Sha1WasmInstance {
  bytes: Uint8Array;
  view: DataView;
  blocks(ptr: number, n: number): void;
}

let loaded: Sha1WasmInstance | null | undefined;
let loadError: Error | undefined;

export function decodeBase64(b64: string): Uint8Array {
  if (typeof Buffer !== 'undefined') {
    const buf = Buffer.from(b64, 'base64');
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  }
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function load(): Sha1WasmInstance | null {
  if (loaded !== undefined) return loaded;
  try {
    if (webAssembly === undefined) throw new Error('WebAssembly is not defined in this runtime');
    const module = new webAssembly.Module(decodeBase64(sha1WasmBase64));
    const exports = new webAssembly.Instance(module, {}).exports as unknown as {
      memory: WasmMemory;
      blocks(ptr: number, n: number): void;
    };
    // The module never grows its memory, so these views stay valid.
    loaded = {
      bytes: new Uint8Array(exports.memory.buffer),
      view: new DataView(exports.memory.buffer),
      blocks: exports.blocks,
    };
  } catch (err) {
    loadError = err as Error;
    loaded = null;
  }
  return loaded;
}

/** True when the module compiles and instantiates in this runtime (tried once). */
export function wasmLoads(): boolean {
  return load() !== null;
}

/** Why the module could not load, when it could not. */
export function wasmLoadError(): Error | undefined {
  load();
  return loadError;
}

// Below this many bytes a byte loop beats creating a subarray for set()
// (measured: at 64 bytes set() is already faster, at 20 the loop).
const LOOP_COPY_LIMIT = 32;

function copyIn(bytes: Uint8Array, data: Uint8Array, from: number, length: number): void {
  if (length <= LOOP_COPY_LIMIT) {
    for (let i = 0; i < length; i++) bytes[DATA_OFFSET + i] = data[from + i]!;
  } else {
    bytes.set(data.subarray(from, from + length), DATA_OFFSET);
  }
}

function loadState(view: DataView, state: Uint32Array): void {
  // State crosses as little-endian words (wasm memory order), whatever the host order.
  view.setUint32(0, state[0]!, true);
  view.setUint32(4, state[1]!, true);
  view.setUint32(8, state[2]!, true);
  view.setUint32(12, state[3]!, true);
  view.setUint32(16, state[4]!, true);
}

function wasmOrThrow(): Sha1WasmInstance {
  const w = loaded ?? load();
  if (w === null) throw new Error(`sha1-dispatch: the wasm backend cannot load: ${loadError?.message}`);
  return w;
}

/**
 * Finishes a hash in one pass through linear memory: starting from `state`
 * after `priorLength` bytes, the message and its padding are laid out there
 * and compressed with one call when they fit, so a small message costs one
 * copy and one call instead of two of each. `state` is left unchanged.
 */
export function finishFrom(
  state: Uint32Array,
  priorLength: number,
  msg: Uint8Array,
  out: Uint8Array,
  offset: number,
): void {
  const w = wasmOrThrow();
  const { bytes, view } = w;
  const len = msg.length;
  const full = Math.floor(len / 64);
  const rest = len - full * 64;
  const tailBlocks = rest < 56 ? 1 : 2;
  const total = priorLength + len;
  loadState(view, state);
  let tailAt = DATA_OFFSET;
  if (full + tailBlocks <= MAX_BLOCKS) {
    copyIn(bytes, msg, 0, len);
    tailAt = DATA_OFFSET + full * 64;
  } else {
    let p = 0;
    for (let left = full; left > 0; ) {
      const n = Math.min(left, MAX_BLOCKS);
      copyIn(bytes, msg, p, n * 64);
      w.blocks(DATA_OFFSET, n);
      p += n * 64;
      left -= n;
    }
    for (let i = 0; i < rest; i++) bytes[DATA_OFFSET + i] = msg[p + i]!;
  }
  const end = tailAt + tailBlocks * 64;
  bytes[tailAt + rest] = 0x80;
  bytes.fill(0, tailAt + rest + 1, end - 8);
  view.setUint32(end - 8, Math.floor(total / 0x20000000), false);
  view.setUint32(end - 4, (total * 8) >>> 0, false);
  w.blocks(DATA_OFFSET, (end - DATA_OFFSET) / 64);
  for (let i = 0; i < 5; i++) {
    const word = view.getUint32(4 * i, true);
    out[offset + 4 * i] = word >>> 24;
    out[offset + 4 * i + 1] = word >>> 16;
    out[offset + 4 * i + 2] = word >>> 8;
    out[offset + 4 * i + 3] = word;
  }
}

/** sha1_block_data_order in WebAssembly. */
export function blockDataOrder(state: Uint32Array, data: Uint8Array, offset: number, blocks: number): void {
  const w = wasmOrThrow();
  const { bytes, view } = w;
  loadState(view, state);
  let p = offset;
  let left = blocks;
  while (left > 0) {
    const n = Math.min(left, MAX_BLOCKS);
    copyIn(bytes, data, p, n * 64);
    w.blocks(DATA_OFFSET, n);
    p += n * 64;
    left -= n;
  }
  state[0] = view.getUint32(0, true);
  state[1] = view.getUint32(4, true);
  state[2] = view.getUint32(8, true);
  state[3] = view.getUint32(12, true);
  state[4] = view.getUint32(16, true);
}

/** The module's linear memory, for tests that check what is left in it. */
export function wasmMemoryForTests(): Uint8Array | undefined {
  return load()?.bytes;
}

/** Zeroes the state words and the first blocks of the data area (where key blocks land). */
export function clearScratch(): void {
  if (loaded) loaded.bytes.fill(0, 0, DATA_OFFSET + 128);
}

export const wasmCompressor: Sha1Compressor = { name: 'wasm', blockDataOrder, finishFrom, clearScratch };
