import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, loadVectors } from '#vectors';
import { dbl, subkeysFromL } from './subkeys.js';

interface SubkeyVector { key: string; l: string; k1: string; k2: string }
const sp = loadVectors<{ subkeys: SubkeyVector[] }>('cmac-sp800-38b.json');
const rfc = loadVectors<{ subkeys: SubkeyVector[] }>('cmac-rfc4493.json');

describe('CMAC subkeys (SP 800-38B appendix D, RFC 4493 section 4)', () => {
  const all = [...rfc.subkeys, ...sp.subkeys];
  it('covers L with the top bit clear and set (both reduction cases)', () => {
    const tops = new Set(all.map((v) => hexToBytes(v.l)[0]! >>> 7));
    expect(tops).toEqual(new Set([0, 1]));
  });
  for (const v of all) {
    it(`K1, K2 from L for AES-${v.key.length * 4}`, () => {
      const out = new Uint8Array(32);
      subkeysFromL(hexToBytes(v.l), out, 0);
      expect(bytesToHex(out.subarray(0, 16))).toBe(v.k1);
      expect(bytesToHex(out.subarray(16))).toBe(v.k2);
    });
  }
  it('dbl works in place', () => {
    const v = all[0]!;
    const x = hexToBytes(v.l);
    dbl(x, 0, x, 0);
    expect(bytesToHex(x)).toBe(v.k1);
  });
});
