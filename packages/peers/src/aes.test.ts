// Every AES peer adapter against node:crypto, so the side-by-side benchmark
// rows compare implementations that compute the same thing.
import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, seededBytes } from '#vectors';
import { aesPeers } from './aes.js';

function nodeCbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array): string {
  const c = createCipheriv(`aes-${key.length * 8}-cbc`, key, iv).setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]).toString('hex');
}

it('lists the four libraries', () => {
  expect(aesPeers.map((p) => p.name)).toEqual(['@noble/ciphers', '@stablelib/aes', 'aes-js', 'crypto-js']);
});

describe.each(aesPeers)('$name', (peer) => {
  it('matches node:crypto on random keys (all sizes), IVs and lengths', () => {
    const rand = seededBytes(0x9ee5);
    for (let i = 0; i < 60; i++) {
      const key = rand([16, 24, 32][i % 3]!);
      const iv = rand(16);
      const data = rand(16 * (i % 5));
      const expected = nodeCbc(key, iv, data);
      expect(bytesToHex(peer.cbcEncrypt(key, iv, data)), `case ${i}`).toBe(expected);
      expect(bytesToHex(peer.cbcDecrypt(key, iv, Buffer.from(expected, 'hex'))), `case ${i}`).toBe(bytesToHex(data));
      const block = rand(16);
      const out = new Uint8Array(16);
      peer.createBlockEncrypt(key)(block, out);
      expect(bytesToHex(out), `block ${i}`).toBe(nodeCbc(key, new Uint8Array(16), block));
      expect(peer.expandKey(key)).toBeTruthy();
    }
  });

  it('writes a block into an unaligned dst view', () => {
    const key = new Uint8Array(16).fill(7);
    const host = new Uint8Array(40);
    const src = new Uint8Array(16).fill(1);
    peer.createBlockEncrypt(key)(src, host.subarray(3, 19));
    expect(bytesToHex(host.subarray(3, 19))).toBe(nodeCbc(key, new Uint8Array(16), src));
  });
});
