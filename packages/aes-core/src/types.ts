// The type-only seam of the AES layer. cmac and esp import these with
// `import type`, never a backend, so any BlockCipher can be swapped in.

/** What a backend is: reported on every cipher and recorded in bench results. */
export interface AesBackendInfo {
  readonly name: string;
  /** No secret-dependent memory access or branches in this backend's code. */
  readonly constantTime: boolean;
  /** Runs outside JavaScript (OpenSSL through node:crypto). */
  readonly native: boolean;
}

/**
 * One expanded AES key (the "preloaded key"). Block views are 16 bytes and
 * may alias (src === dst). CBC lengths must be a multiple of 16 (no padding).
 */
export interface BlockCipher {
  readonly blockSize: 16;
  readonly keyBits: 128 | 192 | 256;
  readonly backend: AesBackendInfo;
  encryptBlock(src: Uint8Array, dst: Uint8Array): void;
  decryptBlock(src: Uint8Array, dst: Uint8Array): void;
  cbcEncrypt(iv: Uint8Array, src: Uint8Array, dst?: Uint8Array): Uint8Array;
  cbcDecrypt(iv: Uint8Array, src: Uint8Array, dst?: Uint8Array): Uint8Array;
  /**
   * CBC-MAC chaining, the inner loop of MACs such as CMAC: for each of the
   * `blocks` 16-byte blocks of `data` from byte `offset`,
   * state = E_K(state xor block). Nothing is written but `state`: four
   * 32-bit words holding the 16 chaining bytes little-endian (byte 4j + i of
   * the block is bits 8i..8i+7 of state[j], on every host). `blocks` may be 0.
   * `lastBlockMask` (same layout), when given, is XORed into the state just
   * before the last block: CMAC's subkey, so a whole message whose last
   * block is complete takes one call.
   *
   * Optional in this seam: every aes-core backend has it since 0.2.0, and a
   * MAC layer must fall back to encryptBlock for a cipher without it (an
   * older aes-core swapped in by a bisection, another library's cipher).
   */
  cbcMacWords?(state: Int32Array, data: Uint8Array, offset: number, blocks: number, lastBlockMask?: Int32Array): void;
  /** Wipes the key schedule; any later call throws. */
  destroy(): void;
}

/** Builds a BlockCipher from a raw key: the shape cmac and esp accept. */
export type BlockCipherFactory = (key: Uint8Array) => BlockCipher;

/** One dispatch decision, in the shape every layer reports and bench-runner records. */
export interface DispatchDecision {
  readonly layer: string;
  readonly decision: string;
  readonly impl: string;
  readonly reason: string;
}

/** What `aesBackends()` reports for each backend. */
export interface AesBackendStatus extends AesBackendInfo {
  readonly available: boolean;
}

/**
 * One backend module (`src/backends/<name>.ts`): every backend exports one
 * object of this shape. `expandKey` receives a key already checked to be a
 * Uint8Array of 16, 24 or 32 bytes.
 */
export interface AesBackend {
  readonly info: AesBackendInfo;
  available(): boolean;
  expandKey(key: Uint8Array): BlockCipher;
}

/** Options of `createAes`. */
export interface CreateAesOptions {
  /** Backend name: 'table', 'ct', 'bitsliced' or 'node' (see aesBackends()); default: the dispatcher's choice. */
  impl?: string;
  /**
   * @deprecated since 0.2: use `impl`. Still read (a bisection mixes layer
   * versions, and older callers pass it); naming another backend than `impl`
   * throws.
   */
  backend?: string;
}
