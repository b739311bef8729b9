// The shared key-schedule slab: carving (alignment, zero fill, no overlap,
// new slab when full), many table ciphers alive across slab boundaries,
// destroy() zeroing its own words only, and interleaved create/destroy
// checked against node:crypto.
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seededBytes } from '#vectors';
import { createAes } from './index.js';
import type { BlockCipher } from './index.js';
import { SLAB_BYTES, carveScheduleWords } from './schedule-slab.js';

function nodeEcb(key: Uint8Array, data: Uint8Array, encrypt = true): Uint8Array {
  const name = `aes-${key.length * 8}-ecb`;
  const c = (encrypt ? createCipheriv(name, key, null) : createDecipheriv(name, key, null)).setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

function encrypt(c: BlockCipher, block: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  c.encryptBlock(block, out);
  return out;
}

function decrypt(c: BlockCipher, block: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  c.decryptBlock(block, out);
  return out;
}

/** The table cipher's schedules; white-box: they are private fields. */
function schedules(c: BlockCipher): { ek: Int32Array; dk: Int32Array | undefined } {
  return c as unknown as { ek: Int32Array; dk: Int32Array | undefined };
}

const KEY_BYTES = [16, 24, 32] as const;

describe('carveScheduleWords', () => {
  it('hands out zeroed, 4-byte-aligned, non-overlapping views and starts a new slab when full', () => {
    const views: Int32Array[] = [];
    // Enough 60-word (AES-256) carves to fill more than two slabs.
    const count = Math.ceil((2.5 * SLAB_BYTES) / 240);
    for (let i = 0; i < count; i++) {
      const v = carveScheduleWords(60);
      expect(v.length).toBe(60);
      expect(v.byteOffset % 4).toBe(0);
      expect(v.byteOffset + v.byteLength).toBeLessThanOrEqual(SLAB_BYTES);
      expect(v.buffer.byteLength).toBe(SLAB_BYTES);
      expect(v.every((w) => w === 0)).toBe(true);
      v.fill(i + 1);
      views.push(v);
    }
    const slabs = new Set(views.map((v) => v.buffer));
    expect(slabs.size).toBeGreaterThanOrEqual(3);
    // Each view still holds what was written to it: no two ranges overlap.
    for (const [i, v] of views.entries()) expect(v.every((w) => w === i + 1)).toBe(true);
  });
});

describe('table ciphers in the shared slab', () => {
  // Deterministic keys and blocks, one stream for the whole describe block.
  const rand = seededBytes(0x51ab);

  it('keeps many ciphers alive across slab boundaries, all correct against node:crypto', () => {
    const ciphers: { key: Uint8Array; cipher: BlockCipher }[] = [];
    // 600 ciphers of mixed sizes with lazy decryption schedules: several slabs.
    for (let i = 0; i < 600; i++) {
      const key = rand(KEY_BYTES[i % 3]!);
      const cipher = createAes(key, { impl: 'table' });
      if (i % 4 === 0) decrypt(cipher, new Uint8Array(16)); // build the decryption schedule in between
      ciphers.push({ key, cipher });
    }
    const slabs = new Set(ciphers.map(({ cipher }) => schedules(cipher).ek.buffer));
    expect(slabs.size).toBeGreaterThan(2);
    ciphers.forEach(({ key, cipher }, _i) => {
      const block = rand(16);
      const expected = nodeEcb(key, block);
      expect(encrypt(cipher, block)).toEqual(expected);
      expect(decrypt(cipher, expected)).toEqual(block);
    });
    for (const { cipher } of ciphers) cipher.destroy();
  });

  it('destroy() zeroes its own schedule words and leaves its slab neighbours untouched', () => {
    const keys = [0, 1, 2].map(() => rand(16));
    let trio = keys.map((k) => createAes(k, { impl: 'table' }));
    // Retry until the three encryption schedules sit in one slab (a slab may fill between them).
    while (new Set(trio.map((c) => schedules(c).ek.buffer)).size !== 1) {
      trio = keys.map((k) => createAes(k, { impl: 'table' }));
    }
    const [a, b, c] = trio as [BlockCipher, BlockCipher, BlockCipher];
    decrypt(b, new Uint8Array(16));
    const { ek, dk } = schedules(b);
    expect(dk).toBeDefined();
    const slab = new Int32Array(ek.buffer);
    const before = slab.slice();
    const ekWords = new Set(Array.from({ length: ek.length }, (_, i) => ek.byteOffset / 4 + i));
    const dkWords =
      dk!.buffer === ek.buffer
        ? new Set(Array.from({ length: dk!.length }, (_, i) => dk!.byteOffset / 4 + i))
        : new Set<number>();
    expect(ek.some((w) => w !== 0)).toBe(true);

    b.destroy();

    expect(ek.every((w) => w === 0)).toBe(true);
    expect(dk!.every((w) => w === 0)).toBe(true);
    slab.forEach((w, i) => {
      if (!ekWords.has(i) && !dkWords.has(i)) expect(w).toBe(before[i]);
    });
    const block = rand(16);
    expect(encrypt(a, block)).toEqual(nodeEcb(keys[0]!, block));
    expect(encrypt(c, block)).toEqual(nodeEcb(keys[2]!, block));
    expect(() => encrypt(b, block)).toThrow(/destroyed/);
  });

  it('stays correct under interleaved create/destroy, checked against node:crypto', () => {
    const live: { key: Uint8Array; cipher: BlockCipher }[] = [];
    const choice = rand(3000);
    for (let step = 0; step < 3000; step++) {
      const r = choice[step]!;
      if (live.length > 0 && r < 96) {
        // Destroy a pseudo-randomly chosen live cipher.
        const [gone] = live.splice(r % live.length, 1);
        gone!.cipher.destroy();
      } else {
        const key = rand(KEY_BYTES[r % 3]!);
        live.push({ key, cipher: createAes(key, { impl: 'table' }) });
      }
      if (step % 7 === 0 && live.length > 0) {
        const { key, cipher } = live[(r * 31) % live.length]!;
        const block = rand(16);
        const expected = nodeEcb(key, block);
        expect(encrypt(cipher, block)).toEqual(expected);
        expect(decrypt(cipher, expected)).toEqual(block);
      }
    }
    for (const { key, cipher } of live) {
      const block = rand(16);
      expect(encrypt(cipher, block)).toEqual(nodeEcb(key, block));
      cipher.destroy();
    }
  });
});
