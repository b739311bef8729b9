// AES through node:crypto (OpenSSL; AES-NI where the CPU has it). Single
// blocks go through an ECB context kept open per key (padding off), so a
// block costs one update() call; CBC makes one context per call because
// OpenSSL CBC contexts carry the IV.
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

/**
 * One key held by OpenSSL. The raw key is also kept (a copy, wiped by
 * destroy) because each CBC call needs a fresh context; OpenSSL's own copies
 * are freed when the contexts are garbage-collected, which JavaScript cannot
 * force.
 */
class NodeAesCipher extends AesCipherBase {
  private key: Uint8Array;
  private readonly ecbName: string;
  private readonly cbcName: string;
  private enc: Cipher | undefined;
  private dec: Decipher | undefined;

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

  protected override cbcEncryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const c = createCipheriv(this.cbcName, this.key, iv).setAutoPadding(false);
    const body = c.update(input);
    output.set(body, 0);
    output.set(c.final(), body.length);
  }

  protected override cbcDecryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const d = createDecipheriv(this.cbcName, this.key, iv).setAutoPadding(false);
    const body = d.update(input);
    output.set(body, 0);
    output.set(d.final(), body.length);
  }

  protected wipe(): void {
    this.key.fill(0);
    this.enc = undefined;
    this.dec = undefined;
  }
}

export const nodeBackend: AesBackend = {
  info,
  available: nodeAesAvailable,
  expandKey: (key) => new NodeAesCipher(key),
};
