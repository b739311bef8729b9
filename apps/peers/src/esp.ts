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
  /** SPI | seq | IV | AES-CBC(payload | padding | pad length | next header) | ICV(12). */
  seal(payload: Uint8Array, nextHeader: number, iv: Uint8Array): Uint8Array;
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
  encrypt(plaintext: Uint8Array, iv: Uint8Array): Uint8Array;
  decrypt(ciphertext: Uint8Array, iv: Uint8Array): Uint8Array;
  /** Full or truncated HMAC-SHA1 tag of `data` (at least 12 bytes). */
  mac(data: Uint8Array): Uint8Array;
}

/** The ESP framing around a pair of library primitives, written once for all peers. */
function espAround(p: Primitives, spi: number): EspPeerSa {
  let seq = 1;
  return {
    seal(payload, nextHeader, iv) {
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
      view.setUint32(4, seq++);
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
      for (let i = 0; i < padLength; i++) if (plaintext[payloadLength + i] !== i + 1) throw new Error('bad ESP padding');
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

/** asmcrypto.js AES_CBC (asm.js, one-shot) + hash-wasm HMAC-SHA1 (WebAssembly, keyed once, re-initialised per packet). */
const asmcryptoHashWasm: EspPeer = {
  name: 'asmcrypto.js+hash-wasm',
  async create(encKey, authKey, spi = 0x12345678) {
    const hasher: IHasher = await createHMAC(createSHA1(), authKey);
    return espAround(
      {
        encrypt: (plaintext, iv) => AES_CBC.encrypt(plaintext, encKey, false, iv),
        decrypt: (ciphertext, iv) => AES_CBC.decrypt(ciphertext, encKey, false, iv),
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
