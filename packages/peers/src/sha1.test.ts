// Each SHA-1 peer adapter agrees with node:crypto, so a benchmark row of a
// peer is a row of SHA-1 (HMAC-SHA1), not of something else.
import { createHash, createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex, seededBytes } from '#vectors';
import { sha1Peers } from './sha1.js';

beforeAll(async () => {
  for (const p of sha1Peers) await p.init?.();
});

describe.each(sha1Peers.map((p) => [p.id, p] as const))('%s', (_id, peer) => {
  const rand = seededBytes(0x5ee1);
  const sizes = [0, 1, 55, 56, 63, 64, 65, 1500, 16384, 100003];

  it('sha1 matches node:crypto', () => {
    for (const size of sizes) {
      const msg = rand(size);
      expect(bytesToHex(peer.sha1(msg)), `${size} B`).toBe(createHash('sha1').update(msg).digest('hex'));
    }
  });

  it('HMAC-SHA1 (one-shot and pre-keyed, reused) matches node:crypto', async () => {
    if (!peer.hmacSha1 && !peer.createHmacSha1) {
      expect(peer.id).toBe('rusha'); // the one peer without HMAC
      return;
    }
    for (const keyLen of [0, 20, 64, 100]) {
      const key = rand(keyLen);
      const keyed = await peer.createHmacSha1?.(key);
      for (const size of [0, 64, 1400]) {
        const msg = rand(size);
        const want = createHmac('sha1', key).update(msg).digest('hex');
        if (peer.hmacSha1) expect(bytesToHex(peer.hmacSha1(key, msg)), `one-shot key ${keyLen} msg ${size}`).toBe(want);
        if (keyed) {
          expect(bytesToHex(keyed(msg)), `pre-keyed key ${keyLen} msg ${size}`).toBe(want);
          expect(bytesToHex(keyed(msg)), `pre-keyed reused key ${keyLen} msg ${size}`).toBe(want);
        }
      }
    }
  });
});
