// An independent ESP sealer written directly on node:crypto (createCipheriv +
// createHmac per packet), for cross-checking packets and for building packets
// the SA must refuse (bad padding under a valid ICV).
import { createCipheriv, createHmac } from 'node:crypto';

export interface ReferencePacket {
  spi: number;
  seq: number;
  iv: Uint8Array;
  encKey: Uint8Array;
  authKey: Uint8Array;
  /** Plaintext to encrypt as it is: payload | padding | pad length | next header, a multiple of 16 bytes. */
  plaintext: Uint8Array;
}

export function paddedPlaintext(payload: Uint8Array, nextHeader: number): Uint8Array {
  const padLength = (16 - ((payload.length + 2) % 16)) % 16;
  const out = new Uint8Array(payload.length + padLength + 2);
  out.set(payload);
  for (let i = 0; i < padLength; i++) out[payload.length + i] = i + 1;
  out[out.length - 2] = padLength;
  out[out.length - 1] = nextHeader;
  return out;
}

export function referenceSeal(p: ReferencePacket): Uint8Array {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(p.spi, 0);
  header.writeUInt32BE(p.seq, 4);
  const cipher = createCipheriv(`aes-${p.encKey.length * 8}-cbc`, p.encKey, p.iv);
  cipher.setAutoPadding(false);
  const ciphertext = Buffer.concat([cipher.update(p.plaintext), cipher.final()]);
  const authenticated = Buffer.concat([header, p.iv, ciphertext]);
  const icv = createHmac('sha1', p.authKey).update(authenticated).digest().subarray(0, 12);
  return new Uint8Array(Buffer.concat([authenticated, icv]));
}

export function icvOf(authKey: Uint8Array, authenticated: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha1', authKey).update(authenticated).digest().subarray(0, 12));
}
