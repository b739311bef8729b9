// GF(2^8) arithmetic of FIPS 197 section 4, the S-boxes derived from it, and
// the key expansion of section 5.2 (shared by the backends, each passing its
// own SubWord). Tables are computed here at module load from the field
// definition, never pasted as literals, so they can be checked against the
// standard's definition in one place.

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

const sboxes = buildSboxes();
export const SBOX: Uint8Array = sboxes.sbox;
export const INV_SBOX: Uint8Array = sboxes.invSbox;

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

function newInt32Array(words: number): Int32Array {
  return new Int32Array(words);
}

/**
 * FIPS 197 KeyExpansion into 4 * (Nr + 1) words, big-endian (the standard's
 * byte order: key byte 0 in the high byte) or, with `littleEndian`, each word
 * byte-reversed (key byte 0 in the low byte: the table backend's column
 * order). `subWord` is the backend's S-box on the four bytes of a word (table
 * lookups, or the constant-time circuit), byte positions kept; the branches
 * depend only on the key length and the byte order. `allocate` supplies the
 * zeroed output array (the table backend carves it from a shared slab).
 */
export function expandKeyWords(
  key: Uint8Array,
  subWord: (word: number) => number,
  littleEndian = false,
  allocate: (words: number) => Int32Array = newInt32Array,
): Int32Array {
  const nk = key.length >>> 2;
  const total = 4 * (nk + 7);
  const w = allocate(total);
  for (let i = 0; i < nk; i++) {
    w[i] = littleEndian
      ? key[4 * i]! | (key[4 * i + 1]! << 8) | (key[4 * i + 2]! << 16) | (key[4 * i + 3]! << 24)
      : (key[4 * i]! << 24) | (key[4 * i + 1]! << 16) | (key[4 * i + 2]! << 8) | key[4 * i + 3]!;
  }
  for (let i = nk; i < total; i++) {
    let t = w[i - 1]!;
    if (i % nk === 0) {
      // RotWord moves byte 1 to byte 0: a left rotation big-endian, a right one little-endian.
      t = littleEndian
        ? subWord((t >>> 8) | (t << 24)) ^ RCON[i / nk]!
        : subWord((t << 8) | (t >>> 24)) ^ (RCON[i / nk]! << 24);
    } else if (nk > 6 && i % nk === 4) {
      t = subWord(t);
    }
    w[i] = w[i - nk]! ^ t;
  }
  return w;
}
