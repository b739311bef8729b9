// The same AES-CMAC computed by OpenSSL through node:crypto on every call:
// the reference the JavaScript paths are checked against, and the per-call
// cost of a native library (Node has no CMAC in createHmac, so this builds
// it from ECB for the subkeys and CBC for the chain, as RFC 4493 defines it).
import { createCipheriv } from 'node:crypto';
import type { CmacOptions } from './cmac.js';
import { checkAesKey, checkBytes, tagLengthOption } from './errors.js';
import { dblWords, readWords, writeWords } from './subkeys.js';

const zeroBlock = new Uint8Array(16);

/** AES-CMAC of `msg` under `key` through OpenSSL: key expansion and subkeys on every call. */
export function cmacNative(key: Uint8Array, msg: Uint8Array, options: CmacOptions = {}): Uint8Array {
  checkAesKey(key);
  checkBytes(msg, 'message');
  const tagLength = tagLengthOption(options.tagLength);
  const bits = key.length * 8;

  const ecb = createCipheriv(`aes-${bits}-ecb`, key, null);
  ecb.setAutoPadding(false);
  const l = ecb.update(zeroBlock);
  const k1 = new Int32Array(4);
  readWords(l, 0, k1);
  dblWords(k1, k1);
  const k2 = new Int32Array(4);
  dblWords(k1, k2);

  // CBC-MAC with a zero IV over every block but the last, then the last
  // block XORed with K1 (complete) or padded 10* and XORed with K2.
  const n = msg.length;
  const lastStart = n === 0 ? 0 : (n - 1) & ~15;
  const rem = n - lastStart;
  const last = new Uint8Array(16);
  writeWords(rem === 16 ? k1 : k2, last, 0);
  for (let i = 0; i < 16; i++) {
    last[i] ^= i < rem ? msg[lastStart + i]! : i === rem ? 0x80 : 0;
  }
  const cbc = createCipheriv(`aes-${bits}-cbc`, key, zeroBlock);
  cbc.setAutoPadding(false);
  if (lastStart > 0) cbc.update(msg.subarray(0, lastStart));
  const final = cbc.update(last);
  const tag = new Uint8Array(final.subarray(0, tagLength));

  l.fill(0);
  k1.fill(0);
  k2.fill(0);
  last.fill(0);
  final.fill(0);
  return tag;
}
