// HMAC-SHA1 (RFC 2104) with pre-keyed inner and outer states: the key is
// absorbed once at creation, so mac(), reset() and clone() never touch it again.
// Two engines share one base: chaining states over a block function, and
// node:crypto Hash templates duplicated with Hash#copy().
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { DestroyedError, checkBytes, constantTimeEqual } from './layer-shared.generated.js';
import { BlockSha1, checkOutput, finishFrom, SHA1_IV, sha1WithCompressor } from './sha1-hash.js';
import type { HmacSha1, Sha1Compressor } from './types.js';

export const HMAC_SHA1_MIN_TAG = 10;
export const HMAC_SHA1_MAX_TAG = 20;

/**
 * RFC 2104 section 5: a truncated tag keeps at least half the hash output and
 * at least 80 bits, so 10..20 bytes for SHA-1.
 */
export function checkTagLength(tagLength: unknown): number {
  if (tagLength === undefined) return HMAC_SHA1_MAX_TAG;
  if (
    typeof tagLength !== 'number' ||
    !Number.isInteger(tagLength) ||
    tagLength < HMAC_SHA1_MIN_TAG ||
    tagLength > HMAC_SHA1_MAX_TAG
  ) {
    throw new RangeError(
      `HMAC-SHA1 tag length must be an integer from ${HMAC_SHA1_MIN_TAG} to ${HMAC_SHA1_MAX_TAG} bytes ` +
        `(RFC 2104: at least half the output and at least 80 bits), got ${String(tagLength)}`,
    );
  }
  return tagLength;
}

/**
 * The key blocks K ^ ipad and K ^ opad; keys over 64 bytes are hashed first
 * (RFC 2104 section 2), once for both.
 */
function keyBlocks(key: Uint8Array, hashKey: (k: Uint8Array) => Uint8Array): { ipad: Uint8Array; opad: Uint8Array } {
  const k = key.length > 64 ? hashKey(key) : key;
  const ipad = new Uint8Array(64).fill(0x36);
  const opad = new Uint8Array(64).fill(0x5c);
  for (let i = 0; i < k.length; i++) {
    ipad[i] = k[i]! ^ 0x36;
    opad[i] = k[i]! ^ 0x5c;
  }
  if (k !== key) k.fill(0);
  return { ipad, opad };
}

// Transient scratch shared by every HMAC object, so a keyed object holds only
// its two chaining states and its stream (the "how much memory does a ctx
// take?" question of the CMAC seed). Safe because JS runs one call at a time
// and block functions never call back; wiped after each use.
const innerDigestScratch = new Uint8Array(20);
const fullTagScratch = new Uint8Array(20);

abstract class HmacSha1Base implements HmacSha1 {
  abstract readonly impl: string;
  readonly tagLength: number;
  protected destroyed = false;

  constructor(tagLength: number) {
    this.tagLength = tagLength;
  }

  abstract update(data: Uint8Array): this;
  abstract reset(): this;
  abstract clone(): HmacSha1;
  protected abstract fullTagInto(out: Uint8Array, offset: number): void;
  protected abstract wipe(): void;

  protected checkLive(): void {
    if (this.destroyed) throw new DestroyedError('HMAC-SHA1: this object was destroyed');
  }

  digestInto(out: Uint8Array, offset = 0): void {
    this.checkLive();
    checkOutput(out, offset, this.tagLength);
    if (this.tagLength === 20) {
      this.fullTagInto(out, offset);
      return;
    }
    this.fullTagInto(fullTagScratch, 0);
    for (let i = 0; i < this.tagLength; i++) out[offset + i] = fullTagScratch[i]!;
    fullTagScratch.fill(0);
  }

  digest(): Uint8Array {
    const out = new Uint8Array(this.tagLength);
    this.digestInto(out, 0);
    return out;
  }

  mac(msg: Uint8Array): Uint8Array {
    return this.reset().update(msg).digest();
  }

  verify(msg: Uint8Array, tag: Uint8Array): boolean {
    checkBytes(tag, 'HMAC-SHA1 verify: tag');
    const computed = this.mac(msg);
    const ok = constantTimeEqual(computed, tag);
    computed.fill(0);
    return ok;
  }

  destroy(): void {
    this.wipe();
    this.destroyed = true;
  }
}

/** HMAC-SHA1 over a block function: inner/outer chaining states computed once. */
export class BlockHmacSha1 extends HmacSha1Base {
  readonly impl: string;
  private readonly compressor: Sha1Compressor;
  private readonly innerState: Uint32Array;
  private readonly outerState: Uint32Array;
  private readonly hash: BlockSha1;

  constructor(compressor: Sha1Compressor, key: Uint8Array | null, tagLength: number, from?: BlockHmacSha1) {
    super(tagLength);
    this.compressor = compressor;
    this.impl = compressor.name;
    if (from) {
      // A clone continues the message in progress; the key states are copied
      // (40 bytes), not shared, so destroying one object leaves the other intact.
      this.innerState = from.innerState.slice();
      this.outerState = from.outerState.slice();
      this.hash = from.hash.clone();
    } else {
      this.hash = new BlockSha1(compressor);
      const hashKey = (k: Uint8Array) => sha1WithCompressor(compressor, k);
      const { ipad, opad } = keyBlocks(key!, hashKey);
      this.innerState = this.keyState(ipad);
      this.outerState = this.keyState(opad);
      compressor.clearScratch?.();
      this.hash.restartFrom(this.innerState, 64);
    }
  }

  private keyState(block: Uint8Array): Uint32Array {
    const state = Uint32Array.from(SHA1_IV);
    this.compressor.blockDataOrder(state, block, 0, 1);
    block.fill(0);
    return state;
  }

  update(data: Uint8Array): this {
    this.checkLive();
    checkBytes(data, 'HMAC-SHA1 update: data');
    this.hash.update(data);
    return this;
  }

  reset(): this {
    this.checkLive();
    this.hash.restartFrom(this.innerState, 64);
    return this;
  }

  /**
   * reset + update + digest without the streaming buffer: the message is
   * finished straight from the keyed inner state (one call for wasm), then
   * the outer hash from the keyed outer state.
   */
  override mac(msg: Uint8Array): Uint8Array {
    this.checkLive();
    checkBytes(msg, 'HMAC-SHA1 mac: message');
    const out = new Uint8Array(this.tagLength);
    const inner = innerDigestScratch;
    finishFrom(this.compressor, this.innerState, 64, msg, inner, 0);
    if (this.tagLength === 20) {
      finishFrom(this.compressor, this.outerState, 64, inner, out, 0);
    } else {
      const full = fullTagScratch;
      finishFrom(this.compressor, this.outerState, 64, inner, full, 0);
      for (let i = 0; i < this.tagLength; i++) out[i] = full[i]!;
      full.fill(0);
    }
    inner.fill(0);
    // As after reset + update + digest: the stream is finished until reset().
    this.hash.restartFrom(this.innerState, 64).markFinished();
    return out;
  }

  protected fullTagInto(out: Uint8Array, offset: number): void {
    this.hash.digestInto(innerDigestScratch, 0);
    finishFrom(this.compressor, this.outerState, 64, innerDigestScratch, out, offset);
    innerDigestScratch.fill(0);
  }

  clone(): BlockHmacSha1 {
    this.checkLive();
    return new BlockHmacSha1(this.compressor, null, this.tagLength, this);
  }

  protected wipe(): void {
    this.innerState.fill(0);
    this.outerState.fill(0);
    this.hash.wipe();
    this.compressor.clearScratch?.();
  }
}

/** HMAC-SHA1 over node:crypto: Hash objects that have absorbed the key blocks, copied per message. */
export class NodeHmacSha1 extends HmacSha1Base {
  readonly impl = 'node';
  private inner: Hash | undefined;
  private outer: Hash | undefined;
  private current: Hash | undefined;
  private finished = false;

  constructor(key: Uint8Array | null, tagLength: number, from?: NodeHmacSha1) {
    super(tagLength);
    if (from) {
      this.inner = from.inner;
      this.outer = from.outer;
      this.current = from.finished ? from.inner!.copy() : from.current!.copy();
      this.finished = from.finished;
    } else {
      const hashKey = (k: Uint8Array) => new Uint8Array(createHash('sha1').update(k).digest());
      const { ipad, opad } = keyBlocks(key!, hashKey);
      this.inner = createHash('sha1').update(ipad);
      this.outer = createHash('sha1').update(opad);
      ipad.fill(0);
      opad.fill(0);
      this.current = this.inner.copy();
    }
  }

  update(data: Uint8Array): this {
    this.checkLive();
    checkBytes(data, 'HMAC-SHA1 update: data');
    if (this.finished) throw new Error('HMAC-SHA1: update() after digest(); call reset() first');
    this.current!.update(data);
    return this;
  }

  reset(): this {
    this.checkLive();
    this.current = this.inner!.copy();
    this.finished = false;
    return this;
  }

  protected fullTagInto(out: Uint8Array, offset: number): void {
    if (this.finished) throw new Error('HMAC-SHA1: digest() called twice; call reset() first');
    this.finished = true;
    const innerDigest = this.current!.digest();
    out.set(this.outer!.copy().update(innerDigest).digest(), offset);
    innerDigest.fill(0);
  }

  clone(): NodeHmacSha1 {
    this.checkLive();
    return new NodeHmacSha1(null, this.tagLength, this);
  }

  protected wipe(): void {
    // OpenSSL's copies of the key state cannot be overwritten from JS: drop them.
    this.inner = undefined;
    this.outer = undefined;
    this.current = undefined;
  }
}
