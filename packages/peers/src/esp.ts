// Competitor ESP compositions for the esp suite: what a user would write per
// packet with each library pair (AES-CBC from one, HMAC-SHA1-96 from another).
// Same packet format as @layerbench/esp (RFC 4303 / RFC 3602 / RFC 2404), so
// packets are byte-identical for the same IV and the rows are comparable.
// These are minimal SAs for benchmarking: open() checks the ICV (constant
// time) and the padding, but keeps no anti-replay window.
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';
import { cbc } from '@noble/ciphers/aes.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { AES_CBC } from 'asmcrypto.js';
import { createHMAC, createSHA1, type IHasher } from 'hash-wasm';

export interface EspPeerSa {
  /**
   * SPI | seq | IV | AES-CBC(payload | padding | pad length | next header) | ICV(12).
   * The caller numbers the packets (these minimal SAs keep no counter), so a
   * benchmark can re-create its first packet for the output digest.
   */
  seal(payload: Uint8Array, nextHeader: number, iv: Uint8Array, seq: number): Uint8Array;
  /** Verifies the ICV, decrypts, checks padding; returns the payload. Throws Error on any failure. */
  open(packet: Uint8Array): Uint8Array;
}

export interface EspPeer {
  /** Libraries, as printed in bench rows, e.g. '@noble/ciphers+@noble/hashes'. */
  name: string;
  /** Keys one SA. Asynchronous because some libraries key through WebAssembly (hash-wasm). */
  create(encKey: Uint8Array, authKey: Uint8Array, spi?: number): Promise<EspPeerSa>;
}

const ICV = 12;

interface Primitives {
  /** May overwrite `plaintext` (a fresh array the framing owns). */
  encrypt(plaintext: Uint8Array, iv: Uint8Array): Uint8Array;
  decrypt(ciphertext: Uint8Array, iv: Uint8Array): Uint8Array;
  /** Full or truncated HMAC-SHA1 tag of `data` (at least 12 bytes). */
  mac(data: Uint8Array): Uint8Array;
}

/** The ESP framing around a pair of library primitives, written once for all peers. */
function espAround(p: Primitives, spi: number): EspPeerSa {
  return {
    seal(payload, nextHeader, iv, seq) {
      const padLength = (16 - ((payload.length + 2) & 15)) & 15;
      const plaintext = new Uint8Array(payload.length + padLength + 2);
      plaintext.set(payload);
      for (let i = 0; i < padLength; i++) plaintext[payload.length + i] = i + 1;
      plaintext[plaintext.length - 2] = padLength;
      plaintext[plaintext.length - 1] = nextHeader;
      const ciphertext = p.encrypt(plaintext, iv);
      const packet = new Uint8Array(24 + ciphertext.length + ICV);
      const view = new DataView(packet.buffer);
      view.setUint32(0, spi);
      view.setUint32(4, seq);
      packet.set(iv, 8);
      packet.set(ciphertext, 24);
      const icvOffset = 24 + ciphertext.length;
      packet.set(p.mac(packet.subarray(0, icvOffset)).subarray(0, ICV), icvOffset);
      return packet;
    },
    open(packet) {
      if (packet.length < 24 + 16 + ICV || (packet.length - 24 - ICV) % 16 !== 0) throw new Error('bad ESP length');
      const icvOffset = packet.length - ICV;
      const tag = p.mac(packet.subarray(0, icvOffset));
      let diff = 0;
      for (let i = 0; i < ICV; i++) diff |= tag[i]! ^ packet[icvOffset + i]!;
      if (diff !== 0) throw new Error('ICV mismatch');
      const plaintext = p.decrypt(packet.subarray(24, icvOffset), packet.subarray(8, 24));
      const padLength = plaintext[plaintext.length - 2]!;
      const payloadLength = plaintext.length - 2 - padLength;
      if (payloadLength < 0) throw new Error('bad ESP padding');
      for (let i = 0; i < padLength; i++)
        if (plaintext[payloadLength + i] !== i + 1) throw new Error('bad ESP padding');
      return plaintext.subarray(0, payloadLength);
    },
  };
}

/** node:crypto per packet: createCipheriv + createHmac each time, the usual Node.js code (the reference row). */
const nodePerPacket: EspPeer = {
  name: 'node:crypto per packet',
  async create(encKey, authKey, spi = 0x12345678) {
    const algorithm = `aes-${encKey.length * 8}-cbc`;
    return espAround(
      {
        encrypt(plaintext, iv) {
          const c = createCipheriv(algorithm, encKey, iv).setAutoPadding(false);
          return Buffer.concat([c.update(plaintext), c.final()]);
        },
        decrypt(ciphertext, iv) {
          const d = createDecipheriv(algorithm, encKey, iv).setAutoPadding(false);
          return Buffer.concat([d.update(ciphertext), d.final()]);
        },
        mac: (data) => createHmac('sha1', authKey).update(data).digest(),
      },
      spi,
    );
  },
};

/** @noble/ciphers cbc + @noble/hashes hmac(sha1): pure TypeScript, one-shot calls. */
const noble: EspPeer = {
  name: '@noble/ciphers+@noble/hashes',
  async create(encKey, authKey, spi = 0x12345678) {
    return espAround(
      {
        encrypt: (plaintext, iv) => cbc(encKey, iv, { disablePadding: true }).encrypt(plaintext),
        decrypt: (ciphertext, iv) => cbc(encKey, iv, { disablePadding: true }).decrypt(ciphertext),
        mac: (data) => hmac(sha1, authKey, data),
      },
      spi,
    );
  },
};

/**
 * asmcrypto.js AES_CBC (asm.js) + hash-wasm HMAC-SHA1 (WebAssembly). Both are
 * keyed once per SA. asmcrypto's public API takes the IV only in the
 * constructor, and constructing costs a 64 KiB heap and an asm.js module
 * (~80 us, more than the whole packet), so one encrypting and one decrypting
 * object live per SA and keep chaining from their previous call: the first
 * block is adjusted by XOR with (IV ^ previous last ciphertext block), which
 * gives exactly CBC with the packet's IV. hash-wasm's HMAC is re-initialised
 * per packet (init() restores the keyed state).
 */
const asmcryptoHashWasm: EspPeer = {
  name: 'asmcrypto.js+hash-wasm',
  async create(encKey, authKey, spi = 0x12345678) {
    const hasher: IHasher = await createHMAC(createSHA1(), authKey);
    const encryptor = new AES_CBC(encKey, undefined, false);
    const decryptor = new AES_CBC(encKey, undefined, false);
    const encryptChain = new Uint8Array(16); // asmcrypto's CBC register: zero IV, then the last ciphertext block
    const decryptChain = new Uint8Array(16);
    return espAround(
      {
        encrypt(plaintext, iv) {
          for (let i = 0; i < 16; i++) plaintext[i]! ^= iv[i]! ^ encryptChain[i]!;
          const ciphertext = encryptor.encrypt(plaintext);
          encryptChain.set(ciphertext.subarray(ciphertext.length - 16));
          return ciphertext;
        },
        decrypt(ciphertext, iv) {
          const plaintext = decryptor.decrypt(ciphertext);
          for (let i = 0; i < 16; i++) plaintext[i]! ^= iv[i]! ^ decryptChain[i]!;
          decryptChain.set(ciphertext.subarray(ciphertext.length - 16));
          return plaintext;
        },
        mac(data) {
          hasher.init();
          hasher.update(data);
          return hasher.digest('binary');
        },
      },
      spi,
    );
  },
};

/** Every ESP peer, the node:crypto reference first. */
export const espPeers: readonly EspPeer[] = [nodePerPacket, noble, asmcryptoHashWasm];
