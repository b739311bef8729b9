// The node backend keeps one OpenSSL CBC context per direction and key and
// corrects its chaining state for each call's IV. These tests drive one cipher
// object through long random sequences of encrypt and decrypt calls (different
// IVs, lengths, aliasing, failed calls in between) and check every result
// against a fresh node:crypto context.
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, seededBytes } from '#vectors';
import { createAes } from '../index.js';
import type { BlockCipher } from '../index.js';

function freshCbc(encrypt: boolean, key: Uint8Array, iv: Uint8Array, data: Uint8Array): string {
  const name = `aes-${key.length * 8}-cbc`;
  const c = (encrypt ? createCipheriv(name, key, iv) : createDecipheriv(name, key, iv)).setAutoPadding(false);
  return bytesToHex(Buffer.concat([c.update(data), c.final()]));
}

/** Lengths that cross the whole-copy/two-call split of cbcEncrypt (1024 bytes). */
const blockCounts = [0, 1, 1, 2, 3, 5, 16, 63, 64, 65, 100, 257];

describe.each([16, 24, 32])('node backend, one AES-%i object reused', (keyLen) => {
  it('matches fresh contexts over 600 interleaved CBC calls with different IVs, lengths, aliasing and block calls', () => {
    const rand = seededBytes(0x5eed + keyLen);
    const key = rand(keyLen);
    const c = createAes(key, { impl: 'node' });
    for (let i = 0; i < 600; i++) {
      const iv = rand(16);
      const blocks = blockCounts[rand(1)[0]! % blockCounts.length]!;
      const data = rand(16 * blocks);
      const ivCopy = iv.slice();
      const dataCopy = data.slice();
      const op = rand(1)[0]! % 6;
      const label = `call ${i}: op ${op}, ${data.length} bytes, iv ${bytesToHex(iv)}`;
      if (op === 0) {
        expect(bytesToHex(c.cbcEncrypt(iv, data)), label).toBe(freshCbc(true, key, iv, data));
      } else if (op === 1) {
        expect(bytesToHex(c.cbcDecrypt(iv, data)), label).toBe(freshCbc(false, key, iv, data));
      } else if (op === 2) {
        const expected = freshCbc(true, key, iv, data);
        expect(c.cbcEncrypt(iv, data, data), label).toBe(data);
        expect(bytesToHex(data), label).toBe(expected);
        continue; // data was meant to change
      } else if (op === 3) {
        const expected = freshCbc(false, key, iv, data);
        expect(c.cbcDecrypt(iv, data, data), label).toBe(data);
        expect(bytesToHex(data), label).toBe(expected);
        continue;
      } else if (op === 4) {
        // Partially overlapping views of one buffer (the input is copied first).
        const host = new Uint8Array(data.length + 16);
        host.set(data, 16);
        const out = c.cbcEncrypt(iv, host.subarray(16), host.subarray(0, data.length));
        expect(bytesToHex(out), label).toBe(freshCbc(true, key, iv, data));
      } else {
        // Single blocks use other contexts; they must not disturb the CBC ones.
        const block = rand(16);
        const out = new Uint8Array(16);
        c.encryptBlock(block, out);
        expect(bytesToHex(out), label).toBe(freshCbc(true, key, new Uint8Array(16), block));
        c.decryptBlock(out, out);
        expect(bytesToHex(out), label).toBe(bytesToHex(block));
      }
      expect(iv, label).toEqual(ivCopy);
      expect(data, label).toEqual(dataCopy);
    }
  });

  it('round-trips through the same object when encryptions and decryptions alternate', () => {
    const rand = seededBytes(0xa1 + keyLen);
    const key = rand(keyLen);
    const c = createAes(key, { impl: 'node' });
    for (let i = 0; i < 200; i++) {
      const iv = rand(16);
      const data = rand(16 * (1 + (i % 70)));
      const ct = c.cbcEncrypt(iv, data);
      expect(bytesToHex(ct), `call ${i}`).toBe(freshCbc(true, key, iv, data));
      expect(bytesToHex(c.cbcDecrypt(iv, ct)), `call ${i}`).toBe(bytesToHex(data));
    }
  });

  it('stays right after rejected calls and after an OpenSSL context fails mid-call', () => {
    const rand = seededBytes(0xbad + keyLen);
    const key = rand(keyLen);
    const c = createAes(key, { impl: 'node' });
    const check = (n: number): void => {
      const iv = rand(16);
      const data = rand(16 * n);
      expect(bytesToHex(c.cbcEncrypt(iv, data))).toBe(freshCbc(true, key, iv, data));
      expect(bytesToHex(c.cbcDecrypt(iv, data))).toBe(freshCbc(false, key, iv, data));
    };
    check(3);
    expect(() => c.cbcEncrypt(rand(16), rand(20))).toThrow(RangeError);
    expect(() => c.cbcDecrypt(rand(12), rand(32))).toThrow(RangeError);
    expect(() => c.cbcEncrypt(rand(16), rand(32), new Uint8Array(16))).toThrow(RangeError);
    expect(() => c.cbcDecrypt(rand(16), 'text' as unknown as Uint8Array)).toThrow(TypeError);
    check(2);
    // Make the kept contexts throw inside update(), as a failing OpenSSL call
    // would: the object must drop them and be right again on the next call.
    type Kept = { context: { update: () => never } };
    const kept = c as unknown as { cbcEnc: Kept; cbcDec: Kept };
    const fail = (): never => {
      throw new Error('simulated OpenSSL failure');
    };
    kept.cbcEnc.context.update = fail;
    kept.cbcDec.context.update = fail;
    expect(() => c.cbcEncrypt(rand(16), rand(32))).toThrow('simulated OpenSSL failure');
    expect(() => c.cbcEncrypt(rand(16), rand(16 * 80))).not.toThrow(); // fresh context
    expect(() => c.cbcDecrypt(rand(16), rand(48))).toThrow('simulated OpenSSL failure');
    check(1);
    check(70);
    check(5);
  });

  it('leaves Buffer inputs untouched (Buffer#slice would share their memory)', () => {
    const rand = seededBytes(0xb0f + keyLen);
    const key = rand(keyLen);
    const c = createAes(key, { impl: 'node' });
    c.cbcEncrypt(rand(16), rand(48)); // a non-zero chaining value to correct for
    for (const n of [16, 64, 1024, 1040]) {
      const iv = rand(16);
      const data = Buffer.from(rand(n));
      const copy = Buffer.from(data);
      expect(bytesToHex(c.cbcEncrypt(iv, data)), `${n} bytes`).toBe(freshCbc(true, key, iv, copy));
      expect(data.equals(copy), `${n} bytes`).toBe(true);
    }
  });

  it('wipes its key and chaining values on destroy', () => {
    const rand = seededBytes(0xd0 + keyLen);
    const c: BlockCipher = createAes(rand(keyLen), { impl: 'node' });
    c.cbcEncrypt(rand(16), rand(64));
    c.cbcDecrypt(rand(16), rand(64));
    const inner = c as unknown as { key: Uint8Array; cbcEnc: { chain: Uint8Array }; cbcDec: { chain: Uint8Array } };
    const key = inner.key;
    const chains = [inner.cbcEnc.chain, inner.cbcDec.chain];
    expect(chains.every((x) => x.some((b) => b !== 0))).toBe(true);
    c.destroy();
    expect(key.every((b) => b === 0)).toBe(true);
    expect(chains.every((x) => x.every((b) => b === 0))).toBe(true);
    expect(inner.cbcEnc).toBeUndefined();
    expect(inner.cbcDec).toBeUndefined();
    expect(() => c.cbcEncrypt(rand(16), rand(16))).toThrow(/destroyed/);
  });
});
