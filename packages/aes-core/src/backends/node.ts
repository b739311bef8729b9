// AES through node:crypto (OpenSSL; AES-NI where the CPU has it). Every
// OpenSSL context is created once per key and kept: single blocks go through
// an ECB context (padding off), CBC through one encryption and one decryption
// context whose chaining state is corrected for each call's IV (see
// CbcChain), because creating a context costs more than encrypting a few
// kilobytes with AES-NI.
import { createCipheriv, createDecipheriv, getCiphers } from 'node:crypto';
import type { Cipher, Decipher } from 'node:crypto';
import { AesCipherBase } from '../cipher-base.js';
import type { AesBackend, AesBackendInfo } from '../types.js';

// constantTime is not claimed: OpenSSL's AES-NI and vpaes paths are constant-time,
// but its fallback table code is not, and node does not say which one it picked.
const info: AesBackendInfo = Object.freeze({ name: 'node', constantTime: false, native: true });

let supported: boolean | undefined;

function nodeAesAvailable(): boolean {
  if (supported === undefined) {
    try {
      const names = new Set(getCiphers());
      supported = ['128', '192', '256'].every((b) => names.has(`aes-${b}-ecb`) && names.has(`aes-${b}-cbc`));
    } catch {
      supported = false;
    }
  }
  return supported;
}

// CBC encryption inputs up to this length are copied whole so the corrected
// first block and the rest go to OpenSSL in one update() call.
const WHOLE_COPY_MAX = 1024;

/**
 * An OpenSSL CBC context kept open across calls, with the chaining value it
 * holds (the last ciphertext block it produced or consumed; zero when new,
 * because it is created with a zero IV). A call with IV v makes the context's
 * chaining value c look like v by XOR-ing (v xor c) into the first block:
 * into the first plaintext block before encryption (E(P1 xor v) =
 * E((P1 xor v xor c) xor c)), into the first output block after decryption
 * (D(C1) xor v = (D(C1) xor c) xor (c xor v)). Padding is off, so update()
 * returns every block at once and final() is never called.
 */
interface CbcChain<C extends Cipher | Decipher> {
  context: C;
  /** The context's chaining value (16 bytes). */
  chain: Uint8Array;
}

/**
 * One key held by OpenSSL: an ECB context for single blocks (decryption
 * context on first use) and one CBC context per direction, on first use.
 * The raw key is kept (a copy, wiped by destroy) to create those lazily;
 * OpenSSL's own copies are freed when the contexts are garbage-collected,
 * which JavaScript cannot force.
 */
class NodeAesCipher extends AesCipherBase {
  private key: Uint8Array;
  private readonly ecbName: string;
  private readonly cbcName: string;
  private enc: Cipher | undefined;
  private dec: Decipher | undefined;
  private cbcEnc: CbcChain<Cipher> | undefined = undefined;
  private cbcDec: CbcChain<Decipher> | undefined = undefined;

  constructor(key: Uint8Array) {
    super(key.length);
    this.key = Uint8Array.from(key);
    this.ecbName = `aes-${key.length * 8}-ecb`;
    this.cbcName = `aes-${key.length * 8}-cbc`;
    this.enc = createCipheriv(this.ecbName, this.key, null).setAutoPadding(false);
  }

  get backend(): AesBackendInfo {
    return info;
  }

  protected encryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    const out = this.enc!.update(so === 0 && src.length === 16 ? src : src.subarray(so, so + 16));
    dst.set(out, dOff);
  }

  protected decryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    this.dec ??= createDecipheriv(this.ecbName, this.key, null).setAutoPadding(false);
    const out = this.dec.update(so === 0 && src.length === 16 ? src : src.subarray(so, so + 16));
    dst.set(out, dOff);
  }

  // Two blocks in one OpenSSL CBC call already cost less than two ECB calls.
  protected override get cbcMacBulkBlocks(): number {
    return 2;
  }

  protected override cbcEncryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const n = input.length;
    if (n === 0) return;
    const s = (this.cbcEnc ??= {
      context: createCipheriv(this.cbcName, this.key, new Uint8Array(16)).setAutoPadding(false),
      chain: new Uint8Array(16),
    });
    const chain = s.chain;
    // The caller's input is never modified: the corrected first block is in a
    // copy. Short inputs are copied whole (one update() call); long ones pass
    // the copied first block and the rest of input as two calls.
    const whole = n <= WHOLE_COPY_MAX;
    const first = whole ? new Uint8Array(input) : new Uint8Array(16);
    for (let i = 0; i < 16; i++) first[i] = input[i]! ^ iv[i]! ^ chain[i]!;
    let head: Buffer;
    let body: Buffer | undefined;
    try {
      head = s.context.update(first);
      if (!whole) body = s.context.update(input.subarray(16));
    } catch (error) {
      // The context's chaining state is unknown now: start a fresh one next time.
      this.dropCbc(true);
      throw error;
    }
    output.set(head, 0);
    if (body !== undefined) output.set(body, 16);
    // The chaining value is the last ciphertext block, now at the end of output.
    for (let i = 0; i < 16; i++) chain[i] = output[n - 16 + i]!;
  }

  protected override cbcDecryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const n = input.length;
    if (n === 0) return;
    const s = (this.cbcDec ??= {
      context: createDecipheriv(this.cbcName, this.key, new Uint8Array(16)).setAutoPadding(false),
      chain: new Uint8Array(16),
    });
    const chain = s.chain;
    let out: Buffer;
    try {
      out = s.context.update(input);
    } catch (error) {
      this.dropCbc(false);
      throw error;
    }
    // out is node's own new buffer: correct its first block for this call's IV
    // there. Then the next chaining value (the last ciphertext block) is read
    // from input before output is written, because output may be input.
    for (let i = 0; i < 16; i++) out[i] = out[i]! ^ chain[i]! ^ iv[i]!;
    for (let i = 0; i < 16; i++) chain[i] = input[n - 16 + i]!;
    output.set(out, 0);
  }

  private dropCbc(encrypt: boolean): void {
    const s = encrypt ? this.cbcEnc : this.cbcDec;
    s?.chain.fill(0);
    if (encrypt) this.cbcEnc = undefined;
    else this.cbcDec = undefined;
  }

  protected wipe(): void {
    this.key.fill(0);
    this.dropCbc(true);
    this.dropCbc(false);
    this.enc = undefined;
    this.dec = undefined;
  }
}

export const nodeBackend: AesBackend = {
  info,
  available: nodeAesAvailable,
  expandKey: (key) => new NodeAesCipher(key),
};
