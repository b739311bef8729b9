// Competitor AES-CMAC implementations behind one shape, for the side-by-side
// rows of the cmac suites: the one-shot call of each library, its pre-keyed
// form where the library has one, and a context object for memory figures.
import { createCipheriv } from 'node:crypto';
import { createRequire } from 'node:module';
import { AES } from '@stablelib/aes';
import { CMAC } from '@stablelib/cmac';
import { cmac as nobleCmac } from '@noble/ciphers/aes.js';

export interface CmacPeer {
  /** Library name as printed in bench rows, e.g. '@stablelib/cmac'. */
  name: string;
  /** Keys and MACs in one call (the library's own one-shot path, or construct-use-discard). */
  oneShot(key: Uint8Array, msg: Uint8Array): Uint8Array;
  /** Keys once; the returned function MACs a whole message per call. */
  preKeyed?(key: Uint8Array): (msg: Uint8Array) => Uint8Array;
  /** One keyed context, for memory measurement. */
  createContext?(key: Uint8Array): unknown;
}

const stablelib: CmacPeer = {
  name: '@stablelib/cmac',
  oneShot(key, msg) {
    const cipher = new AES(key, true);
    const mac = new CMAC(cipher);
    const tag = mac.update(msg).digest();
    mac.clean();
    cipher.clean();
    return tag;
  },
  preKeyed(key) {
    const mac = new CMAC(new AES(key, true));
    return (msg) => mac.reset().update(msg).digest();
  },
  createContext: (key) => new CMAC(new AES(key, true)),
};

// noble's CMAC context finishes on digest() and has no reset() or clone(),
// so it has no pre-keyed form.
const noble: CmacPeer = {
  name: '@noble/ciphers',
  oneShot: (key, msg) => nobleCmac(msg, key),
  createContext: (key) => nobleCmac.create(key),
};

type AesCmacFn = (key: Buffer, msg: Buffer, options: { returnAsBuffer: true }) => Buffer;
// node-aes-cmac is CommonJS without type declarations.
const nodeAesCmac = createRequire(import.meta.url)('node-aes-cmac') as { aesCmac: AesCmacFn };

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

const nodeAesCmacPeer: CmacPeer = {
  name: 'node-aes-cmac',
  oneShot: (key, msg) => new Uint8Array(nodeAesCmac.aesCmac(asBuffer(key), asBuffer(msg), { returnAsBuffer: true })),
};

/** Multiplication by x in GF(2^128) on four big-endian 32-bit words (RFC 4493 subkeys). */
function doubleWords(src: Buffer): Buffer {
  const w = [src.readUInt32BE(0), src.readUInt32BE(4), src.readUInt32BE(8), src.readUInt32BE(12)];
  const reduce = 0x87 & -(w[0]! >>> 31);
  const out = Buffer.alloc(16);
  out.writeUInt32BE(((w[0]! << 1) | (w[1]! >>> 31)) >>> 0, 0);
  out.writeUInt32BE(((w[1]! << 1) | (w[2]! >>> 31)) >>> 0, 4);
  out.writeUInt32BE(((w[2]! << 1) | (w[3]! >>> 31)) >>> 0, 8);
  out.writeUInt32BE(((w[3]! << 1) ^ reduce) >>> 0, 12);
  return out;
}

const zero16 = Buffer.alloc(16);

/**
 * OpenSSL through node:crypto with one CBC stream per message: its first
 * block (zeros) yields L = E_K(0); feeding M1 xor L next cancels that chaining
 * value, so the rest of the stream is exactly the CMAC chain.
 */
const nodeCrypto: CmacPeer = {
  name: 'node:crypto',
  oneShot(key, msg) {
    const cbc = createCipheriv(`aes-${key.length * 8}-cbc`, key, zero16);
    cbc.setAutoPadding(false);
    const l = cbc.update(zero16);
    const k1 = doubleWords(l);
    const complete = msg.length > 0 && msg.length % 16 === 0;
    const blocks = Math.max(1, Math.ceil(msg.length / 16));
    const data = Buffer.alloc(blocks * 16);
    data.set(msg);
    if (!complete) data[msg.length] = 0x80;
    const k = complete ? k1 : doubleWords(k1);
    const lastOff = data.length - 16;
    for (let i = 0; i < 16; i++) {
      data[i]! ^= l[i]!;
      data[lastOff + i]! ^= k[i]!;
    }
    const out = cbc.update(data);
    return new Uint8Array(out.subarray(out.length - 16));
  },
  preKeyed(key) {
    // The pre-keyed native form: one ECB cipher kept for the key (OpenSSL's
    // key schedule stays loaded), chained block by block from JavaScript.
    const ecb = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
    ecb.setAutoPadding(false);
    const k1 = doubleWords(ecb.update(zero16));
    const k2 = doubleWords(k1);
    const x = Buffer.alloc(16);
    return (msg) => {
      x.fill(0);
      const lastStart = msg.length === 0 ? 0 : (msg.length - 1) & ~15;
      let chain: Buffer = x;
      for (let off = 0; off < lastStart; off += 16) {
        for (let i = 0; i < 16; i++) x[i] = chain[i]! ^ msg[off + i]!;
        chain = ecb.update(x);
      }
      const rem = msg.length - lastStart;
      const k = rem === 16 ? k1 : k2;
      for (let i = 0; i < 16; i++) {
        const m = i < rem ? msg[lastStart + i]! : i === rem ? 0x80 : 0;
        x[i] = chain[i]! ^ m ^ k[i]!;
      }
      return new Uint8Array(ecb.update(x));
    };
  },
  createContext(key) {
    const ecb = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
    ecb.setAutoPadding(false);
    return ecb;
  },
};

/** Every CMAC peer, in the order suites print them. */
export const cmacPeers: readonly CmacPeer[] = [stablelib, noble, nodeAesCmacPeer, nodeCrypto];
