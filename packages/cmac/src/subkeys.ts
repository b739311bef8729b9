// CMAC subkey derivation (RFC 4493 section 2.3): K1 = dbl(E_K(0^128)),
// K2 = dbl(K1), where dbl is a left shift by one bit in GF(2^128) reduced by
// x^128 + x^7 + x^2 + x + 1. Subkeys are secret, so the reduction is masked
// arithmetic, never a branch on the top bit.

/** dst[dstOff..+16) = dbl(src[srcOff..+16)); safe when src and dst overlap exactly. */
export function dbl(src: Uint8Array, srcOff: number, dst: Uint8Array, dstOff: number): void {
  // -msb is 0 or -1 (all ones), so 0x87 & -msb selects the reduction without a branch.
  const msb = src[srcOff]! >>> 7;
  for (let i = 0; i < 15; i++) {
    dst[dstOff + i] = (src[srcOff + i]! << 1) | (src[srcOff + i + 1]! >>> 7);
  }
  dst[dstOff + 15] = (src[srcOff + 15]! << 1) ^ (0x87 & -msb);
}

/**
 * Writes K1 at out[off..off+16) and K2 at out[off+16..off+32) from
 * L = E_K(0^128), which the caller computed with its cipher.
 */
export function subkeysFromL(l: Uint8Array, out: Uint8Array, off: number): void {
  dbl(l, 0, out, off);
  dbl(out, off, out, off + 16);
}
