// SHA-1 message handling over any block function: buffering, length padding,
// clone/reset/digestInto. One class serves every block backend (generic,
// unrolled, wasm); the backends differ only in blockDataOrder.
import { checkBytes } from './layer-shared.generated.js';
import type { Sha1Compressor, Sha1Hash } from './types.js';

export const SHA1_IV: readonly number[] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];

export function checkOutput(out: unknown, offset: number, length: number): asserts out is Uint8Array {
  checkBytes(out, 'digestInto: out');
  if (!Number.isInteger(offset) || offset < 0 || offset + length > out.length) {
    throw new RangeError(`digestInto: need ${length} bytes at offset ${offset}, out has ${out.length}`);
  }
}

export function writeStateBigEndian(state: Uint32Array, out: Uint8Array, offset: number): void {
  for (let i = 0; i < 5; i++) {
    const w = state[i]!;
    const o = offset + 4 * i;
    out[o] = w >>> 24;
    out[o + 1] = w >>> 16;
    out[o + 2] = w >>> 8;
    out[o + 3] = w;
  }
}

/** Writes the 64-bit big-endian bit count of `byteLength` bytes at out[offset..offset+8). */
function writeBitLength(out: Uint8Array, offset: number, byteLength: number): void {
  const high = Math.floor(byteLength / 0x20000000);
  const low = (byteLength * 8) >>> 0;
  out[offset] = high >>> 24;
  out[offset + 1] = high >>> 16;
  out[offset + 2] = high >>> 8;
  out[offset + 3] = high;
  out[offset + 4] = low >>> 24;
  out[offset + 5] = low >>> 16;
  out[offset + 6] = low >>> 8;
  out[offset + 7] = low;
}

/** A streaming SHA-1 over a block function. */
export class BlockSha1 implements Sha1Hash {
  readonly outputLength = 20 as const;
  readonly blockLength = 64 as const;
  readonly impl: string;
  private readonly compressor: Sha1Compressor;
  private readonly state = new Uint32Array(5);
  // 128 bytes: the final padding may need two blocks, compressed in one call.
  private readonly buffer = new Uint8Array(128);
  private buffered = 0;
  /** Bytes absorbed so far, including any key block an HMAC started from. */
  private length = 0;
  private finished = false;

  constructor(compressor: Sha1Compressor) {
    this.compressor = compressor;
    this.impl = compressor.name;
    this.reset();
  }

  /** Restart from a saved chaining state that has absorbed `length` bytes (a multiple of 64): HMAC's keyed start. */
  restartFrom(state: Uint32Array, length: number): this {
    this.state.set(state);
    this.length = length;
    this.buffered = 0;
    this.finished = false;
    return this;
  }

  update(data: Uint8Array): this {
    checkBytes(data, 'sha1 update: data');
    if (this.finished) throw new Error('sha1: update() after digest(); call reset() first');
    const len = data.length;
    let pos = 0;
    this.length += len;
    if (this.buffered > 0) {
      const take = Math.min(64 - this.buffered, len);
      const buf = this.buffer;
      for (let i = 0, at = this.buffered; i < take; i++) buf[at + i] = data[i]!;
      this.buffered += take;
      pos = take;
      if (this.buffered < 64) return this;
      this.compressor.blockDataOrder(this.state, this.buffer, 0, 1);
      this.buffered = 0;
    }
    // Whole blocks go straight from the caller's array: one call for all of them.
    const blocks = Math.floor((len - pos) / 64);
    if (blocks > 0) {
      this.compressor.blockDataOrder(this.state, data, pos, blocks);
      pos += blocks * 64;
    }
    if (pos < len) {
      const buf = this.buffer;
      for (let i = 0; pos + i < len; i++) buf[i] = data[pos + i]!;
      this.buffered = len - pos;
    }
    return this;
  }

  digestInto(out: Uint8Array, offset = 0): void {
    checkOutput(out, offset, 20);
    if (this.finished) throw new Error('sha1: digest() called twice; call reset() first');
    this.finished = true;
    const buf = this.buffer;
    const n = this.buffered;
    const blocks = n < 56 ? 1 : 2;
    buf[n] = 0x80;
    buf.fill(0, n + 1, blocks * 64 - 8);
    writeBitLength(buf, blocks * 64 - 8, this.length);
    this.compressor.blockDataOrder(this.state, buf, 0, blocks);
    writeStateBigEndian(this.state, out, offset);
  }

  digest(): Uint8Array {
    const out = new Uint8Array(20);
    this.digestInto(out, 0);
    return out;
  }

  reset(): this {
    for (let i = 0; i < 5; i++) this.state[i] = SHA1_IV[i]!;
    this.buffered = 0;
    this.length = 0;
    this.finished = false;
    return this;
  }

  clone(): BlockSha1 {
    const copy = new BlockSha1(this.compressor);
    copy.state.set(this.state);
    copy.buffer.set(this.buffer);
    copy.buffered = this.buffered;
    copy.length = this.length;
    copy.finished = this.finished;
    return copy;
  }

  /** Marks the hash finished (as after digest()), for callers that finished it another way. */
  markFinished(): void {
    this.buffered = 0;
    this.finished = true;
  }

  /** Overwrites the chaining state and buffered data (HMAC's destroy). */
  wipe(): void {
    this.state.fill(0);
    this.buffer.fill(0);
    this.buffered = 0;
    this.length = 0;
    this.finished = true;
  }
}

// Scratch for finishing hashes, reused across calls: a one-shot hash allocates
// only its 20-byte result. Safe because block functions never call back out.
const finishState = new Uint32Array(5);
const finishTail = new Uint8Array(128);

/**
 * Finishes a hash that started from `state` after `priorLength` bytes (a
 * multiple of 64): all of `msg`, then the padding. Uses the backend's own
 * finishFrom when it has one; otherwise full blocks go in one blockDataOrder
 * call straight from `msg` and the padded tail in a second. `state` is not modified.
 */
export function finishFrom(
  compressor: Sha1Compressor,
  state: ArrayLike<number>,
  priorLength: number,
  msg: Uint8Array,
  out: Uint8Array,
  offset: number,
): void {
  const st = finishState;
  st[0] = state[0]!;
  st[1] = state[1]!;
  st[2] = state[2]!;
  st[3] = state[3]!;
  st[4] = state[4]!;
  if (compressor.finishFrom !== undefined) {
    compressor.finishFrom(st, priorLength, msg, out, offset);
    // The copy may be an HMAC's keyed state: do not leave it in module scratch.
    st.fill(0);
    return;
  }
  const len = msg.length;
  const full = Math.floor(len / 64);
  if (full > 0) compressor.blockDataOrder(st, msg, 0, full);
  const rest = len - full * 64;
  const tail = finishTail;
  // A byte loop, not set(subarray()): creating a subarray costs more than copying < 64 bytes.
  for (let i = 0, base = full * 64; i < rest; i++) tail[i] = msg[base + i]!;
  tail[rest] = 0x80;
  const tailBlocks = rest < 56 ? 1 : 2;
  tail.fill(0, rest + 1, tailBlocks * 64 - 8);
  writeBitLength(tail, tailBlocks * 64 - 8, priorLength + len);
  compressor.blockDataOrder(st, tail, 0, tailBlocks);
  writeStateBigEndian(st, out, offset);
  tail.fill(0, 0, rest);
}

/** SHA-1 of a whole message with one block function. */
export function sha1WithCompressor(
  compressor: Sha1Compressor,
  msg: Uint8Array,
  out: Uint8Array = new Uint8Array(20),
  offset = 0,
): Uint8Array {
  finishFrom(compressor, SHA1_IV, 0, msg, out, offset);
  return out;
}
