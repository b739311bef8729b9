// The one implementation of the public BlockCipher methods: argument checks,
// the destroyed-state guard, and CBC chaining derived from the block
// primitive. Backends extend it and supply raw block functions (and may
// override the raw CBC loops with faster ones).
import { checkBlockArgs, checkCbcArgs } from './input-checks.js';
import type { AesBackendInfo, BlockCipher } from './types.js';

// Chaining scratch for the derived CBC decryption (src === dst needs the
// ciphertext block saved before it is overwritten). Module-level so a CBC
// call allocates nothing; JavaScript is single-threaded and nothing re-enters
// these loops. Wiped after each call.
const savedCipherBlock = new Uint8Array(16);
const previousCipherBlock = new Uint8Array(16);

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
    if (this.destroyed) throw new Error(`AES-${this.keyBits} cipher (${this.backend.name}) was destroyed; create a new one`);
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
