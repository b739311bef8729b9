// GF(2^8) arithmetic of FIPS 197 section 4 and the S-boxes derived from it.
// Tables are computed here at module load from the field definition, never
// pasted as literals, so they can be checked against the standard's
// definition in one place. Used by the table backend (lookups) and by the
// constant-time backend's tests and key-schedule constants (Rcon).

/** Multiplication by x (i.e. {02}) modulo the AES polynomial x^8 + x^4 + x^3 + x + 1. */
export function xtime(a: number): number {
  return ((a << 1) ^ ((a >>> 7) * 0x11b)) & 0xff;
}

/** Field multiplication (shift-and-add; only used to build tables, never on secrets at run time). */
export function gfMul(a: number, b: number): number {
  let r = 0;
  for (let i = 0; i < 8; i++) {
    if (b & 1) r ^= a;
    a = xtime(a);
    b >>>= 1;
  }
  return r;
}

function buildSboxes(): { sbox: Uint8Array; invSbox: Uint8Array } {
  const sbox = new Uint8Array(256);
  const invSbox = new Uint8Array(256);
  for (let x = 0; x < 256; x++) {
    // Multiplicative inverse by exponentiation: x^254 = x^-1 (and 0 -> 0).
    let inv = 1;
    let p = x;
    for (let e = 254; e > 0; e >>>= 1) {
      if (e & 1) inv = gfMul(inv, p);
      p = gfMul(p, p);
    }
    if (x === 0) inv = 0;
    // Affine transformation: b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63.
    let s = inv;
    for (let i = 1; i <= 4; i++) s ^= ((inv << i) | (inv >>> (8 - i))) & 0xff;
    s ^= 0x63;
    sbox[x] = s;
    invSbox[s] = x;
  }
  return { sbox, invSbox };
}

export const { sbox: SBOX, invSbox: INV_SBOX } = buildSboxes();

/** Round constants Rcon[i] = x^(i-1) for the key schedule (index 0 unused). */
export const RCON: readonly number[] = (() => {
  const r = [0];
  let c = 1;
  for (let i = 1; i <= 10; i++) {
    r.push(c);
    c = xtime(c);
  }
  return r;
})();
