import { describe, expect, it } from 'vitest';
import { bytesToHex, seededBytes } from '#vectors';
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import type { BlockCipher } from '@layerbench/aes-core';
import type { HmacSha1 } from '@layerbench/sha1-dispatch';
import { espPeers } from './esp.js';

// The peers are compared with @layerbench/esp through injected node:crypto
// layers, so this test depends on esp's framing only, not on which aes-core
// and sha1-dispatch backends exist. esp is not a dependency of peers (peers
// must never depend on our layers), so it is loaded by name at run time (vitest
// aliases it to its sources) and typed here by the little this test uses.
interface EspModule {
  counterIvSource(start?: number): (out: Uint8Array) => void;
  createEspSa(options: Record<string, unknown>): {
    seal(payload: Uint8Array, nextHeader: number): Uint8Array;
    open(packet: Uint8Array): { payload: Uint8Array };
  };
}
const espPackage = '@layerbench/esp';
const { counterIvSource, createEspSa } = (await import(espPackage)) as EspModule;
function nodeAes(key: Uint8Array): BlockCipher {
  const algorithm = `aes-${key.length * 8}`;
  const run = (iv: Uint8Array, src: Uint8Array, dst: Uint8Array, decrypt: boolean) => {
    const c = (decrypt ? createDecipheriv : createCipheriv)(`${algorithm}-cbc`, key, iv).setAutoPadding(false);
    dst.set(Buffer.concat([c.update(src), c.final()]));
    return dst;
  };
  return {
    blockSize: 16,
    keyBits: (key.length * 8) as 128,
    backend: { name: 'node-test', constantTime: true, native: true },
    encryptBlock: () => {
      throw new Error('unused');
    },
    decryptBlock: () => {
      throw new Error('unused');
    },
    cbcEncrypt: (iv, src, dst = new Uint8Array(src.length)) => run(iv, src, dst, false),
    cbcDecrypt: (iv, src, dst = new Uint8Array(src.length)) => run(iv, src, dst, true),
    destroy: () => {},
  };
}

function nodeHmac(key: Uint8Array, options?: { tagLength?: number }): HmacSha1 {
  const tagLength = options?.tagLength ?? 20;
  let h = createHmac('sha1', key);
  const self: HmacSha1 = {
    impl: 'node-test',
    tagLength,
    update(d) {
      h.update(d);
      return self;
    },
    digest() {
      const o = new Uint8Array(tagLength);
      self.digestInto(o);
      return o;
    },
    digestInto(out, offset = 0) {
      out.set(h.digest().subarray(0, tagLength), offset);
      h = createHmac('sha1', key);
    },
    reset() {
      h = createHmac('sha1', key);
      return self;
    },
    clone() {
      throw new Error('unused');
    },
    mac(m) {
      return self.reset().update(m).digest();
    },
    verify() {
      throw new Error('unused');
    },
    destroy() {},
  };
  return self;
}

describe.each(espPeers.map((p) => ({ name: p.name, peer: p })))('$name', ({ peer }) => {
  it('seals packets byte-identical to @layerbench/esp for the same IV, and opens them', async () => {
    const random = seededBytes(0x9ee5);
    for (const keyBytes of [16, 24, 32]) {
      const encKey = random(keyBytes);
      const authKey = random(20);
      const sa = await peer.create(encKey, authKey, 0x12345678);
      const ours = createEspSa({
        spi: 0x12345678,
        encKey,
        authKey,
        aes: nodeAes,
        sha1: nodeHmac,
        pipeline: 'split',
        iv: counterIvSource(5),
      });
      const ivs = counterIvSource(5);
      for (const [n, len] of [0, 1, 13, 14, 15, 16, 17, 63, 64, 100, 1400].entries()) {
        const payload = random(len);
        const iv = new Uint8Array(16);
        ivs(iv);
        const theirs = sa.seal(payload, 41, iv, n + 1);
        expect(bytesToHex(theirs), `length ${len}`).toBe(bytesToHex(ours.seal(payload, 41)));
        expect(bytesToHex(sa.open(theirs))).toBe(bytesToHex(payload));
        expect(bytesToHex(ours.open(theirs).payload)).toBe(bytesToHex(payload));
      }
    }
  });

  it('refuses a packet with a flipped bit', async () => {
    const sa = await peer.create(new Uint8Array(16), new Uint8Array(20));
    const packet = sa.seal(new Uint8Array(20), 4, new Uint8Array(16), 1);
    packet[30]! ^= 1;
    expect(() => sa.open(packet)).toThrow(/ICV/);
  });
});
