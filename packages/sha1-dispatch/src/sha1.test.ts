// SHA-1 known answers and cross-checks, for every implementation forced in turn.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex, checkStreamingEquivalence, hexToBytes, loadVectors, seededBytes } from '#vectors';
import { createSha1, sha1, SHA1_IMPL_NAMES, sha1Compressor, sha1Implementations } from './index.js';
import { resetDispatchForTests } from './testing.js';

interface FipsFile {
  source: string;
  tests: { comment: string; ascii: string; repeat: number; md: string }[];
}
interface ShavsFile {
  source: string;
  shortMsg: ShavsTest[];
  longMsg: ShavsTest[];
}
interface ShavsTest {
  len: number;
  msg: string;
  md: string;
}

const fips = loadVectors<FipsFile>('sha1-fips180-4.json');
const shavs = loadVectors<ShavsFile>('sha1-shavs.json');
const nodeHex = (msg: Uint8Array) => createHash('sha1').update(msg).digest('hex');
const ascii = (s: string) => new TextEncoder().encode(s);

afterEach(() => resetDispatchForTests());

it('every implementation is available on this test runtime (Node 20)', () => {
  expect(sha1Implementations().map((i) => [i.name, i.available])).toEqual(SHA1_IMPL_NAMES.map((n) => [n, true]));
});

describe.each(SHA1_IMPL_NAMES)('implementation %s', (impl) => {
  it('FIPS 180-4 examples, including one million "a"', () => {
    for (const t of fips.tests) {
      const msg = ascii(t.ascii.repeat(t.repeat));
      expect(bytesToHex(sha1(msg, { impl })), t.comment).toBe(t.md);
      // The same through the streaming object, fed in uneven pieces.
      const h = createSha1({ impl });
      for (let off = 0; off < msg.length; off += 9973) h.update(msg.subarray(off, off + 9973));
      expect(bytesToHex(h.digest()), `${t.comment}, streamed`).toBe(t.md);
    }
  });

  it('NIST SHAVS short and long messages', () => {
    for (const t of [...shavs.shortMsg, ...shavs.longMsg]) {
      const msg = t.len === 0 ? new Uint8Array(0) : hexToBytes(t.msg);
      expect(msg.length * 8).toBe(t.len);
      expect(bytesToHex(sha1(msg, { impl })), `Len = ${t.len}`).toBe(t.md);
    }
  });

  it('matches node:crypto for every length 0..300', () => {
    const rand = seededBytes(300 + impl.length);
    const data = rand(300);
    for (let len = 0; len <= 300; len++) {
      const msg = data.subarray(0, len);
      expect(bytesToHex(sha1(msg, { impl })), `length ${len}`).toBe(nodeHex(msg));
    }
  });

  it('matches node:crypto for random lengths up to 1 MiB, and at unaligned offsets', () => {
    const rand = seededBytes(0x5a1 + impl.length);
    const lengthBytes = rand(16);
    const big = rand((1 << 20) + 64);
    for (let i = 0; i < 8; i++) {
      const len = ((lengthBytes[2 * i]! << 12) | (lengthBytes[2 * i + 1]! << 4) | i) % ((1 << 20) + 1);
      const start = i * 7; // subarrays starting off a block boundary of the buffer
      const msg = big.subarray(start, start + len);
      expect(bytesToHex(sha1(msg, { impl })), `length ${len} at offset ${start}`).toBe(nodeHex(msg));
    }
    const full = big.subarray(0, 1 << 20);
    expect(bytesToHex(sha1(full, { impl })), 'exactly 1 MiB').toBe(nodeHex(full));
  });

  it('one-shot = chunked = cloned = reset, every chunk size 1..130', () => {
    const msg = seededBytes(77)(1000);
    checkStreamingEquivalence(
      () => createSha1({ impl }),
      msg,
      hexToBytes(nodeHex(msg)),
      Array.from({ length: 130 }, (_, i) => i + 1),
    );
  });

  it('clone is independent of the original', () => {
    const h = createSha1({ impl }).update(ascii('abc'));
    const c = h.clone();
    c.update(ascii('def'));
    expect(bytesToHex(h.digest())).toBe(nodeHex(ascii('abc')));
    expect(bytesToHex(c.digest())).toBe(nodeHex(ascii('abcdef')));
    expect(h.impl).toBe(impl);
    expect(c.impl).toBe(impl);
  });

  it('digestInto writes at an offset without touching other bytes', () => {
    const out = new Uint8Array(24).fill(0xee);
    createSha1({ impl }).update(ascii('abc')).digestInto(out, 2);
    expect(bytesToHex(out.subarray(2, 22))).toBe(nodeHex(ascii('abc')));
    expect([out[0], out[1], out[22], out[23]]).toEqual([0xee, 0xee, 0xee, 0xee]);
  });

  it('refuses update or digest after digest until reset', () => {
    const h = createSha1({ impl }).update(ascii('x'));
    h.digest();
    expect(() => h.update(ascii('y'))).toThrow(/after digest/);
    expect(() => h.digest()).toThrow(/twice/);
    expect(bytesToHex(h.reset().update(ascii('abc')).digest())).toBe(nodeHex(ascii('abc')));
  });
});

describe("the dispatcher's own choices", () => {
  it('sha1() at every size 0..300 and createSha1() streamed at every chunk size 1..130 match node:crypto', () => {
    const msg = seededBytes(4242)(1000);
    for (let len = 0; len <= 300; len++)
      expect(bytesToHex(sha1(msg.subarray(0, len))), `length ${len}`).toBe(nodeHex(msg.subarray(0, len)));
    checkStreamingEquivalence(
      () => createSha1(),
      msg,
      hexToBytes(nodeHex(msg)),
      Array.from({ length: 130 }, (_, i) => i + 1),
    );
  });
});

describe('block functions', () => {
  it.each(['generic', 'unrolled', 'wasm'])(
    '%s: blockDataOrder at an offset, many blocks, equals the generic reference',
    (impl) => {
      const reference = sha1Compressor({ impl: 'generic' });
      const c = sha1Compressor({ impl });
      expect(c.name).toBe(impl);
      const data = seededBytes(9)(64 * 2100 + 3);
      for (const [offset, blocks] of [
        [0, 1],
        [3, 1],
        [3, 2048],
        [64, 2100 - 1],
        [1, 1025],
      ] as const) {
        const a = new Uint32Array([1, 2, 3, 4, 5]);
        const b = new Uint32Array([1, 2, 3, 4, 5]);
        reference.blockDataOrder(a, data, offset, blocks);
        c.blockDataOrder(b, data, offset, blocks);
        expect(Array.from(b), `offset ${offset}, ${blocks} blocks`).toEqual(Array.from(a));
      }
    },
  );

  it('node has no block function and says so', () => {
    expect(() => sha1Compressor({ impl: 'node' })).toThrow(/no block function/);
  });
});

describe('bad input', () => {
  it('rejects non-bytes with a TypeError naming what was wrong', () => {
    expect(() => sha1('abc' as unknown as Uint8Array)).toThrow(
      new TypeError('sha1: message must be a Uint8Array, got string'),
    );
    expect(() => createSha1().update([1, 2] as unknown as Uint8Array)).toThrow(/must be a Uint8Array, got Array/);
    expect(() => createSha1({ sizeHint: -1 })).toThrow(RangeError);
    expect(() => createSha1().digestInto(new Uint8Array(19))).toThrow(RangeError);
  });
});
