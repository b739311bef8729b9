// node:crypto-backed stand-ins for the aes-core and sha1-dispatch seams, used
// as an independent "injected layer" in the tests (and as the whole layer
// matrix while those packages are not yet available). Written from the seam
// types only, so they also check that esp relies on nothing else.
import { createCipheriv, createDecipheriv, createHash, type Hash } from 'node:crypto';
import type { BlockCipher, BlockCipherFactory } from '@layerbench/aes-core';
import type { HmacSha1, HmacSha1Factory } from '@layerbench/sha1-dispatch';

export const nodeDoubleAes: BlockCipherFactory = (key) => {
  if (![16, 24, 32].includes(key.length)) throw new RangeError(`AES key must be 16, 24 or 32 bytes, got ${key.length}`);
  const algo = `aes-${key.length * 8}`;
  const k = Buffer.from(key);
  let destroyed = false;
  const run = (decrypt: boolean, mode: 'ecb' | 'cbc', iv: Uint8Array | null, src: Uint8Array, dst: Uint8Array) => {
    if (destroyed) throw new Error('destroyed');
    if (src.length % 16 !== 0) throw new RangeError('CBC length must be a multiple of 16');
    const c = decrypt ? createDecipheriv(`${algo}-${mode}`, k, iv) : createCipheriv(`${algo}-${mode}`, k, iv);
    c.setAutoPadding(false);
    const out = c.update(src);
    c.final();
    dst.set(out);
    return dst;
  };
  return {
    blockSize: 16,
    keyBits: (key.length * 8) as 128 | 192 | 256,
    backend: { name: 'node-double', constantTime: true, native: true },
    encryptBlock: (src, dst) => void run(false, 'ecb', null, src, dst),
    decryptBlock: (src, dst) => void run(true, 'ecb', null, src, dst),
    cbcEncrypt: (iv, src, dst = new Uint8Array(src.length)) => run(false, 'cbc', iv, src, dst),
    cbcDecrypt: (iv, src, dst = new Uint8Array(src.length)) => run(true, 'cbc', iv, src, dst),
    destroy: () => {
      destroyed = true;
      k.fill(0);
    },
  } satisfies BlockCipher;
};

export const nodeDoubleHmac: HmacSha1Factory = (key, options) => {
  const tagLength = options?.tagLength ?? 20;
  const block = Buffer.alloc(64);
  if (key.length > 64) createHash('sha1').update(key).digest().copy(block);
  else block.set(key);
  const ipad = createHash('sha1').update(block.map((b) => b ^ 0x36));
  const opad = createHash('sha1').update(block.map((b) => b ^ 0x5c));
  const make = (inner: Hash): HmacSha1 => {
    let state = inner;
    const self: HmacSha1 = {
      impl: 'node-double',
      tagLength,
      update(data) {
        state.update(data);
        return self;
      },
      digest() {
        const out = new Uint8Array(tagLength);
        self.digestInto(out, 0);
        return out;
      },
      digestInto(out, offset = 0) {
        const full = opad.copy().update(state.digest()).digest();
        out.set(full.subarray(0, tagLength), offset);
        state = ipad.copy();
      },
      reset() {
        state = ipad.copy();
        return self;
      },
      clone: () => make(state.copy()),
      mac: (msg) => self.reset().update(msg).digest(),
      verify(msg, tag) {
        const t = self.mac(msg);
        let d = t.length ^ tag.length;
        for (let i = 0; i < t.length; i++) d |= t[i]! ^ (tag[i] ?? 0);
        return d === 0;
      },
      destroy() {},
    };
    return self;
  };
  return make(ipad.copy());
};
