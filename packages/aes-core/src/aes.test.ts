// Known-answer vectors, Wycheproof, random cross-checks against node:crypto,
// aliasing, destroy and bad input: every test runs for every backend.
import { describe, expect, it } from 'vitest';
import { nodeBlock, nodeCbc } from '../test/node-reference.js';
import { bytesToHex, hexToBytes, loadVectors, loadWycheproof, seededBytes } from '#vectors';
import { aesBackends, createAes } from './index.js';
import type { BlockCipher } from './index.js';

interface BlockVector {
  case: string;
  key: string;
  plaintext: string;
  ciphertext: string;
}
interface CbcVector {
  case: string | number;
  key: string;
  iv: string;
  plaintext: string;
  ciphertext: string;
  direction?: string;
}

const fips197 = loadVectors<{ tests: BlockVector[] }>('aes-fips197.json').tests;
const sp80038a = loadVectors<{ tests: CbcVector[] }>('aes-cbc-sp800-38a.json').tests;
const rfc3602 = loadVectors<{ tests: CbcVector[] }>('aes-cbc-rfc3602.json').tests;
const wycheproof = loadWycheproof('aes_cbc_pkcs5_test.json');

const backendNames = aesBackends().map((b) => b.name);

it('has the four backends, all available on this machine', () => {
  expect(aesBackends()).toEqual([
    { name: 'table', constantTime: false, native: false, available: true },
    { name: 'ct', constantTime: true, native: false, available: true },
    { name: 'bitsliced', constantTime: true, native: false, available: true },
    { name: 'node', constantTime: false, native: true, available: true },
  ]);
});

/** PKCS#5/#7 padding to a multiple of 16 (the test's job: the cipher has no padding). */
function pad(msg: Uint8Array): Uint8Array {
  const n = 16 - (msg.length % 16);
  const out = new Uint8Array(msg.length + n);
  out.set(msg);
  out.fill(n, msg.length);
  return out;
}

/** Returns the unpadded message, or undefined when the padding is not valid PKCS#5. */
function unpad(data: Uint8Array): Uint8Array | undefined {
  if (data.length === 0 || data.length % 16 !== 0) return undefined;
  const n = data[data.length - 1]!;
  if (n < 1 || n > 16) return undefined;
  for (let i = data.length - n; i < data.length; i++) if (data[i] !== n) return undefined;
  return data.subarray(0, data.length - n);
}

describe.each(backendNames)('backend %s', (backend) => {
  const make = (key: Uint8Array): BlockCipher => createAes(key, { impl: backend });

  it('reports itself', () => {
    const c = make(new Uint8Array(16));
    expect(c.backend.name).toBe(backend);
    expect(c.blockSize).toBe(16);
    expect(c.keyBits).toBe(128);
    expect(make(new Uint8Array(24)).keyBits).toBe(192);
    expect(make(new Uint8Array(32)).keyBits).toBe(256);
  });

  it.each(fips197)('FIPS 197 $case', (v) => {
    const c = make(hexToBytes(v.key));
    const out = new Uint8Array(16);
    c.encryptBlock(hexToBytes(v.plaintext), out);
    expect(bytesToHex(out)).toBe(v.ciphertext);
    c.decryptBlock(hexToBytes(v.ciphertext), out);
    expect(bytesToHex(out)).toBe(v.plaintext);
  });

  it.each([...sp80038a, ...rfc3602])('CBC vector $case', (v) => {
    const c = make(hexToBytes(v.key));
    const iv = hexToBytes(v.iv);
    if (v.direction !== 'decrypt') expect(bytesToHex(c.cbcEncrypt(iv, hexToBytes(v.plaintext)))).toBe(v.ciphertext);
    if (v.direction !== 'encrypt') expect(bytesToHex(c.cbcDecrypt(iv, hexToBytes(v.ciphertext)))).toBe(v.plaintext);
  });

  it('Wycheproof aes_cbc_pkcs5_test.json (padding applied and checked by the test)', () => {
    let valid = 0;
    let invalid = 0;
    for (const group of wycheproof.testGroups) {
      for (const t of group.tests) {
        const key = hexToBytes(t.key as string);
        const iv = hexToBytes(t.iv as string);
        const msg = hexToBytes(t.msg as string);
        const ct = hexToBytes(t.ct as string);
        const label = `tcId ${t.tcId} (${t.comment})`;
        const c = make(key);
        if (t.result === 'valid') {
          valid++;
          expect(bytesToHex(c.cbcEncrypt(iv, pad(msg))), label).toBe(t.ct);
          const plain = unpad(c.cbcDecrypt(iv, ct));
          expect(plain && bytesToHex(plain), label).toBe(t.msg);
        } else {
          invalid++;
          // Invalid cases are bad padding or a ciphertext that is not whole blocks:
          // either the cipher rejects the length or the padding check rejects the result.
          if (ct.length % 16 !== 0) {
            expect(() => c.cbcDecrypt(iv, ct), label).toThrow(RangeError);
          } else {
            expect(unpad(c.cbcDecrypt(iv, ct)), label).toBeUndefined();
          }
        }
      }
    }
    // Every case of the file was looked at (72 valid, 144 invalid in this copy).
    expect(valid + invalid).toBe(wycheproof.numberOfTests);
    expect(invalid).toBeGreaterThan(0);
  });

  it('matches node:crypto on 1000 random keys, IVs and lengths (all key sizes)', () => {
    const rand = seededBytes(0xae5 + backend.length);
    for (let i = 0; i < 1000; i++) {
      const keyLen = [16, 24, 32][i % 3]!;
      const key = rand(keyLen);
      const iv = rand(16);
      const blocks = rand(1)[0]! % 9; // 0..8 blocks
      const data = rand(16 * blocks);
      const c = make(key);
      const label = `case ${i}: key ${bytesToHex(key)} iv ${bytesToHex(iv)} ${data.length} bytes`;
      const expected = nodeCbc(true, key, iv, data);
      expect(bytesToHex(c.cbcEncrypt(iv, data)), label).toBe(bytesToHex(expected));
      expect(bytesToHex(c.cbcDecrypt(iv, expected)), label).toBe(bytesToHex(data));
      const block = rand(16);
      const out = new Uint8Array(16);
      c.encryptBlock(block, out);
      expect(bytesToHex(out), label).toBe(bytesToHex(nodeBlock(key, block)));
      c.decryptBlock(out, out);
      expect(bytesToHex(out), label).toBe(bytesToHex(block));
    }
  });

  it('handles src === dst for blocks and CBC, and writes into a given dst', () => {
    const rand = seededBytes(77);
    for (const keyLen of [16, 24, 32]) {
      const key = rand(keyLen);
      const iv = rand(16);
      const data = rand(80);
      const c = make(key);
      const expected = nodeCbc(true, key, iv, data);
      const buf = data.slice();
      expect(c.cbcEncrypt(iv, buf, buf)).toBe(buf);
      expect(bytesToHex(buf)).toBe(bytesToHex(expected));
      expect(c.cbcDecrypt(iv, buf, buf)).toBe(buf);
      expect(bytesToHex(buf)).toBe(bytesToHex(data));
      // Partially overlapping views of one buffer.
      const big = new Uint8Array(96);
      big.set(data, 16);
      const out = c.cbcEncrypt(iv, big.subarray(16, 96), big.subarray(0, 80));
      expect(bytesToHex(out)).toBe(bytesToHex(expected));
      big.set(expected, 0);
      expect(bytesToHex(c.cbcDecrypt(iv, big.subarray(0, 80), big.subarray(16, 96)))).toBe(bytesToHex(data));
      // A longer dst: only the first data.length bytes are written.
      const long = new Uint8Array(100).fill(0xee);
      const view = c.cbcEncrypt(iv, data, long);
      expect(view.length).toBe(80);
      expect(view.buffer).toBe(long.buffer);
      expect(bytesToHex(long.subarray(0, 80))).toBe(bytesToHex(expected));
      expect(long[80]).toBe(0xee);
      const block = data.slice(0, 16);
      c.encryptBlock(block, block);
      expect(bytesToHex(block)).toBe(bytesToHex(nodeBlock(key, data.subarray(0, 16))));
      c.decryptBlock(block, block);
      expect(bytesToHex(block)).toBe(bytesToHex(data.subarray(0, 16)));
      // Block views at an offset inside a larger buffer.
      const host = new Uint8Array(48);
      host.set(data.subarray(0, 16), 7);
      c.encryptBlock(host.subarray(7, 23), host.subarray(20, 36));
      expect(bytesToHex(host.subarray(20, 36))).toBe(bytesToHex(nodeBlock(key, data.subarray(0, 16))));
    }
  });

  it('matches node:crypto on views at every byte alignment and lengths around the word-view threshold', () => {
    // The table backend runs long CBC calls on Int32Array views when both
    // views start on a 4-byte boundary and on bytes otherwise: every mix.
    const rand = seededBytes(0x0ff5e7 + backend.length);
    for (const keyLen of [16, 24, 32]) {
      const key = rand(keyLen);
      const c = make(key);
      for (const blocks of [1, 4, 7, 8, 9, 16, 33]) {
        for (let srcOff = 0; srcOff < 4; srcOff++) {
          for (let dstOff = 0; dstOff < 4; dstOff++) {
            const iv = rand(16);
            const data = rand(16 * blocks);
            const label = `AES-${keyLen * 8}, ${blocks} blocks, src offset ${srcOff}, dst offset ${dstOff}`;
            const expected = nodeCbc(true, key, iv, data);
            const srcHost = new Uint8Array(data.length + 8);
            srcHost.set(data, srcOff);
            const dstHost = new Uint8Array(data.length + 8);
            const src = srcHost.subarray(srcOff, srcOff + data.length);
            const dst = dstHost.subarray(dstOff, dstOff + data.length);
            c.cbcEncrypt(iv, src, dst);
            expect(bytesToHex(dst), label).toBe(bytesToHex(expected));
            c.cbcDecrypt(iv, dst, src);
            expect(bytesToHex(src), label).toBe(bytesToHex(data));
            // In place, at the source offset.
            c.cbcEncrypt(iv, src, src);
            expect(bytesToHex(src), label).toBe(bytesToHex(expected));
            c.cbcDecrypt(iv, src, src);
            expect(bytesToHex(src), label).toBe(bytesToHex(data));
            // Nothing outside the views is touched.
            expect(
              srcHost.subarray(0, srcOff).every((b) => b === 0),
              label,
            ).toBe(true);
            expect(
              srcHost.subarray(srcOff + data.length).every((b) => b === 0),
              label,
            ).toBe(true);
            expect(
              dstHost.subarray(0, dstOff).every((b) => b === 0),
              label,
            ).toBe(true);
            expect(
              dstHost.subarray(dstOff + data.length).every((b) => b === 0),
              label,
            ).toBe(true);
          }
        }
      }
    }
  });

  it('leaves IV and input untouched', () => {
    const rand = seededBytes(5);
    const key = rand(16);
    const iv = rand(16);
    const data = rand(64);
    const ivCopy = iv.slice();
    const dataCopy = data.slice();
    const c = make(key);
    c.cbcDecrypt(iv, c.cbcEncrypt(iv, data));
    expect(iv).toEqual(ivCopy);
    expect(data).toEqual(dataCopy);
  });

  it('accepts empty CBC input', () => {
    const c = make(new Uint8Array(16));
    expect(c.cbcEncrypt(new Uint8Array(16), new Uint8Array(0)).length).toBe(0);
    expect(c.cbcDecrypt(new Uint8Array(16), new Uint8Array(0)).length).toBe(0);
  });

  it('throws on every use after destroy()', () => {
    const c = make(new Uint8Array(32));
    const b = new Uint8Array(16);
    c.decryptBlock(b, b); // builds the lazy decryption schedule so destroy wipes it too
    c.destroy();
    c.destroy(); // idempotent
    expect(() => c.encryptBlock(b, b)).toThrow(/destroyed/);
    expect(() => c.decryptBlock(b, b)).toThrow(/destroyed/);
    expect(() => c.cbcEncrypt(b, b)).toThrow(/destroyed/);
    expect(() => c.cbcDecrypt(b, b)).toThrow(/destroyed/);
    expect(() => c.encryptBlock(b, b)).toThrow(
      expect.objectContaining({ name: 'DestroyedError', code: 'ERR_LAYERBENCH_DESTROYED' }),
    );
  });

  it('rejects bad input with typed errors that say what was expected', () => {
    for (const n of [0, 15, 17, 20, 31, 33, 64]) {
      expect(() => make(new Uint8Array(n))).toThrow(new RangeError(`AES key must be 16, 24 or 32 bytes, got ${n}`));
    }
    expect(() => make('0123456789abcdef' as unknown as Uint8Array)).toThrow(
      new TypeError('AES key must be a Uint8Array, got string'),
    );
    expect(() => make([1, 2] as unknown as Uint8Array)).toThrow(
      new TypeError('AES key must be a Uint8Array, got Array'),
    );
    expect(() => make(null as unknown as Uint8Array)).toThrow(TypeError);
    const c = make(new Uint8Array(16));
    const b = new Uint8Array(16);
    expect(() => c.encryptBlock(new Uint8Array(15), b)).toThrow(
      new RangeError('AES block src must be 16 bytes, got 15'),
    );
    expect(() => c.encryptBlock(new Uint8Array(32), b)).toThrow(
      new RangeError('AES block src must be 16 bytes, got 32'),
    );
    expect(() => c.decryptBlock(b, new Uint8Array(8))).toThrow(
      new RangeError('AES block dst must be at least 16 bytes, got 8'),
    );
    expect(() => c.encryptBlock(new Uint16Array(8) as unknown as Uint8Array, b)).toThrow(
      new TypeError('AES block src must be a Uint8Array, got Uint16Array'),
    );
    expect(() => c.decryptBlock(b, undefined as unknown as Uint8Array)).toThrow(
      new TypeError('AES block dst must be a Uint8Array, got undefined'),
    );
    for (const op of ['cbcEncrypt', 'cbcDecrypt'] as const) {
      expect(() => c[op](new Uint8Array(12), b)).toThrow(new RangeError('AES-CBC iv must be 16 bytes, got 12'));
      expect(() => c[op](b, new Uint8Array(20))).toThrow(
        new RangeError('AES-CBC data length must be a multiple of 16 (no padding), got 20'),
      );
      expect(() => c[op](b, new Uint8Array(32), new Uint8Array(16))).toThrow(
        new RangeError('AES-CBC dst must be at least 32 bytes (the data length), got 16'),
      );
      expect(() => c[op]('iv' as unknown as Uint8Array, b)).toThrow(
        new TypeError('AES CBC iv must be a Uint8Array, got string'),
      );
      expect(() => c[op](b, {} as unknown as Uint8Array)).toThrow(
        new TypeError('AES CBC data must be a Uint8Array, got Object'),
      );
      expect(() => c[op](b, b, [] as unknown as Uint8Array)).toThrow(
        new TypeError('AES CBC dst must be a Uint8Array, got Array'),
      );
    }
  });
});

it('rejects an unknown or misspelled backend option, listing the available ones', () => {
  expect(() => createAes(new Uint8Array(16), { impl: 'aesni' })).toThrow(
    "createAes({ impl: 'aesni' }) asks for AES backend 'aesni', which does not exist; available backends: table, ct, bitsliced, node",
  );
});
