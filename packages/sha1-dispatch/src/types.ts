// The type-only seam of the SHA-1 layer. esp imports these with `import type`.

/**
 * A SHA-1 compression function with the contract of OpenSSL's
 * sha1_block_data_order: process `blocks` 64-byte blocks of `data` starting at
 * `offset`, updating the five-word `state` in place.
 */
export interface Sha1Compressor {
  readonly name: string;
  blockDataOrder(state: Uint32Array, data: Uint8Array, offset: number, blocks: number): void;
  /**
   * Optional whole-tail fast path: finish a hash that started from `state`
   * after `priorLength` bytes (a multiple of 64) by absorbing all of `msg` and
   * the padding, writing the 20-byte digest to out[offset..). `state` is not
   * modified. Backends with a per-call cost (wasm) provide it so a message
   * costs one call; without it the caller runs blockDataOrder twice.
   */
  finishFrom?(state: Uint32Array, priorLength: number, msg: Uint8Array, out: Uint8Array, offset: number): void;
  /**
   * Optional: overwrite the backend's own copies of recently processed data
   * and state (wasm's linear memory). HMAC calls it after compressing the key
   * blocks and on destroy().
   */
  clearScratch?(): void;
}

/** A streaming hash (SHA-1) object. */
export interface Sha1Hash {
  readonly impl: string;
  readonly outputLength: 20;
  readonly blockLength: 64;
  update(data: Uint8Array): this;
  digest(): Uint8Array;
  /** Writes the digest into out[offset..offset+20) without allocating. */
  digestInto(out: Uint8Array, offset?: number): void;
  reset(): this;
  clone(): Sha1Hash;
}

/** A pre-keyed HMAC-SHA1 object: mac/reset/clone never re-hash the key. */
export interface HmacSha1 {
  readonly impl: string;
  /** Tag length in bytes (20 unless truncated). */
  readonly tagLength: number;
  update(data: Uint8Array): this;
  digest(): Uint8Array;
  /** Writes the (possibly truncated) tag into out[offset..) without allocating. */
  digestInto(out: Uint8Array, offset?: number): void;
  reset(): this;
  clone(): HmacSha1;
  /** reset + update + digest. */
  mac(msg: Uint8Array): Uint8Array;
  /** Constant-time comparison of mac(msg) with tag. */
  verify(msg: Uint8Array, tag: Uint8Array): boolean;
  destroy(): void;
}

/** Builds a pre-keyed HMAC-SHA1: the shape esp accepts for its sha1 layer. */
export type HmacSha1Factory = (key: Uint8Array, options?: { tagLength?: number }) => HmacSha1;

export interface DispatchDecision {
  readonly layer: string;
  readonly decision: string;
  readonly impl: string;
  readonly reason: string;
}
