// The reference SHA-1 block function: the FIPS 180-4 section 6.1.2 loop as
// written, with an 80-word schedule. It is
// the one every other backend is checked against and the last-resort fallback.
import type { Sha1Compressor } from '../types.js';

const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];
// One schedule per module, reused by every call: nothing is allocated per block.
const W = new Int32Array(80);

/** sha1_block_data_order as a rolled 80-round loop. */
export function blockDataOrder(state: Uint32Array, data: Uint8Array, offset: number, blocks: number): void {
  let h0 = state[0]! | 0,
    h1 = state[1]! | 0,
    h2 = state[2]! | 0,
    h3 = state[3]! | 0,
    h4 = state[4]! | 0;
  for (let blk = 0, p = offset; blk < blocks; blk++, p += 64) {
    for (let t = 0; t < 16; t++) {
      const q = p + 4 * t;
      W[t] = (data[q]! << 24) | (data[q + 1]! << 16) | (data[q + 2]! << 8) | data[q + 3]!;
    }
    for (let t = 16; t < 80; t++) {
      const x = W[t - 3]! ^ W[t - 8]! ^ W[t - 14]! ^ W[t - 16]!;
      W[t] = (x << 1) | (x >>> 31);
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4;
    for (let t = 0; t < 80; t++) {
      let f: number;
      if (t < 20) f = (b & c) | (~b & d);
      else if (t < 40) f = b ^ c ^ d;
      else if (t < 60) f = (b & c) | (b & d) | (c & d);
      else f = b ^ c ^ d;
      const temp = (((a << 5) | (a >>> 27)) + f + e + K[(t / 20) | 0]! + W[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  state[0] = h0;
  state[1] = h1;
  state[2] = h2;
  state[3] = h3;
  state[4] = h4;
}

export const genericCompressor: Sha1Compressor = { name: 'generic', blockDataOrder };
