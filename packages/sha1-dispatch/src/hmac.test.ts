// HMAC-SHA1: RFC 2202, Wycheproof (with truncated tags), pre-keyed behaviour,
// verify, tag-length rule and destroy, for every implementation.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, checkStreamingEquivalence, hexToBytes, loadVectors, loadWycheproof, seededBytes } from '#vectors';
import { blockDataOrder as unrolledBlocks } from './backends/unrolled.generated.js';
import { wasmCompressor, wasmMemoryForTests } from './backends/wasm.js';
import { BlockHmacSha1 } from './hmac.js';
import { createHmacSha1, hmacSha1, SHA1_IMPL_NAMES } from './index.js';
import type { Sha1Compressor } from './types.js';

interface Rfc2202File {
  source: string;
  tests: { tcId: number; key: string; msg: string; tag: string; tag96?: string }[];
}
const rfc2202 = loadVectors<Rfc2202File>('hmac-sha1-rfc2202.json');
const wycheproof = loadWycheproof('hmac_sha1_test.json');

describe.each(SHA1_IMPL_NAMES)('implementation %s', (impl) => {
  it('RFC 2202 test cases 1-7 (and the 96-bit tag of case 5)', () => {
    for (const t of rfc2202.tests) {
      const key = hexToBytes(t.key);
      const msg = hexToBytes(t.msg);
      expect(bytesToHex(hmacSha1(key, msg, { impl })), `case ${t.tcId}`).toBe(t.tag);
      const h = createHmacSha1(key, { impl });
      expect(h.impl).toBe(impl);
      expect(bytesToHex(h.mac(msg)), `case ${t.tcId} pre-keyed`).toBe(t.tag);
      expect(bytesToHex(h.mac(msg)), `case ${t.tcId} pre-keyed, again`).toBe(t.tag);
      if (t.tag96) {
        const tag12 = hmacSha1(key, msg, { impl, tagLength: 12 });
        expect(bytesToHex(tag12)).toBe(t.tag96);
        expect(createHmacSha1(key, { impl, tagLength: 12 }).verify(msg, tag12)).toBe(true);
      }
    }
  });

  it('Wycheproof hmac_sha1_test.json: valid tags match and verify, invalid ones fail verify', () => {
    let valid = 0;
    let invalid = 0;
    for (const group of wycheproof.testGroups) {
      const tagLength = group.tagSize! / 8;
      for (const t of group.tests) {
        const key = hexToBytes(t.key as string);
        const msg = hexToBytes(t.msg as string);
        const tag = hexToBytes(t.tag as string);
        const h = createHmacSha1(key, { impl, tagLength });
        const label = `tcId ${t.tcId} (${t.comment})`;
        if (t.result === 'valid') {
          valid++;
          expect(bytesToHex(h.mac(msg)), label).toBe(t.tag);
          expect(h.verify(msg, tag), label).toBe(true);
        } else {
          invalid++;
          expect(h.verify(msg, tag), label).toBe(false);
        }
      }
    }
    expect(valid + invalid).toBe(170);
    expect(invalid).toBeGreaterThan(0);
  });

  it('matches node:crypto createHmac for keys of 0..150 bytes and messages of 0..300 bytes', () => {
    const rand = seededBytes(0x2104);
    for (let i = 0; i < 60; i++) {
      const key = rand((i * 37) % 151);
      const msg = rand((i * 53) % 301);
      const want = createHmac('sha1', key).update(msg).digest('hex');
      expect(bytesToHex(createHmacSha1(key, { impl }).mac(msg)), `key ${key.length} B, msg ${msg.length} B`).toBe(want);
    }
  });

  it('streaming: one-shot = chunked = cloned = reset, every chunk size 1..130', () => {
    const key = seededBytes(5)(33);
    const msg = seededBytes(6)(700);
    const want = hexToBytes(createHmac('sha1', key).update(msg).digest('hex'));
    checkStreamingEquivalence(
      () => createHmacSha1(key, { impl }),
      msg,
      want,
      Array.from({ length: 130 }, (_, i) => i + 1),
    );
  });

  it('clone keeps working after the original is destroyed', () => {
    const key = seededBytes(7)(20);
    const h = createHmacSha1(key, { impl }).update(new Uint8Array([1, 2, 3]));
    const c = h.clone();
    h.destroy();
    expect(() => h.mac(new Uint8Array(1))).toThrow(/destroyed/);
    expect(bytesToHex(c.digest())).toBe(
      createHmac('sha1', key)
        .update(new Uint8Array([1, 2, 3]))
        .digest('hex'),
    );
  });

  it('verify: wrong length, one flipped bit anywhere, and a non-bytes tag', () => {
    const key = seededBytes(8)(20);
    const msg = seededBytes(9)(100);
    const h = createHmacSha1(key, { impl });
    const tag = h.mac(msg);
    expect(h.verify(msg, tag)).toBe(true);
    expect(h.verify(msg, tag.subarray(0, 19))).toBe(false);
    expect(h.verify(msg, new Uint8Array([...tag, 0]))).toBe(false);
    for (let bit = 0; bit < 160; bit++) {
      const bad = tag.slice();
      bad[bit >> 3]! ^= 1 << (bit & 7);
      expect(h.verify(msg, bad), `bit ${bit}`).toBe(false);
    }
    expect(() => h.verify(msg, 'tag' as unknown as Uint8Array)).toThrow(TypeError);
  });
});

describe("the dispatcher's choice", () => {
  it('streams at every chunk size 1..130 like node:crypto', () => {
    const key = seededBytes(15)(40);
    const msg = seededBytes(16)(700);
    const want = hexToBytes(createHmac('sha1', key).update(msg).digest('hex'));
    checkStreamingEquivalence(
      () => createHmacSha1(key),
      msg,
      want,
      Array.from({ length: 130 }, (_, i) => i + 1),
    );
    expect(bytesToHex(hmacSha1(key, msg))).toBe(bytesToHex(want));
  });
});

describe('tag length (RFC 2104: at least half the output and at least 80 bits)', () => {
  it.each([9, 21, 0, 10.5, Number.NaN])('rejects %s with a RangeError', (tagLength) => {
    expect(() => createHmacSha1(new Uint8Array(16), { tagLength })).toThrow(RangeError);
    expect(() => createHmacSha1(new Uint8Array(16), { tagLength })).toThrow(/from 10 to 20 bytes/);
  });

  it('accepts 10..20 and truncates to a prefix of the full tag', () => {
    const key = new Uint8Array(16).fill(1);
    const full = hmacSha1(key, new Uint8Array(5));
    for (let n = 10; n <= 20; n++) {
      const h = createHmacSha1(key, { tagLength: n });
      expect(h.tagLength).toBe(n);
      expect(bytesToHex(h.mac(new Uint8Array(5)))).toBe(bytesToHex(full.subarray(0, n)));
    }
  });

  it('rejects a key that is not bytes', () => {
    expect(() => createHmacSha1('secret' as unknown as Uint8Array)).toThrow(
      new TypeError('HMAC-SHA1 key must be a Uint8Array, got string'),
    );
  });
});

describe('pre-keyed state', () => {
  // A block function that counts the blocks it compresses: the key must cost
  // blocks only at creation, never in mac(), reset() or clone().
  function counting(): { c: Sha1Compressor; blocks: () => number } {
    let n = 0;
    return {
      c: {
        name: 'counting',
        blockDataOrder: (s, d, o, b) => {
          n += b;
          unrolledBlocks(s, d, o, b);
        },
      },
      blocks: () => n,
    };
  }

  it.each([16, 64, 200])('a %i-byte key costs blocks only at creation; mac(empty) costs exactly 2', (keyLen) => {
    const { c, blocks } = counting();
    const key = seededBytes(keyLen)(keyLen);
    const h = new BlockHmacSha1(c, key, 20);
    // Two pad blocks, plus hashing a long key once.
    const keyedBlocks = 2 + (keyLen > 64 ? Math.ceil((keyLen + 9) / 64) : 0);
    expect(blocks()).toBe(keyedBlocks);
    const tag = h.mac(new Uint8Array(0));
    expect(blocks() - keyedBlocks).toBe(2);
    expect(bytesToHex(tag)).toBe(createHmac('sha1', key).update(new Uint8Array(0)).digest('hex'));
    const before = blocks();
    const c2 = h.clone();
    h.reset();
    expect(blocks()).toBe(before);
    c2.mac(new Uint8Array(0));
    expect(blocks() - before).toBe(2);
  });

  it('destroy wipes the keyed states', () => {
    const key = new Uint8Array(20).fill(0x42);
    const h = new BlockHmacSha1({ name: 'unrolled', blockDataOrder: unrolledBlocks }, key, 20);
    h.destroy();
    const inner = (h as unknown as { innerState: Uint32Array }).innerState;
    const outer = (h as unknown as { outerState: Uint32Array }).outerState;
    expect(Array.from(inner)).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(outer)).toEqual([0, 0, 0, 0, 0]);
    expect(() => h.update(new Uint8Array(1))).toThrow(/destroyed/);
  });
});

describe('wasm scratch', () => {
  it('keying and destroy leave no key block or keyed state in the wasm linear memory', () => {
    const key = new Uint8Array(20).fill(0x42);
    const h = new BlockHmacSha1(wasmCompressor, key, 20);
    const mem = wasmMemoryForTests()!;
    // State words and the first two data blocks, where the ipad/opad blocks were copied.
    expect(mem.subarray(0, 64 + 128).every((b) => b === 0)).toBe(true);
    h.mac(new Uint8Array(100));
    expect(mem.subarray(0, 20).some((b) => b !== 0)).toBe(true);
    h.destroy();
    expect(mem.subarray(0, 64 + 128).every((b) => b === 0)).toBe(true);
  });
});
