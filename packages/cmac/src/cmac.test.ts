import { describe, expect, it } from 'vitest';
import { bytesToHex, checkStreamingEquivalence, hexToBytes, loadVectors, loadWycheproof, seededBytes } from '#vectors';
import { testBackends } from '../test/aes-backends.js';
import { Cmac, CmacDestroyedError, cmac, cmacNative, createCmac } from './index.js';

interface MacVector {
  name: string;
  key: string;
  msg: string;
  tag: string;
}
const rfc4493 = loadVectors<{ tests: MacVector[] }>('cmac-rfc4493.json').tests;
const sp80038b = loadVectors<{ tests: MacVector[] }>('cmac-sp800-38b.json').tests;
const wycheproof = loadWycheproof('aes_cmac_test.json');

// The NTPsec seed's inputs and its three MACs (PL 48, CL 16).
const seedKey = Uint8Array.from({ length: 32 }, (_, i) => (i * i + 0x23) & 0xff);
const seedPacket = Uint8Array.from({ length: 48 }, (_, i) => (i * i + 0x31) & 0xff);
const seedMacs: [number, string][] = [
  [16, '475ac1c053379e7dbd4ce80b87d2178e'],
  [24, 'c906422bfe0963de6df50e022b4aa7d4'],
  [32, '991f4017858de97515260dd9ae440b06'],
];

const chunkSizes = Array.from({ length: 33 }, (_, i) => i + 1);

describe('cmacNative (OpenSSL per call)', () => {
  for (const v of [...rfc4493, ...sp80038b]) {
    it(v.name, () => {
      expect(bytesToHex(cmacNative(hexToBytes(v.key), hexToBytes(v.msg)))).toBe(v.tag);
    });
  }
  it('reproduces the seed MACs', () => {
    for (const [kl, tag] of seedMacs) {
      expect(bytesToHex(cmacNative(seedKey.subarray(0, kl), seedPacket))).toBe(tag);
    }
  });
  it('truncates and rejects bad input', () => {
    const v = rfc4493[2]!;
    expect(bytesToHex(cmacNative(hexToBytes(v.key), hexToBytes(v.msg), { tagLength: 4 }))).toBe(v.tag.slice(0, 8));
    expect(() => cmacNative(new Uint8Array(20), new Uint8Array(1))).toThrow(
      new RangeError('AES key must be 16, 24 or 32 bytes, got 20'),
    );
    expect(() => cmacNative(new Uint8Array(16), 'abc' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => cmacNative(new Uint8Array(16), new Uint8Array(1), { tagLength: 17 })).toThrow(RangeError);
  });
});

for (const backend of testBackends()) {
  const aes = backend.create;
  const ctxFor = (key: Uint8Array, tagLength?: number) =>
    tagLength === undefined ? new Cmac(aes(key)) : new Cmac(aes(key), { tagLength });

  describe(`CMAC over ${backend.name}`, () => {
    describe('standard vectors', () => {
      for (const v of [...rfc4493, ...sp80038b]) {
        it(v.name, () => {
          const key = hexToBytes(v.key);
          const msg = hexToBytes(v.msg);
          const ctx = ctxFor(key);
          expect(bytesToHex(ctx.mac(msg))).toBe(v.tag);
          expect(bytesToHex(ctx.update(msg).digest())).toBe(v.tag);
          expect(ctx.verify(msg, hexToBytes(v.tag))).toBe(true);
          expect(bytesToHex(cmac(key, msg, { aes }))).toBe(v.tag);
          expect(bytesToHex(createCmac(key, { aes }).mac(msg))).toBe(v.tag);
        });
      }
    });

    it('reproduces the seed MACs through every access pattern', () => {
      for (const [kl, tag] of seedMacs) {
        const key = seedKey.subarray(0, kl);
        const ctx = ctxFor(key);
        expect(bytesToHex(ctx.mac(seedPacket)), `preloaded AES-${kl * 8}`).toBe(tag);
        expect(bytesToHex(ctx.clone().update(seedPacket).digest()), `dup AES-${kl * 8}`).toBe(tag);
        expect(bytesToHex(cmac(key, seedPacket, { aes })), `one-shot AES-${kl * 8}`).toBe(tag);
      }
    });

    describe('Wycheproof aes_cmac_test.json', () => {
      for (const group of wycheproof.testGroups) {
        const keyBytes = group.keySize! / 8;
        const tagLength = group.tagSize! / 8;
        it(`keySize ${group.keySize}, tagSize ${group.tagSize}: ${group.tests.length} tests`, () => {
          let checked = 0;
          for (const t of group.tests) {
            const key = hexToBytes(t.key as string);
            const msg = hexToBytes(t.msg as string);
            const tag = hexToBytes(t.tag as string);
            const label = `tcId ${t.tcId} (${t.comment})`;
            if (keyBytes !== 16 && keyBytes !== 24 && keyBytes !== 32) {
              expect(t.result, label).toBe('invalid');
              expect(() => createCmac(key, { aes }), label).toThrow(RangeError);
              expect(() => cmac(key, msg, { aes }), label).toThrow(RangeError);
              checked++;
              continue;
            }
            const ctx = ctxFor(key, tagLength);
            if (t.result === 'valid') {
              expect(bytesToHex(ctx.mac(msg)), label).toBe(t.tag);
              expect(ctx.verify(msg, tag), label).toBe(true);
            } else {
              expect(t.flags, label).toContain('ModifiedTag');
              expect(ctx.verify(msg, tag), label).toBe(false);
            }
            checked++;
          }
          expect(checked).toBe(group.tests.length);
        });
      }
    });

    it('streaming in chunk sizes 1..33 equals one-shot, cloned midway and after reset', () => {
      const bytes = seededBytes(4493);
      for (const kl of [16, 24, 32]) {
        const key = bytes(kl);
        for (const len of [0, 1, 15, 16, 17, 31, 32, 33, 48, 64, 65, 100, 257]) {
          const msg = bytes(len);
          checkStreamingEquivalence(() => ctxFor(key), msg, cmacNative(key, msg), chunkSizes);
        }
      }
    });

    it('clone is independent of its original in both directions', () => {
      const bytes = seededBytes(7);
      const key = bytes(16);
      const a = bytes(23);
      const b = bytes(40);
      const original = ctxFor(key).update(a);
      const copy = original.clone();
      copy.update(b);
      expect(bytesToHex(original.digest())).toBe(bytesToHex(cmacNative(key, a)));
      original.update(b).update(b);
      const ab = new Uint8Array([...a, ...b]);
      expect(bytesToHex(copy.digest())).toBe(bytesToHex(cmacNative(key, ab)));
      const fresh = ctxFor(key);
      const freshCopy = fresh.clone().update(a);
      expect(bytesToHex(fresh.digest()), 'a fresh context is not changed by its clone').toBe(
        bytesToHex(cmacNative(key, new Uint8Array(0))),
      );
      expect(bytesToHex(freshCopy.digest())).toBe(bytesToHex(cmacNative(key, a)));
      original.destroy();
      expect(bytesToHex(copy.digest()), 'a clone survives destroy() of its original').toBe(
        bytesToHex(cmacNative(key, ab)),
      );
    });

    it('digest() leaves the state as it was; update() continues the message', () => {
      const bytes = seededBytes(11);
      const key = bytes(24);
      const msg = bytes(70);
      const ctx = ctxFor(key).update(msg.subarray(0, 30));
      const first = bytesToHex(ctx.digest());
      expect(bytesToHex(ctx.digest())).toBe(first);
      expect(first).toBe(bytesToHex(cmacNative(key, msg.subarray(0, 30))));
      ctx.update(msg.subarray(30));
      expect(bytesToHex(ctx.digest())).toBe(bytesToHex(cmacNative(key, msg)));
    });

    it('mac() and verify() do not disturb a message in progress', () => {
      const bytes = seededBytes(13);
      const key = bytes(16);
      const msg = bytes(50);
      const other = bytes(9);
      const ctx = ctxFor(key).update(msg.subarray(0, 20));
      expect(bytesToHex(ctx.mac(other))).toBe(bytesToHex(cmacNative(key, other)));
      expect(ctx.verify(other, cmacNative(key, other))).toBe(true);
      ctx.update(msg.subarray(20));
      expect(bytesToHex(ctx.digest())).toBe(bytesToHex(cmacNative(key, msg)));
    });

    it('reset() returns to the keyed start', () => {
      const bytes = seededBytes(17);
      const key = bytes(32);
      const ctx = ctxFor(key).update(bytes(77));
      ctx.reset();
      expect(bytesToHex(ctx.digest())).toBe(bytesToHex(cmacNative(key, new Uint8Array(0))));
      const msg = bytes(33);
      expect(bytesToHex(ctx.update(msg).digest())).toBe(bytesToHex(cmacNative(key, msg)));
    });

    it('tagLength 4..16 truncates the tag; verify wants exactly tagLength bytes', () => {
      const bytes = seededBytes(19);
      const key = bytes(16);
      const msg = bytes(45);
      const full = cmacNative(key, msg);
      for (let t = 4; t <= 16; t++) {
        const ctx = ctxFor(key, t);
        expect(ctx.tagLength).toBe(t);
        expect(bytesToHex(ctx.mac(msg))).toBe(bytesToHex(full.subarray(0, t)));
        expect(bytesToHex(cmac(key, msg, { aes, tagLength: t }))).toBe(bytesToHex(full.subarray(0, t)));
        expect(ctx.verify(msg, full.subarray(0, t))).toBe(true);
        if (t < 16) expect(ctx.verify(msg, full.subarray(0, t + 1)), 'longer tag').toBe(false);
        expect(ctx.verify(msg, full.subarray(0, t - 1)), 'shorter tag').toBe(false);
      }
      for (const bad of [0, 3, 17, 32, 4.5, Number.NaN, '8']) {
        expect(() => ctxFor(key, bad as number), String(bad)).toThrow(RangeError);
        expect(() => cmac(key, msg, { aes, tagLength: bad as number }), String(bad)).toThrow(RangeError);
      }
    });

    it('verify() rejects every single-bit change of the tag and of the message', () => {
      const bytes = seededBytes(23);
      const key = bytes(16);
      const msg = bytes(48);
      const ctx = ctxFor(key);
      const tag = ctx.mac(msg);
      for (let bit = 0; bit < 128; bit++) {
        const forged = Uint8Array.from(tag);
        forged[bit >> 3]! ^= 1 << (bit & 7);
        expect(ctx.verify(msg, forged), `tag bit ${bit}`).toBe(false);
      }
      for (let bit = 0; bit < msg.length * 8; bit += 7) {
        const changed = Uint8Array.from(msg);
        changed[bit >> 3]! ^= 1 << (bit & 7);
        expect(ctx.verify(changed, tag), `message bit ${bit}`).toBe(false);
      }
      expect(ctx.verify(msg, tag)).toBe(true);
    });

    it('matches cmacNative on 1000+ random keys, lengths and chunkings', () => {
      const bytes = seededBytes(0xc3ac);
      let checked = 0;
      for (let i = 0; i < 1200; i++) {
        const r = bytes(4);
        const kl = [16, 24, 32][r[0]! % 3]!;
        const len = ((r[1]! << 8) | r[2]!) % 300;
        const key = bytes(kl);
        const msg = bytes(len);
        const want = bytesToHex(cmacNative(key, msg));
        const ctx = ctxFor(key);
        expect(bytesToHex(ctx.mac(msg)), `mac, key ${kl}, len ${len}`).toBe(want);
        expect(bytesToHex(cmac(key, msg, { aes })), `one-shot, key ${kl}, len ${len}`).toBe(want);
        const step = 1 + (r[3]! % 40);
        for (let off = 0; off < len; off += step) ctx.update(msg.subarray(off, off + step));
        expect(bytesToHex(ctx.digest()), `streaming by ${step}, key ${kl}, len ${len}`).toBe(want);
        checked++;
      }
      expect(checked).toBe(1200);
    });

    it('long messages (the bulk CBC path, across its 4096-byte chunks) match cmacNative', () => {
      const bytes = seededBytes(0x4096);
      for (const len of [255, 256, 257, 272, 273, 4096, 4097, 4112, 4113, 8209, 10000]) {
        const key = bytes([16, 24, 32][len % 3]!);
        const msg = bytes(len);
        const want = bytesToHex(cmacNative(key, msg));
        const ctx = ctxFor(key);
        expect(bytesToHex(ctx.mac(msg)), `mac, len ${len}`).toBe(want);
        expect(bytesToHex(cmac(key, msg, { aes })), `one-shot, len ${len}`).toBe(want);
        for (const step of [5, 200, 4100, 5000]) {
          ctx.reset();
          for (let off = 0; off < len; off += step) ctx.update(msg.subarray(off, off + step));
          expect(bytesToHex(ctx.digest()), `streaming by ${step}, len ${len}`).toBe(want);
        }
      }
    });

    it('rejects bad input with typed errors', () => {
      const key = new Uint8Array(16);
      expect(() => createCmac(new Uint8Array(20), { aes })).toThrow(
        new RangeError('AES key must be 16, 24 or 32 bytes, got 20'),
      );
      expect(() => cmac(new Uint8Array(0), new Uint8Array(1), { aes })).toThrow(RangeError);
      expect(() => cmac([1, 2, 3] as unknown as Uint8Array, new Uint8Array(1), { aes })).toThrow(
        new TypeError('AES key must be a Uint8Array, got Array'),
      );
      const ctx = ctxFor(key);
      expect(() => ctx.update('text' as unknown as Uint8Array)).toThrow(
        new TypeError('CMAC message must be a Uint8Array, got string'),
      );
      expect(() => ctx.mac(null as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => ctx.verify(new Uint8Array(1), [1] as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => cmac(key, {} as Uint8Array, { aes })).toThrow(TypeError);
      expect(() => ctx.digestInto(new Uint8Array(15))).toThrow(RangeError);
      expect(() => new Cmac({} as never)).toThrow(TypeError);
      expect(() => new Cmac({ blockSize: 8, encryptBlock() {} } as never)).toThrow(RangeError);
      expect(() => cmac(key, new Uint8Array(1), { aes, impl: 'table' })).toThrow(TypeError);
      expect(() => cmac(key, new Uint8Array(1), { aes, backend: 'table' })).toThrow(TypeError);
    });

    it('throws CmacDestroyedError after destroy(), from every method', () => {
      const ctx = ctxFor(new Uint8Array(16));
      ctx.destroy();
      ctx.destroy();
      const msg = new Uint8Array(3);
      const calls: [string, () => unknown][] = [
        ['update', () => ctx.update(msg)],
        ['digest', () => ctx.digest()],
        ['digestInto', () => ctx.digestInto(new Uint8Array(16))],
        ['mac', () => ctx.mac(msg)],
        ['verify', () => ctx.verify(msg, new Uint8Array(16))],
        ['reset', () => ctx.reset()],
        ['clone', () => ctx.clone()],
      ];
      for (const [name, call] of calls) {
        expect(call, name).toThrow(CmacDestroyedError);
        expect(call, name).toThrow(`${name}() needs a live context`);
        expect(call, name).toThrow(
          expect.objectContaining({ name: 'CmacDestroyedError', code: 'ERR_LAYERBENCH_DESTROYED' }),
        );
      }
    });

    it('destroys the shared cipher only with the last clone', () => {
      const cipher = aes(new Uint8Array(16));
      let destroyed = 0;
      const destroy = cipher.destroy.bind(cipher);
      cipher.destroy = () => {
        destroyed++;
        destroy();
      };
      const a = new Cmac(cipher);
      const b = a.clone();
      const c = b.clone();
      a.destroy();
      c.destroy();
      expect(destroyed).toBe(0);
      expect(b.mac(new Uint8Array(5)).length).toBe(16);
      b.destroy();
      expect(destroyed).toBe(1);
    });
  });
}
