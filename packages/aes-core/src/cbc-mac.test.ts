// cbcMacWords, the CBC-MAC chaining seam MACs build on: for every backend,
// the state after n blocks must be the last block of CBC encryption with the
// starting state as IV (node:crypto computes the reference), on the per-block
// path, the bulk path (16+ blocks; 2+ for node) and across the 4096-byte
// chunks of the bulk path; with and without the last-block mask.
import { describe, expect, it } from 'vitest';
import { seededBytes } from '#vectors';
import { nodeCbc } from '../test/node-reference.js';
import { aesBackends, createAes } from './index.js';

const backendNames = aesBackends()
  .filter((b) => b.available)
  .map((b) => b.name);

/** The little-endian state words of 16 bytes (byte 4j + i is bits 8i.. of word j). */
function wordsOf(bytes: Uint8Array): Int32Array {
  const w = new Int32Array(4);
  for (let j = 0; j < 4; j++) {
    w[j] = bytes[4 * j]! | (bytes[4 * j + 1]! << 8) | (bytes[4 * j + 2]! << 16) | (bytes[4 * j + 3]! << 24);
  }
  return w;
}

function referenceChain(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Int32Array {
  if (data.length === 0) return wordsOf(iv);
  const out = nodeCbc(true, key, iv, data);
  return wordsOf(out.subarray(out.length - 16));
}

describe.each(backendNames)('cbcMacWords, backend %s', (backend) => {
  const random = seededBytes(0xc0ffee ^ backend.length);

  it('equals the last CBC block for 0..20, 255, 256, 257 and 600 blocks at offsets 0..3, all key sizes', () => {
    for (const keyBytes of [16, 24, 32]) {
      const key = random(keyBytes);
      const cipher = createAes(key, { impl: backend });
      for (const blocks of [0, 1, 2, 3, 4, 5, 15, 16, 17, 20, 255, 256, 257, 600]) {
        for (const offset of [0, 1, 3]) {
          const data = random(offset + 16 * blocks + 5);
          const iv = random(16);
          const state = wordsOf(iv);
          cipher.cbcMacWords!(state, data, offset, blocks);
          expect(Array.from(state), `${keyBytes * 8}-bit key, ${blocks} blocks at ${offset}`).toEqual(
            Array.from(referenceChain(key, iv, data.subarray(offset, offset + 16 * blocks))),
          );
        }
      }
      cipher.destroy();
    }
  });

  it('continues a chain: two calls equal one over the concatenation', () => {
    const key = random(16);
    const cipher = createAes(key, { impl: backend });
    const data = random(16 * 40);
    const whole = new Int32Array(4);
    cipher.cbcMacWords!(whole, data, 0, 40);
    const split = new Int32Array(4);
    cipher.cbcMacWords!(split, data, 0, 23);
    cipher.cbcMacWords!(split, data, 16 * 23, 17);
    expect(Array.from(split)).toEqual(Array.from(whole));
    expect(Array.from(whole)).toEqual(Array.from(referenceChain(key, new Uint8Array(16), data)));
  });

  it('XORs lastBlockMask into the state before the last block only, on every path', () => {
    const key = random(24);
    const cipher = createAes(key, { impl: backend });
    for (const blocks of [1, 2, 3, 15, 16, 17, 300]) {
      const data = random(16 * blocks);
      const mask = wordsOf(random(16));
      const masked = new Int32Array(4);
      cipher.cbcMacWords!(masked, data, 0, blocks, mask);
      // The same chain by hand: blocks - 1 plain, then the mask, then the last block.
      const manual = new Int32Array(4);
      cipher.cbcMacWords!(manual, data, 0, blocks - 1);
      for (let j = 0; j < 4; j++) manual[j]! ^= mask[j]!;
      cipher.cbcMacWords!(manual, data, 16 * (blocks - 1), 1);
      expect(Array.from(masked), `${blocks} blocks`).toEqual(Array.from(manual));
      // And against node:crypto: the mask XORed into the last data block is the same thing.
      const tweaked = data.slice();
      const maskBytes = new Uint8Array(mask.buffer);
      for (let i = 0; i < 16; i++) tweaked[16 * (blocks - 1) + i]! ^= maskBytes[i]!;
      expect(Array.from(masked)).toEqual(Array.from(referenceChain(key, new Uint8Array(16), tweaked)));
    }
  });

  it('leaves the data untouched and gives 1000 random chains right', () => {
    for (let t = 0; t < 1000; t++) {
      const key = random([16, 24, 32][t % 3]!);
      const cipher = createAes(key, { impl: backend });
      const blocks = random(1)[0]! % 24;
      const data = random(16 * blocks);
      const before = data.slice();
      const iv = random(16);
      const state = wordsOf(iv);
      cipher.cbcMacWords!(state, data, 0, blocks);
      expect(data).toEqual(before);
      expect(Array.from(state)).toEqual(Array.from(referenceChain(key, iv, data)));
      cipher.destroy();
    }
  });

  it('rejects bad arguments with typed errors naming the problem, and use after destroy', () => {
    const cipher = createAes(new Uint8Array(16), { impl: backend });
    const data = new Uint8Array(64);
    const mac = (...args: unknown[]) => (cipher.cbcMacWords as (...a: unknown[]) => void)(...args);
    expect(() => mac(new Int32Array(3), data, 0, 1)).toThrow(
      new TypeError('AES CBC-MAC state must be an Int32Array of 4 words, got 3 words'),
    );
    expect(() => mac(new Uint32Array(4), data, 0, 1)).toThrow(
      new TypeError('AES CBC-MAC state must be an Int32Array of 4 words, got Uint32Array'),
    );
    expect(() => mac(null, data, 0, 1)).toThrow(TypeError);
    expect(() => mac(new Int32Array(4), [1, 2, 3], 0, 1)).toThrow(/CBC-MAC data must be a Uint8Array, got Array/);
    expect(() => mac(new Int32Array(4), data, -1, 1)).toThrow(
      new RangeError('AES CBC-MAC offset must be a non-negative integer, got -1'),
    );
    expect(() => mac(new Int32Array(4), data, 0.5, 1)).toThrow(RangeError);
    expect(() => mac(new Int32Array(4), data, 0, '1')).toThrow(
      new RangeError('AES CBC-MAC blocks must be a non-negative integer, got 1'),
    );
    expect(() => mac(new Int32Array(4), data, 1, 4)).toThrow(
      new RangeError('AES CBC-MAC of 4 blocks from offset 1 needs 65 bytes of data, got 64'),
    );
    expect(() => mac(new Int32Array(4), data, 0, 1, new Int32Array(5))).toThrow(
      new TypeError('AES CBC-MAC lastBlockMask must be an Int32Array of 4 words, got 5 words'),
    );
    expect(() => mac(new Int32Array(4), data, 0, 1, [1, 2, 3, 4])).toThrow(
      new TypeError('AES CBC-MAC lastBlockMask must be an Int32Array of 4 words, got Array'),
    );
    expect(() => mac(new Int32Array(4), data, 0, 0, new Int32Array(4))).toThrow(
      new RangeError('AES CBC-MAC lastBlockMask needs at least one block to apply to, got blocks = 0'),
    );
    const state = new Int32Array([1, 2, 3, 4]);
    expect(() => mac(state, data, 1, 4)).toThrow(RangeError);
    expect(Array.from(state)).toEqual([1, 2, 3, 4]);
    cipher.destroy();
    expect(() => cipher.cbcMacWords!(new Int32Array(4), data, 0, 1)).toThrow(/was destroyed/);
  });
});
