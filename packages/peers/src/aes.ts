// Competitor AES implementations behind one shape, for the side-by-side rows
// of the aes suite. Each adapter drives its library the fastest way that
// library's API allows: pre-keyed single blocks where it has a keyed block
// object, its own CBC mode where it has one (constructed per call when the
// library binds the IV or key at construction: that is its cost model).
import { cbc as nobleCbc, unsafe as nobleUnsafe } from '@noble/ciphers/aes.js';
import { AES as StablelibAes } from '@stablelib/aes';
import aesjs from 'aes-js';
import CryptoJS from 'crypto-js';

export interface AesPeer {
  /** Library name as printed in bench rows, e.g. '@noble/ciphers'. */
  name: string;
  /** Short id for case ids and params.impl, e.g. 'noble'. */
  id: string;
  /** How the adapter drives the library (what a measured row includes). */
  note: string;
  /** Expands the key once; the returned function encrypts one 16-byte block src into dst. */
  createBlockEncrypt(key: Uint8Array): (src: Uint8Array, dst: Uint8Array) => void;
  /** CBC without padding (data length a multiple of 16). */
  cbcEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array;
  cbcDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array;
  /** The library's keyed object (key expansion alone; memory figures). */
  expandKey(key: Uint8Array): unknown;
}

const noble: AesPeer = {
  name: '@noble/ciphers',
  id: 'noble',
  note: 'blocks: unsafe.expandKeyLE once + unsafe.encryptBlock in place on dst (one copy); CBC: cbc(key, iv, { disablePadding: true }) per call (expands the key each call: noble has no pre-keyed CBC)',
  createBlockEncrypt(key) {
    const xk = nobleUnsafe.expandKeyLE(key);
    const aligned = new Uint8Array(16);
    return (src, dst) => {
      // encryptBlock works in place on a 4-byte-aligned view.
      if (dst.byteOffset % 4 === 0) {
        dst.set(src);
        nobleUnsafe.encryptBlock(xk, dst);
      } else {
        aligned.set(src);
        nobleUnsafe.encryptBlock(xk, aligned);
        dst.set(aligned);
      }
    };
  },
  cbcEncrypt: (key, iv, data) => nobleCbc(key, iv, { disablePadding: true }).encrypt(data),
  cbcDecrypt: (key, iv, data) => nobleCbc(key, iv, { disablePadding: true }).decrypt(data),
  expandKey: (key) => nobleUnsafe.expandKeyLE(key),
};

/**
 * CBC chaining over a keyed block function, for libraries without a CBC mode.
 * Blocks go through two fixed 16-byte buffers (no per-block allocation), so
 * the chaining costs the library as little as the library's own API allows.
 */
function cbcOverBlocks(
  encrypt: boolean,
  block: (src: Uint8Array, dst: Uint8Array) => void,
  iv: Uint8Array,
  data: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(data.length);
  const prev = Uint8Array.from(iv);
  const inBuf = new Uint8Array(16);
  const outBuf = new Uint8Array(16);
  for (let off = 0; off < data.length; off += 16) {
    if (encrypt) {
      for (let i = 0; i < 16; i++) inBuf[i] = data[off + i]! ^ prev[i]!;
      block(inBuf, outBuf);
      for (let i = 0; i < 16; i++) out[off + i] = prev[i] = outBuf[i]!;
    } else {
      for (let i = 0; i < 16; i++) inBuf[i] = data[off + i]!;
      block(inBuf, outBuf);
      for (let i = 0; i < 16; i++) {
        out[off + i] = outBuf[i]! ^ prev[i]!;
        prev[i] = inBuf[i]!;
      }
    }
  }
  return out;
}

const stablelib: AesPeer = {
  name: '@stablelib/aes',
  id: 'stablelib',
  note: 'blocks: new AES(key) once + encryptBlock(src, dst); CBC: no CBC package, so chained in the adapter over a per-call AES(key)',
  createBlockEncrypt(key) {
    const aes = new StablelibAes(key, true);
    return (src, dst) => {
      aes.encryptBlock(src, dst);
    };
  },
  cbcEncrypt(key, iv, data) {
    const aes = new StablelibAes(key, true);
    return cbcOverBlocks(true, (s, d) => aes.encryptBlock(s, d), iv, data);
  },
  cbcDecrypt(key, iv, data) {
    const aes = new StablelibAes(key);
    return cbcOverBlocks(false, (s, d) => aes.decryptBlock(s, d), iv, data);
  },
  expandKey: (key) => new StablelibAes(key),
};

const aesJs: AesPeer = {
  name: 'aes-js',
  id: 'aes-js',
  note: 'blocks: new AES(key) once + encrypt(block) (returns a new array, copied to dst); CBC: new ModeOfOperation.cbc(key, iv) per call (it binds the IV)',
  createBlockEncrypt(key) {
    const aes = new aesjs.AES(key);
    return (src, dst) => {
      dst.set(aes.encrypt(src) as Uint8Array);
    };
  },
  cbcEncrypt: (key, iv, data) => new aesjs.ModeOfOperation.cbc(key, iv).encrypt(data),
  cbcDecrypt: (key, iv, data) => new aesjs.ModeOfOperation.cbc(key, iv).decrypt(data),
  expandKey: (key) => new aesjs.AES(key),
};

function toWordArray(bytes: Uint8Array): CryptoJS.lib.WordArray {
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) {
    words.push((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!);
  }
  return CryptoJS.lib.WordArray.create(words, bytes.length);
}

function fromWordArray(wa: CryptoJS.lib.WordArray): Uint8Array {
  const out = new Uint8Array(wa.sigBytes);
  for (let i = 0; i < out.length; i++) out[i] = wa.words[i >>> 2]! >>> (24 - 8 * (i & 3));
  return out;
}

/** crypto-js's keyed block cipher object: encryptBlock works in place on a word array. */
interface CryptoJsBlockCipher {
  encryptBlock(words: number[], offset: number): void;
}

const cbcOptions = (iv: Uint8Array) => ({
  iv: toWordArray(iv),
  mode: CryptoJS.mode.CBC,
  padding: CryptoJS.pad.NoPadding,
});

const cryptoJs: AesPeer = {
  name: 'crypto-js',
  id: 'crypto-js',
  note: 'blocks: algo.AES.createEncryptor(key) once + encryptBlock on a word array (bytes converted in and out); CBC: AES.encrypt/decrypt with mode CBC, NoPadding per call (word-array conversions included)',
  createBlockEncrypt(key) {
    const cipher = CryptoJS.algo.AES.createEncryptor(toWordArray(key), {
      mode: CryptoJS.mode.ECB,
      padding: CryptoJS.pad.NoPadding,
    }) as unknown as CryptoJsBlockCipher;
    const words = [0, 0, 0, 0];
    return (src, dst) => {
      for (let i = 0; i < 4; i++) {
        words[i] = (src[4 * i]! << 24) | (src[4 * i + 1]! << 16) | (src[4 * i + 2]! << 8) | src[4 * i + 3]!;
      }
      cipher.encryptBlock(words, 0);
      for (let i = 0; i < 16; i++) dst[i] = words[i >>> 2]! >>> (24 - 8 * (i & 3));
    };
  },
  cbcEncrypt: (key, iv, data) =>
    fromWordArray(CryptoJS.AES.encrypt(toWordArray(data), toWordArray(key), cbcOptions(iv)).ciphertext),
  cbcDecrypt: (key, iv, data) =>
    fromWordArray(
      CryptoJS.AES.decrypt(
        CryptoJS.lib.CipherParams.create({ ciphertext: toWordArray(data) }),
        toWordArray(key),
        cbcOptions(iv),
      ),
    ),
  expandKey: (key) =>
    CryptoJS.algo.AES.createEncryptor(toWordArray(key), { mode: CryptoJS.mode.ECB, padding: CryptoJS.pad.NoPadding }),
};

export const aesPeers: AesPeer[] = [noble, stablelib, aesJs, cryptoJs];
