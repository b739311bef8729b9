import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, loadVectors, seededBytes } from '#vectors';
import { createHash } from 'node:crypto';
import { cmacPeers } from './cmac.js';

interface MacVector {
  name: string;
  key: string;
  msg: string;
  tag: string;
}
const rfc4493 = loadVectors<{ tests: MacVector[] }>('cmac-rfc4493.json').tests;
const sp80038b = loadVectors<{ tests: MacVector[] }>('cmac-sp800-38b.json').tests;

describe('cmac peers', () => {
  it('lists the four libraries', () => {
    expect(cmacPeers.map((p) => p.name)).toEqual(['@stablelib/cmac', '@noble/ciphers', 'node-aes-cmac', 'node:crypto']);
  });
  for (const peer of cmacPeers) {
    describe(peer.name, () => {
      for (const v of [...rfc4493, ...sp80038b]) {
        it(`RFC 4493 / SP 800-38B: ${v.name}`, () => {
          const key = hexToBytes(v.key);
          const msg = hexToBytes(v.msg);
          expect(bytesToHex(peer.oneShot(key, msg)), 'oneShot').toBe(v.tag);
          if (peer.preKeyed) {
            const mac = peer.preKeyed(key);
            expect(bytesToHex(mac(msg)), 'preKeyed').toBe(v.tag);
            expect(bytesToHex(mac(msg)), 'preKeyed, second call').toBe(v.tag);
          }
        });
      }
      it('agrees with the other peers on random inputs', () => {
        const bytes = seededBytes(41);
        for (let i = 0; i < 60; i++) {
          const key = bytes([16, 24, 32][i % 3]!);
          const msg = bytes((i * 7) % 70);
          const want = bytesToHex(cmacPeers[0]!.oneShot(key, msg));
          expect(bytesToHex(peer.oneShot(key, msg)), `len ${msg.length}`).toBe(want);
          if (peer.preKeyed) expect(bytesToHex(peer.preKeyed(key)(msg)), `pre-keyed len ${msg.length}`).toBe(want);
        }
      });
      if (peer.createContext) {
        it('creates a context object', () => {
          expect(typeof peer.createContext!(new Uint8Array(16))).toBe('object');
        });
      }
    });
  }
  it('inputs are not modified', () => {
    const key = seededBytes(3)(16);
    const msg = seededBytes(4)(40);
    const before = createHash('sha256').update(key).update(msg).digest('hex');
    for (const peer of cmacPeers) {
      peer.oneShot(key, msg);
      peer.preKeyed?.(key)(msg);
    }
    expect(createHash('sha256').update(key).update(msg).digest('hex')).toBe(before);
  });
});
