import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, loadVectors } from '#vectors';
import { byteSwap, dblLittleEndianWords, dblWords, readWords, writeWords } from './subkeys.js';

interface SubkeyVector {
  key: string;
  l: string;
  k1: string;
  k2: string;
}
const sp = loadVectors<{ subkeys: SubkeyVector[] }>('cmac-sp800-38b.json');
const rfc = loadVectors<{ subkeys: SubkeyVector[] }>('cmac-rfc4493.json');

const dblHex = (hex: string): string => {
  const w = new Int32Array(4);
  readWords(hexToBytes(hex), 0, w);
  dblWords(w, w);
  const out = new Uint8Array(16);
  writeWords(w, out, 0);
  return bytesToHex(out);
};

describe('CMAC subkeys (SP 800-38B appendix D, RFC 4493 section 4)', () => {
  const all = [...rfc.subkeys, ...sp.subkeys];
  it('covers L and K1 with the top bit clear and set (both reduction cases)', () => {
    const tops = new Set(all.flatMap((v) => [v.l, v.k1].map((h) => hexToBytes(h)[0]! >>> 7)));
    expect(tops).toEqual(new Set([0, 1]));
  });
  for (const v of all) {
    it(`K1 = dbl(L), K2 = dbl(K1) for AES-${v.key.length * 4}`, () => {
      expect(dblHex(v.l)).toBe(v.k1);
      expect(dblHex(v.k1)).toBe(v.k2);
    });
  }
  it('doubles little-endian words (the layout of aes-core cbcMacWords) like big-endian ones', () => {
    const le = (hex: string): Int32Array => {
      const b = hexToBytes(hex);
      return Int32Array.from(
        [0, 1, 2, 3],
        (j) => b[4 * j]! | (b[4 * j + 1]! << 8) | (b[4 * j + 2]! << 16) | (b[4 * j + 3]! << 24),
      );
    };
    for (const v of all) {
      const w = le(v.l);
      dblLittleEndianWords(w, w);
      expect(Array.from(w)).toEqual(Array.from(le(v.k1)));
      dblLittleEndianWords(w, w);
      expect(Array.from(w)).toEqual(Array.from(le(v.k2)));
    }
    expect(byteSwap(0x11223344) >>> 0).toBe(0x44332211);
    expect(byteSwap(0x80ff0001) >>> 0).toBe(0x0100ff80);
  });
  it('round-trips words and bytes', () => {
    const bytes = hexToBytes('00112233445566778899aabbccddeeff');
    const w = new Int32Array(4);
    readWords(bytes, 0, w);
    expect([...w].map((x) => (x >>> 0).toString(16))).toEqual(['112233', '44556677', '8899aabb', 'ccddeeff']);
    const out = new Uint8Array(20);
    writeWords(w, out, 2);
    expect(bytesToHex(out.subarray(2, 18))).toBe(bytesToHex(bytes));
  });
});
