// CMAC subkey derivation (RFC 4493 section 2.3): K1 = dbl(E_K(0^128)),
// K2 = dbl(K1), where dbl is a left shift by one bit in GF(2^128) reduced by
// x^128 + x^7 + x^2 + x + 1. Subkeys are secret, so the reduction is masked
// arithmetic, never a branch on the top bit. Two word layouts: big-endian
// words (dblWords, readWords, writeWords), in which dbl is a plain shift
// across words, used by cmacNative; and the little-endian words of aes-core's
// cbcMacWords state (dblLittleEndianWords), the form a Cmac context keeps K1
// in (K2 is derived from it when a message needs it).

/** out[0..4) = dbl(w[0..4)); out may be w. */
export function dblWords(w: ArrayLike<number>, out: Int32Array): void {
  const w0 = w[0]!;
  const w1 = w[1]!;
  const w2 = w[2]!;
  const w3 = w[3]!;
  out[0] = (w0 << 1) | (w1 >>> 31);
  out[1] = (w1 << 1) | (w2 >>> 31);
  out[2] = (w2 << 1) | (w3 >>> 31);
  // -(w0 >>> 31) is 0 or -1 (all ones), so 0x87 & it selects the reduction without a branch.
  out[3] = (w3 << 1) ^ (0x87 & -(w0 >>> 31));
}

/** out[0..4) = the four big-endian words of bytes[off..off+16). */
export function readWords(bytes: Uint8Array, off: number, out: Int32Array): void {
  for (let i = 0; i < 4; i++) {
    const o = off + 4 * i;
    out[i] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
  }
}

/** bytes[off..off+16) = the four words of w, big-endian. */
export function writeWords(w: ArrayLike<number>, bytes: Uint8Array, off: number): void {
  for (let i = 0; i < 4; i++) {
    const v = w[i]!;
    const o = off + 4 * i;
    bytes[o] = v >>> 24;
    bytes[o + 1] = v >>> 16;
    bytes[o + 2] = v >>> 8;
    bytes[o + 3] = v;
  }
}

/** The byte swap of a 32-bit word: converts between the two layouts. */
export function byteSwap(w: number): number {
  return (w << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24);
}

/** out[0..4) = dbl(w[0..4)) with both as little-endian words (byte 4j + i in bits 8i.. of word j); out may be w. */
export function dblLittleEndianWords(w: ArrayLike<number>, out: Int32Array): void {
  const w0 = byteSwap(w[0]!);
  const w1 = byteSwap(w[1]!);
  const w2 = byteSwap(w[2]!);
  const w3 = byteSwap(w[3]!);
  out[0] = byteSwap((w0 << 1) | (w1 >>> 31));
  out[1] = byteSwap((w1 << 1) | (w2 >>> 31));
  out[2] = byteSwap((w2 << 1) | (w3 >>> 31));
  out[3] = byteSwap((w3 << 1) ^ (0x87 & -(w0 >>> 31)));
}
