// biome-ignore-all format: the S-box circuit keeps the rows of its published listing (several gates per line)
// Constant-time AES in plain JavaScript: bitsliced on 32-bit words, no table
// lookups and no branches on secret data anywhere (key schedule included).
// The fallback where WebAssembly SIMD (the `ct` backend) is unavailable, e.g.
// under a Content-Security-Policy that forbids WebAssembly. Every operation on
// key or state is a fixed sequence of AND/XOR/NOT, shifts and rotations by
// amounts that depend only on the round number.
//
// State layout ("doubled fixsliced"): eight words q0..q7, word k holding bit k
// of all 16 state bytes. State byte (row r, column c) sits at bit 8c + r and
// again at bit 8c + r + 4, so moving a row up or a column over is a single
// 32-bit rotation (a row rotation inside a byte reads the copy instead of
// wrapping). ShiftRows is never executed: after k rounds the byte of logical
// column c in row r is kept in physical column c + k*r (mod 4), MixColumns
// reads its neighbours with rotations adjusted to that frame, and the round
// keys are stored pre-rotated into the frame of the round that uses them.
// The S-box is the Boyar-Peralta 113-gate circuit (J. Boyar and R. Peralta,
// "A new combinational logic minimization technique with applications to
// cryptology", SEA 2010); the inverse S-box wraps it in the inverse affine map.
import { AesCipherBase } from '../cipher-base.js';
import { expandKeyWords } from '../aes-field.js';
import type { AesBackend, AesBackendInfo } from '../types.js';

const info: AesBackendInfo = Object.freeze({ name: 'bitsliced', constantTime: true, native: false });

function rotr(x: number, s: number): number {
  return (x >>> s) | (x << (32 - s));
}

/**
 * SubBytes (or InvSubBytes) alone on the bit planes q, in place: one round
 * with all-zero round keys, then the frame rotation of that round undone.
 * Used by the key schedule and by the exhaustive S-box test, so the circuit
 * exists once, inside runRounds.
 */
export function subBytesBitsliced(q: Int32Array, inverse = false): void {
  runRounds(q, ZERO_ROUND_KEYS, 1, inverse);
  rotateRowsToFrame(q, 0, inverse ? 3 : 1);
}

const ZERO_ROUND_KEYS = new Int32Array(16);

/**
 * All rounds of one block on the state planes q (frame 0 in and out), in
 * either direction; branches depend only on the direction and round number.
 *
 * MixColumns in frame k (k ShiftRows skipped so far, mod 4):
 * out = 2(a ^ R1 a) ^ R1 a ^ R2(a ^ R1 a), where Rj brings the byte j rows
 * down in the same logical column: j rows within the byte and k*j physical
 * columns over, one rotation by 8kj + j. Only the low copy (rows 0..3) of the
 * result is valid, so it is doubled again (x & 0x0f0f0f0f, then x |= x << 4).
 * The loop body makes no calls at all (rotations written out): a call site
 * that has not run yet when V8 optimizes this function (heavy key expansion
 * runs only the S-box part) would stay a slow generic call without any
 * deoptimization to repair it. InvMixColumns is MixColumns after a
 * cheap pre-step, InvMixColumns = MixColumns * circ(5, 0, 4, 0): a ^= 4(a ^ R2 a).
 */
function runRounds(q: Int32Array, rk: Int32Array, rounds: number, inverse: boolean): void {
  let off = inverse ? 8 * rounds : 0;
  const step = inverse ? -8 : 8;
  let a0 = q[0]! ^ rk[off]!, a1 = q[1]! ^ rk[off + 1]!, a2 = q[2]! ^ rk[off + 2]!, a3 = q[3]! ^ rk[off + 3]!;
  let a4 = q[4]! ^ rk[off + 4]!, a5 = q[5]! ^ rk[off + 5]!, a6 = q[6]! ^ rk[off + 6]!, a7 = q[7]! ^ rk[off + 7]!;
  for (let i = 1; i <= rounds; i++) {
    off += step;
    // InvS(y) = A^-1(S(A^-1(y ^ 63)) ^ 63): the forward circuit between two inverse affine maps.
    for (let pass = inverse ? 0 : 1; pass < (inverse ? 3 : 2); pass++) {
      if (pass !== 1) {
        // Inverse affine map (FIPS 197 5.3.2): b'_i = b_(i+2) ^ b_(i+5) ^ b_(i+7) ^ {05}_i.
        const b0 = a0, b1 = a1, b2 = a2, b3 = a3, b4 = a4, b5 = a5, b6 = a6, b7 = a7;
        a0 = ~(b2 ^ b5 ^ b7);
        a1 = b3 ^ b6 ^ b0;
        a2 = ~(b4 ^ b7 ^ b1);
        a3 = b5 ^ b0 ^ b2;
        a4 = b6 ^ b1 ^ b3;
        a5 = b7 ^ b2 ^ b4;
        a6 = b0 ^ b3 ^ b5;
        a7 = b1 ^ b4 ^ b6;
        continue;
      }
      // S-box (Boyar-Peralta), bit 7 = U0: top linear layer.
      const U0 = a7, U1 = a6, U2 = a5, U3 = a4, U4 = a3, U5 = a2, U6 = a1, U7 = a0;
      const T1 = U0 ^ U3, T2 = U0 ^ U5, T3 = U0 ^ U6, T4 = U3 ^ U5, T5 = U4 ^ U6, T6 = T1 ^ T5;
      const T7 = U1 ^ U2, T8 = U7 ^ T6, T9 = U7 ^ T7, T10 = T6 ^ T7, T11 = U1 ^ U5, T12 = U2 ^ U5;
      const T13 = T3 ^ T4, T14 = T6 ^ T11, T15 = T5 ^ T11, T16 = T5 ^ T12, T17 = T9 ^ T16, T18 = U3 ^ U7;
      const T19 = T7 ^ T18, T20 = T1 ^ T19, T21 = U6 ^ U7, T22 = T7 ^ T21, T23 = T2 ^ T22, T24 = T2 ^ T10;
      const T25 = T20 ^ T17, T26 = T3 ^ T16, T27 = T1 ^ T12;
      // Shared non-linear middle (inversion in GF(2^8) through GF(2^4)).
      const M1 = T13 & T6, M2 = T23 & T8, M3 = T14 ^ M1, M4 = T19 & U7, M5 = M4 ^ M1, M6 = T3 & T16;
      const M7 = T22 & T9, M8 = T26 ^ M6, M9 = T20 & T17, M10 = M9 ^ M6, M11 = T1 & T15, M12 = T4 & T27;
      const M13 = M12 ^ M11, M14 = T2 & T10, M15 = M14 ^ M11, M16 = M3 ^ M2, M17 = M5 ^ T24, M18 = M8 ^ M7;
      const M19 = M10 ^ M15, M20 = M16 ^ M13, M21 = M17 ^ M15, M22 = M18 ^ M13, M23 = M19 ^ T25;
      const M24 = M22 ^ M23, M25 = M22 & M20, M26 = M21 ^ M25, M27 = M20 ^ M21, M28 = M23 ^ M25;
      const M29 = M28 & M27, M30 = M26 & M24, M31 = M20 & M23, M32 = M27 & M31, M33 = M27 ^ M25;
      const M34 = M21 & M22, M35 = M24 & M34, M36 = M24 ^ M25, M37 = M21 ^ M29, M38 = M32 ^ M33;
      const M39 = M23 ^ M30, M40 = M35 ^ M36, M41 = M38 ^ M40, M42 = M37 ^ M39, M43 = M37 ^ M38;
      const M44 = M39 ^ M40, M45 = M42 ^ M41, M46 = M44 & T6, M47 = M40 & T8, M48 = M39 & U7;
      const M49 = M43 & T16, M50 = M38 & T9, M51 = M37 & T17, M52 = M42 & T15, M53 = M45 & T27;
      const M54 = M41 & T10, M55 = M44 & T13, M56 = M40 & T23, M57 = M39 & T19, M58 = M43 & T3;
      const M59 = M38 & T22, M60 = M37 & T20, M61 = M42 & T1, M62 = M45 & T4, M63 = M41 & T2;
      // Bottom linear layer (with the affine constant 0x63 as the four NOTs).
      const L0 = M61 ^ M62, L1 = M50 ^ M56, L2 = M46 ^ M48, L3 = M47 ^ M55, L4 = M54 ^ M58;
      const L5 = M49 ^ M61, L6 = M62 ^ L5, L7 = M46 ^ L3, L8 = M51 ^ M59, L9 = M52 ^ M53;
      const L10 = M53 ^ L4, L11 = M60 ^ L2, L12 = M48 ^ M51, L13 = M50 ^ L0, L14 = M52 ^ M61;
      const L15 = M55 ^ L1, L16 = M56 ^ L0, L17 = M57 ^ L1, L18 = M58 ^ L8, L19 = M63 ^ L4;
      const L20 = L0 ^ L1, L21 = L1 ^ L7, L22 = L3 ^ L12, L23 = L18 ^ L2, L24 = L15 ^ L9;
      const L25 = L6 ^ L10, L26 = L7 ^ L9, L27 = L8 ^ L10, L28 = L11 ^ L14, L29 = L11 ^ L17;
      a7 = L6 ^ L24;
      a6 = ~(L16 ^ L26);
      a5 = ~(L19 ^ L28);
      a4 = L6 ^ L21;
      a3 = L20 ^ L22;
      a2 = L25 ^ L29;
      a1 = ~(L13 ^ L27);
      a0 = ~(L6 ^ L23);
    }
    if (inverse) {
      a0 ^= rk[off]!; a1 ^= rk[off + 1]!; a2 ^= rk[off + 2]!; a3 ^= rk[off + 3]!;
      a4 ^= rk[off + 4]!; a5 ^= rk[off + 5]!; a6 ^= rk[off + 6]!; a7 ^= rk[off + 7]!;
    }
    if (i < rounds) {
      const k = (inverse ? -i : i) & 3;
      const s1 = (8 * k + 1) & 31;
      const s2 = (16 * k + 2) & 31;
      if (inverse) {
        const v0 = a0 ^ ((a0 >>> s2) | (a0 << (32 - s2)));
        const v1 = a1 ^ ((a1 >>> s2) | (a1 << (32 - s2)));
        const v2 = a2 ^ ((a2 >>> s2) | (a2 << (32 - s2)));
        const v3 = a3 ^ ((a3 >>> s2) | (a3 << (32 - s2)));
        const v4 = a4 ^ ((a4 >>> s2) | (a4 << (32 - s2)));
        const v5 = a5 ^ ((a5 >>> s2) | (a5 << (32 - s2)));
        const v6 = a6 ^ ((a6 >>> s2) | (a6 << (32 - s2)));
        const v7 = a7 ^ ((a7 >>> s2) | (a7 << (32 - s2)));
        // a ^= 4v: x^2 * v reduced by x^8 = x^4 + x^3 + x + 1, then doubled again.
        a0 = (a0 ^ v6) & 0x0f0f0f0f;
        a0 |= a0 << 4;
        a1 = (a1 ^ v6 ^ v7) & 0x0f0f0f0f;
        a1 |= a1 << 4;
        a2 = (a2 ^ v0 ^ v7) & 0x0f0f0f0f;
        a2 |= a2 << 4;
        a3 = (a3 ^ v1 ^ v6) & 0x0f0f0f0f;
        a3 |= a3 << 4;
        a4 = (a4 ^ v2 ^ v6 ^ v7) & 0x0f0f0f0f;
        a4 |= a4 << 4;
        a5 = (a5 ^ v3 ^ v7) & 0x0f0f0f0f;
        a5 |= a5 << 4;
        a6 = (a6 ^ v4) & 0x0f0f0f0f;
        a6 |= a6 << 4;
        a7 = (a7 ^ v5) & 0x0f0f0f0f;
        a7 |= a7 << 4;
      }
      const r0 = ((a0 >>> s1) | (a0 << (32 - s1)));
      const r1 = ((a1 >>> s1) | (a1 << (32 - s1)));
      const r2 = ((a2 >>> s1) | (a2 << (32 - s1)));
      const r3 = ((a3 >>> s1) | (a3 << (32 - s1)));
      const r4 = ((a4 >>> s1) | (a4 << (32 - s1)));
      const r5 = ((a5 >>> s1) | (a5 << (32 - s1)));
      const r6 = ((a6 >>> s1) | (a6 << (32 - s1)));
      const r7 = ((a7 >>> s1) | (a7 << (32 - s1)));
      const t0 = a0 ^ r0, t1 = a1 ^ r1, t2 = a2 ^ r2, t3 = a3 ^ r3, t4 = a4 ^ r4, t5 = a5 ^ r5, t6 = a6 ^ r6, t7 = a7 ^ r7;
      a0 = (t7 ^ r0 ^ ((t0 >>> s2) | (t0 << (32 - s2)))) & 0x0f0f0f0f;
      a0 |= a0 << 4;
      a1 = (t0 ^ t7 ^ r1 ^ ((t1 >>> s2) | (t1 << (32 - s2)))) & 0x0f0f0f0f;
      a1 |= a1 << 4;
      a2 = (t1 ^ r2 ^ ((t2 >>> s2) | (t2 << (32 - s2)))) & 0x0f0f0f0f;
      a2 |= a2 << 4;
      a3 = (t2 ^ t7 ^ r3 ^ ((t3 >>> s2) | (t3 << (32 - s2)))) & 0x0f0f0f0f;
      a3 |= a3 << 4;
      a4 = (t3 ^ t7 ^ r4 ^ ((t4 >>> s2) | (t4 << (32 - s2)))) & 0x0f0f0f0f;
      a4 |= a4 << 4;
      a5 = (t4 ^ r5 ^ ((t5 >>> s2) | (t5 << (32 - s2)))) & 0x0f0f0f0f;
      a5 |= a5 << 4;
      a6 = (t5 ^ r6 ^ ((t6 >>> s2) | (t6 << (32 - s2)))) & 0x0f0f0f0f;
      a6 |= a6 << 4;
      a7 = (t6 ^ r7 ^ ((t7 >>> s2) | (t7 << (32 - s2)))) & 0x0f0f0f0f;
      a7 |= a7 << 4;
    }
    if (!inverse) {
      a0 ^= rk[off]!; a1 ^= rk[off + 1]!; a2 ^= rk[off + 2]!; a3 ^= rk[off + 3]!;
      a4 ^= rk[off + 4]!; a5 ^= rk[off + 5]!; a6 ^= rk[off + 6]!; a7 ^= rk[off + 7]!;
    }
  }
  q[0] = a0; q[1] = a1; q[2] = a2; q[3] = a3; q[4] = a4; q[5] = a5; q[6] = a6; q[7] = a7;
  // Back to frame 0 from frame +rounds (encryption) or -rounds (decryption).
  if ((rounds & 3) !== 0) rotateRowsToFrame(q, 0, inverse ? rounds & 3 : (4 - rounds) & 3);
}

/**
 * Moves row r of every plane k*r columns to the right (mod 4): changes the
 * frame of a state or round key from 0 to k (or, with 4 - k, back from k).
 */
export function rotateRowsToFrame(q: Int32Array, off: number, k: number): void {
  const s1 = (8 * ((4 - k) & 3)) & 31;
  const s2 = (8 * ((8 - 2 * k) & 3)) & 31;
  const s3 = (8 * ((12 - 3 * k) & 3)) & 31;
  for (let i = off; i < off + 8; i++) {
    const x = q[i]!;
    q[i] = (x & 0x11111111) | rotr(x & 0x22222222, s1) | rotr(x & 0x44444444, s2) | rotr(x & 0x88888888, s3);
  }
}

// Bit-matrix transposition by swapping index bits:
// 4 little-endian column words, bit (row r, bit k) at 8r + k  <->
// 4 words indexed by k mod 4, bit (column c, k >= 4, row r) at 8c + 4(k >> 2) + r.
// Steps: swap column bit 0 with bit-index bit 0 and column bit 1 with
// bit-index bit 1 (SWAPMOVE between words), then inside each word swap
// bit-index bits 0<->3 and 1<->4 (delta swaps). Every step is an involution,
// so the inverse is the same steps in reverse order. Words stay in locals.

function deltaSwap(x: number, mask: number, d: number): number {
  const t = (x ^ (x >>> d)) & mask;
  return x ^ t ^ (t << d);
}

/** 16 bytes (FIPS 197 input order: column by column) -> doubled bit planes q[off..off+8). */
function loadPlanes(src: Uint8Array, so: number, q: Int32Array, off: number): void {
  let w0 = src[so]! | (src[so + 1]! << 8) | (src[so + 2]! << 16) | (src[so + 3]! << 24);
  let w1 = src[so + 4]! | (src[so + 5]! << 8) | (src[so + 6]! << 16) | (src[so + 7]! << 24);
  let w2 = src[so + 8]! | (src[so + 9]! << 8) | (src[so + 10]! << 16) | (src[so + 11]! << 24);
  let w3 = src[so + 12]! | (src[so + 13]! << 8) | (src[so + 14]! << 16) | (src[so + 15]! << 24);
  let t = ((w0 >>> 1) ^ w1) & 0x55555555; w1 ^= t; w0 ^= t << 1;
  t = ((w2 >>> 1) ^ w3) & 0x55555555; w3 ^= t; w2 ^= t << 1;
  t = ((w0 >>> 2) ^ w2) & 0x33333333; w2 ^= t; w0 ^= t << 2;
  t = ((w1 >>> 2) ^ w3) & 0x33333333; w3 ^= t; w1 ^= t << 2;
  w0 = deltaSwap(deltaSwap(w0, 0x00aa00aa, 7), 0x0000cccc, 14);
  w1 = deltaSwap(deltaSwap(w1, 0x00aa00aa, 7), 0x0000cccc, 14);
  w2 = deltaSwap(deltaSwap(w2, 0x00aa00aa, 7), 0x0000cccc, 14);
  w3 = deltaSwap(deltaSwap(w3, 0x00aa00aa, 7), 0x0000cccc, 14);
  // Low nibbles hold planes 0..3, high nibbles planes 4..7; each is doubled into both nibbles.
  q[off] = Math.imul(w0 & 0x0f0f0f0f, 0x11);
  q[off + 1] = Math.imul(w1 & 0x0f0f0f0f, 0x11);
  q[off + 2] = Math.imul(w2 & 0x0f0f0f0f, 0x11);
  q[off + 3] = Math.imul(w3 & 0x0f0f0f0f, 0x11);
  q[off + 4] = Math.imul((w0 >>> 4) & 0x0f0f0f0f, 0x11);
  q[off + 5] = Math.imul((w1 >>> 4) & 0x0f0f0f0f, 0x11);
  q[off + 6] = Math.imul((w2 >>> 4) & 0x0f0f0f0f, 0x11);
  q[off + 7] = Math.imul((w3 >>> 4) & 0x0f0f0f0f, 0x11);
}

function storeWord(dst: Uint8Array, i: number, x: number): void {
  dst[i] = x;
  dst[i + 1] = x >>> 8;
  dst[i + 2] = x >>> 16;
  dst[i + 3] = x >>> 24;
}

/** Doubled bit planes q[0..8) -> 16 bytes at dst[dOff..). */
function storePlanes(q: Int32Array, dst: Uint8Array, dOff: number): void {
  let w0 = (q[0]! & 0x0f0f0f0f) | (q[4]! & 0xf0f0f0f0);
  let w1 = (q[1]! & 0x0f0f0f0f) | (q[5]! & 0xf0f0f0f0);
  let w2 = (q[2]! & 0x0f0f0f0f) | (q[6]! & 0xf0f0f0f0);
  let w3 = (q[3]! & 0x0f0f0f0f) | (q[7]! & 0xf0f0f0f0);
  w0 = deltaSwap(deltaSwap(w0, 0x0000cccc, 14), 0x00aa00aa, 7);
  w1 = deltaSwap(deltaSwap(w1, 0x0000cccc, 14), 0x00aa00aa, 7);
  w2 = deltaSwap(deltaSwap(w2, 0x0000cccc, 14), 0x00aa00aa, 7);
  w3 = deltaSwap(deltaSwap(w3, 0x0000cccc, 14), 0x00aa00aa, 7);
  let t = ((w1 >>> 2) ^ w3) & 0x33333333; w3 ^= t; w1 ^= t << 2;
  t = ((w0 >>> 2) ^ w2) & 0x33333333; w2 ^= t; w0 ^= t << 2;
  t = ((w2 >>> 1) ^ w3) & 0x55555555; w3 ^= t; w2 ^= t << 1;
  t = ((w0 >>> 1) ^ w1) & 0x55555555; w1 ^= t; w0 ^= t << 1;
  storeWord(dst, dOff, w0);
  storeWord(dst, dOff + 4, w1);
  storeWord(dst, dOff + 8, w2);
  storeWord(dst, dOff + 12, w3);
}

// Working state of one block operation. Module-level so no call allocates;
// wiped after every operation that held secret data.
const state = new Int32Array(8);
// CBC chaining value (previous ciphertext block) and the saved next one, as planes.
const chain = new Int32Array(8);
const nextChain = new Int32Array(8);
const keyBytes = new Uint8Array(16);

/** Zeroes the block scratch (explicit stores: TypedArray.fill costs more than the stores here). */
function wipeBlockScratch(): void {
  for (let i = 0; i < 8; i++) state[i] = 0;
}

function wipeChain(): void {
  for (let i = 0; i < 8; i++) {
    chain[i] = 0;
    nextChain[i] = 0;
  }
}

function wipeScratch(): void {
  wipeBlockScratch();
  keyBytes.fill(0);
}

/** SubWord without tables: the word's four bytes go through the bitsliced S-box. */
function subWordConstantTime(word: number): number {
  keyBytes.fill(0);
  keyBytes[0] = word >>> 24;
  keyBytes[1] = word >>> 16;
  keyBytes[2] = word >>> 8;
  keyBytes[3] = word;
  loadPlanes(keyBytes, 0, state, 0);
  subBytesBitsliced(state);
  storePlanes(state, keyBytes, 0);
  return (keyBytes[0]! << 24) | (keyBytes[1]! << 16) | (keyBytes[2]! << 8) | keyBytes[3]!;
}

/** Round keys as doubled bit planes, round i rotated into frame i (mod 4), the frame encryption uses. */
function planeSchedule(words: Int32Array): Int32Array {
  const rounds = words.length / 4 - 1;
  const out = new Int32Array(8 * (rounds + 1));
  for (let i = 0; i <= rounds; i++) {
    for (let j = 0; j < 4; j++) {
      const x = words[4 * i + j]!;
      keyBytes[4 * j] = x >>> 24;
      keyBytes[4 * j + 1] = x >>> 16;
      keyBytes[4 * j + 2] = x >>> 8;
      keyBytes[4 * j + 3] = x;
    }
    loadPlanes(keyBytes, 0, out, 8 * i);
    rotateRowsToFrame(out, 8 * i, i & 3);
  }
  return out;
}

class BitslicedAesCipher extends AesCipherBase {
  private readonly rounds: number;
  private ek: Int32Array;
  private dk: Int32Array | undefined = undefined;

  constructor(key: Uint8Array) {
    super(key.length);
    const words = expandKeyWords(key, subWordConstantTime);
    this.rounds = words.length / 4 - 1;
    this.ek = planeSchedule(words);
    words.fill(0);
    wipeScratch();
  }

  get backend(): AesBackendInfo {
    return info;
  }

  /**
   * Decryption adds round key i in frame i - rounds instead of i: the same
   * planes rotated by -rounds (mod 4). For AES-192 (12 rounds) that is the
   * encryption schedule itself. Built on the first decryption only.
   */
  private decryptionSchedule(): Int32Array {
    if (this.dk === undefined) {
      const shift = -this.rounds & 3;
      const dk = shift === 0 ? this.ek : this.ek.slice();
      if (shift !== 0) for (let off = 0; off < dk.length; off += 8) rotateRowsToFrame(dk, off, shift);
      this.dk = dk;
    }
    return this.dk;
  }

  protected encryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    loadPlanes(src, so, state, 0);
    runRounds(state, this.ek, this.rounds, false);
    storePlanes(state, dst, dOff);
    wipeBlockScratch();
  }

  protected decryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    const dk = this.decryptionSchedule();
    loadPlanes(src, so, state, 0);
    runRounds(state, dk, this.rounds, true);
    storePlanes(state, dst, dOff);
    wipeBlockScratch();
  }

  // CBC chaining is done on bit planes (XOR commutes with the transposition),
  // so each block is transposed once in and once out, with no byte loop.
  protected override cbcEncryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    loadPlanes(iv, 0, chain, 0);
    for (let off = 0; off < input.length; off += 16) {
      loadPlanes(input, off, state, 0);
      for (let i = 0; i < 8; i++) state[i] ^= chain[i]!;
      runRounds(state, this.ek, this.rounds, false);
      storePlanes(state, output, off);
      // Element copies: TypedArray#set costs more than eight stores.
      for (let i = 0; i < 8; i++) chain[i] = state[i]!;
    }
    wipeBlockScratch();
    wipeChain();
  }

  protected override cbcDecryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const dk = this.decryptionSchedule();
    loadPlanes(iv, 0, chain, 0);
    for (let off = 0; off < input.length; off += 16) {
      loadPlanes(input, off, state, 0);
      for (let i = 0; i < 8; i++) nextChain[i] = state[i]!;
      runRounds(state, dk, this.rounds, true);
      for (let i = 0; i < 8; i++) {
        state[i] ^= chain[i]!;
        chain[i] = nextChain[i]!;
      }
      storePlanes(state, output, off);
    }
    wipeBlockScratch();
    wipeChain();
  }

  protected wipe(): void {
    this.ek.fill(0);
    this.dk?.fill(0);
    this.dk = undefined;
  }
}

export const bitslicedBackend: AesBackend = {
  info,
  available: () => true,
  expandKey: (key) => new BitslicedAesCipher(key),
};
