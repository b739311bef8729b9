// The one implementation of the public BlockCipher methods: argument checks,
// the destroyed-state guard, and CBC chaining derived from the block
// primitive. Backends extend it and supply raw block functions (and may
// override the raw CBC loops with faster ones).
import { checkBlockArgs, checkCbcArgs, checkCbcMacArgs } from './input-checks.js';
import { DestroyedError } from './layer-shared.generated.js';
import type { AesBackendInfo, BlockCipher } from './types.js';

// Chaining scratch for the derived CBC decryption (src === dst needs the
// ciphertext block saved before it is overwritten). Module-level so a CBC
// call allocates nothing; JavaScript is single-threaded and nothing re-enters
// these loops. Wiped after each call.
const savedCipherBlock = new Uint8Array(16);
const previousCipherBlock = new Uint8Array(16);

// Scratch of the derived cbcMacWords: the chaining block as bytes, and the
// output of the bulk CBC calls (only their last block is needed). Wiped after
// each call, like the two above.
const macBlock = new Uint8Array(16);
const MAC_BULK_CHUNK_BYTES = 4096;
let macBulkOutput: Uint8Array | undefined;

/** bytes[0..16) = the four little-endian state words of cbcMacWords. */
function stateToBytes(state: Int32Array, bytes: Uint8Array): void {
  for (let j = 0; j < 4; j++) {
    const w = state[j]!;
    bytes[4 * j] = w;
    bytes[4 * j + 1] = w >>> 8;
    bytes[4 * j + 2] = w >>> 16;
    bytes[4 * j + 3] = w >>> 24;
  }
}

function bytesToState(bytes: Uint8Array, off: number, state: Int32Array): void {
  for (let j = 0; j < 4; j++) {
    const o = off + 4 * j;
    state[j] = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24);
  }
}

export abstract class AesCipherBase implements BlockCipher {
  readonly keyBits: 128 | 192 | 256;
  protected destroyed = false;

  constructor(keyBytes: number) {
    this.keyBits = (keyBytes * 8) as 128 | 192 | 256;
  }

  get blockSize(): 16 {
    return 16;
  }

  abstract get backend(): AesBackendInfo;

  /** Encrypts src[srcOff..+16) into dst[dstOff..+16); must allow the two ranges to be the same. */
  protected abstract encryptRaw(src: Uint8Array, srcOff: number, dst: Uint8Array, dstOff: number): void;
  protected abstract decryptRaw(src: Uint8Array, srcOff: number, dst: Uint8Array, dstOff: number): void;
  /** Overwrites every key-dependent array with zeros. */
  protected abstract wipe(): void;

  protected assertUsable(): void {
    if (this.destroyed)
      throw new DestroyedError(`AES-${this.keyBits} cipher (${this.backend.name}) was destroyed; create a new one`);
  }

  encryptBlock(src: Uint8Array, dst: Uint8Array): void {
    this.assertUsable();
    checkBlockArgs(src, dst);
    this.encryptRaw(src, 0, dst, 0);
  }

  decryptBlock(src: Uint8Array, dst: Uint8Array): void {
    this.assertUsable();
    checkBlockArgs(src, dst);
    this.decryptRaw(src, 0, dst, 0);
  }

  cbcEncrypt(iv: Uint8Array, src: Uint8Array, dst?: Uint8Array): Uint8Array {
    this.assertUsable();
    const { input, output } = checkCbcArgs(iv, src, dst);
    this.cbcEncryptRaw(iv, input, output);
    return output;
  }

  cbcDecrypt(iv: Uint8Array, src: Uint8Array, dst?: Uint8Array): Uint8Array {
    this.assertUsable();
    const { input, output } = checkCbcArgs(iv, src, dst);
    this.cbcDecryptRaw(iv, input, output);
    return output;
  }

  cbcMacWords(state: Int32Array, data: Uint8Array, offset: number, blocks: number, lastBlockMask?: Int32Array): void {
    this.assertUsable();
    checkCbcMacArgs(state, data, offset, blocks, lastBlockMask);
    this.cbcMacRaw(state, data, offset, blocks, lastBlockMask);
  }

  /**
   * From this many blocks on, the derived cbcMacRaw runs the backend's CBC
   * encryption (with the chaining value as IV it computes the same chain)
   * instead of one block call per block. A backend whose block call is dear
   * (node: one OpenSSL call each) lowers it.
   */
  protected get cbcMacBulkBlocks(): number {
    return 16;
  }

  /** cbcMacWords after the checks, derived from the block and CBC primitives. */
  protected cbcMacRaw(
    state: Int32Array,
    data: Uint8Array,
    offset: number,
    blocks: number,
    mask: Int32Array | undefined,
  ): void {
    const b = macBlock;
    stateToBytes(state, b);
    let pos = offset;
    const end = offset + 16 * blocks;
    // The masked last block (if any) is always chained on its own, below.
    const bulkEnd = mask === undefined ? end : end - 16;
    if (blocks >= this.cbcMacBulkBlocks) {
      const scratch = (macBulkOutput ??= new Uint8Array(MAC_BULK_CHUNK_BYTES));
      let used = 0;
      while (pos < bulkEnd) {
        const len = Math.min(MAC_BULK_CHUNK_BYTES, bulkEnd - pos);
        const out = len === MAC_BULK_CHUNK_BYTES ? scratch : scratch.subarray(0, len);
        this.cbcEncryptRaw(b, data.subarray(pos, pos + len), out);
        for (let i = 0; i < 16; i++) b[i] = out[len - 16 + i]!;
        used = Math.max(used, len);
        pos += len;
      }
      scratch.fill(0, 0, used);
    }
    for (; pos < end; pos += 16) {
      if (mask !== undefined && pos === end - 16) {
        for (let j = 0; j < 4; j++) {
          const m = mask[j]!;
          b[4 * j]! ^= m;
          b[4 * j + 1]! ^= m >>> 8;
          b[4 * j + 2]! ^= m >>> 16;
          b[4 * j + 3]! ^= m >>> 24;
        }
      }
      for (let i = 0; i < 16; i++) b[i]! ^= data[pos + i]!;
      this.encryptRaw(b, 0, b, 0);
    }
    bytesToState(b, 0, state);
    b.fill(0);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.wipe();
    this.destroyed = true;
  }

  /** C_i = E(P_i xor C_{i-1}), built in dst in place. `output` may be `input`. */
  protected cbcEncryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    let prev = iv;
    let prevOff = 0;
    for (let off = 0; off < input.length; off += 16) {
      for (let i = 0; i < 16; i++) output[off + i] = input[off + i]! ^ prev[prevOff + i]!;
      this.encryptRaw(output, off, output, off);
      prev = output;
      prevOff = off;
    }
  }

  /** P_i = D(C_i) xor C_{i-1}; C_i is saved first because output may be input. */
  protected cbcDecryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    let prev = previousCipherBlock;
    let saved = savedCipherBlock;
    prev.set(iv);
    for (let off = 0; off < input.length; off += 16) {
      for (let i = 0; i < 16; i++) saved[i] = input[off + i]!;
      this.decryptRaw(input, off, output, off);
      for (let i = 0; i < 16; i++) output[off + i] ^= prev[i]!;
      const t = prev;
      prev = saved;
      saved = t;
    }
    savedCipherBlock.fill(0);
    previousCipherBlock.fill(0);
  }
}
