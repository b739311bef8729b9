// Table-driven AES ("T-tables", FIPS 197 section 5 rounds folded into four
// 256-entry word tables per direction). Fast and allocation-free per block,
// but NOT constant-time: table indices are secret state bytes, so cache timing
// can leak key material to a co-resident attacker.
import { AesCipherBase } from '../cipher-base.js';
import { checkBlockArgs } from '../input-checks.js';
import { INV_SBOX, SBOX, expandKeyWords, gfMul } from '../aes-field.js';
import type { AesBackend, AesBackendInfo } from '../types.js';

const info: AesBackendInfo = Object.freeze({ name: 'table', constantTime: false, native: false });

// State, round keys and tables hold each column as a little-endian word (row
// 0 in the low byte), so on little-endian hosts (all but s390x) the CBC loops
// read and write whole words through Int32Array views instead of assembling
// each word from four bytes (12% faster at 16 KiB).
// Te0[x] = the MixColumns column of S[x] in row 0: bytes (2s, s, s, 3s) for
// rows 0..3; Te1..Te3 are its byte rotations for rows 1..3. Td* are the same
// for InvMixColumns of InvS[x]: (14s, 9s, 13s, 11s).
const TE0 = new Int32Array(256);
const TE1 = new Int32Array(256);
const TE2 = new Int32Array(256);
const TE3 = new Int32Array(256);
const TD0 = new Int32Array(256);
const TD1 = new Int32Array(256);
const TD2 = new Int32Array(256);
const TD3 = new Int32Array(256);
for (let x = 0; x < 256; x++) {
  const s = SBOX[x]!;
  const e = gfMul(s, 2) | (s << 8) | (s << 16) | (gfMul(s, 3) << 24);
  TE0[x] = e;
  TE1[x] = (e << 8) | (e >>> 24);
  TE2[x] = (e << 16) | (e >>> 16);
  TE3[x] = (e << 24) | (e >>> 8);
  const v = INV_SBOX[x]!;
  const d = gfMul(v, 14) | (gfMul(v, 9) << 8) | (gfMul(v, 13) << 16) | (gfMul(v, 11) << 24);
  TD0[x] = d;
  TD1[x] = (d << 8) | (d >>> 24);
  TD2[x] = (d << 16) | (d >>> 16);
  TD3[x] = (d << 24) | (d >>> 8);
}

/** SubWord of FIPS 197 on a big-endian word (the key expansion's word order). */
function subWord(w: number): number {
  return (SBOX[w >>> 24]! << 24) | (SBOX[(w >>> 16) & 255]! << 16) | (SBOX[(w >>> 8) & 255]! << 8) | SBOX[w & 255]!;
}

/** The encryption schedule: FIPS 197 KeyExpansion, each word turned little-endian. */
function expandEncryptionKey(key: Uint8Array): Int32Array {
  const w = expandKeyWords(key, subWord);
  for (let i = 0; i < w.length; i++) {
    const x = w[i]!;
    w[i] = (x >>> 24) | ((x >>> 8) & 0xff00) | ((x & 0xff00) << 8) | (x << 24);
  }
  return w;
}

/**
 * The equivalent inverse cipher's schedule (FIPS 197 section 5.3.5): round keys
 * in reverse order with InvMixColumns applied to the middle ones, so
 * decryption rounds have the same shape as encryption rounds.
 */
function expandDecryptionKey(ek: Int32Array): Int32Array {
  const total = ek.length;
  const dk = new Int32Array(total);
  for (let r = 0; r < total; r += 4) {
    const from = total - 4 - r;
    for (let j = 0; j < 4; j++) {
      const w = ek[from + j]!;
      dk[r + j] = r === 0 || r === total - 4
        ? w
        : TD0[SBOX[w & 255]!]! ^ TD1[SBOX[(w >>> 8) & 255]!]! ^ TD2[SBOX[(w >>> 16) & 255]!]! ^ TD3[SBOX[w >>> 24]!]!;
    }
  }
  return dk;
}

/**
 * One block, src[0..16) -> dst[0..16): the rounds of cbcEncryptWords written
 * out again because this is the hot path of one-block users (CMAC): constant
 * offsets and no chaining or block loop make it about 15% faster in V8 than
 * cbcEncryptBytes with length 16. Reads all input before writing.
 */
function encryptOneBlock(rk: Int32Array, src: Uint8Array, dst: Uint8Array): void {
  const rounds = (rk.length >>> 2) - 1;
  const k = rk.length - 4;
  let s0 = (src[0]! | (src[1]! << 8) | (src[2]! << 16) | (src[3]! << 24)) ^ rk[0]!;
  let s1 = (src[4]! | (src[5]! << 8) | (src[6]! << 16) | (src[7]! << 24)) ^ rk[1]!;
  let s2 = (src[8]! | (src[9]! << 8) | (src[10]! << 16) | (src[11]! << 24)) ^ rk[2]!;
  let s3 = (src[12]! | (src[13]! << 8) | (src[14]! << 16) | (src[15]! << 24)) ^ rk[3]!;
  let t0: number, t1: number, t2: number, t3: number;
  t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[4]!;
  t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[5]!;
  t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[6]!;
  t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[7]!;
  s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ rk[8]!;
  s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ rk[9]!;
  s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ rk[10]!;
  s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ rk[11]!;
  t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[12]!;
  t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[13]!;
  t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[14]!;
  t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[15]!;
  s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ rk[16]!;
  s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ rk[17]!;
  s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ rk[18]!;
  s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ rk[19]!;
  t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[20]!;
  t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[21]!;
  t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[22]!;
  t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[23]!;
  s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ rk[24]!;
  s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ rk[25]!;
  s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ rk[26]!;
  s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ rk[27]!;
  t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[28]!;
  t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[29]!;
  t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[30]!;
  t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[31]!;
  s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ rk[32]!;
  s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ rk[33]!;
  s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ rk[34]!;
  s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ rk[35]!;
  t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[36]!;
  t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[37]!;
  t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[38]!;
  t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[39]!;
  if (rounds > 10) {
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ rk[40]!;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ rk[41]!;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ rk[42]!;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ rk[43]!;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[44]!;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[45]!;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[46]!;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[47]!;
    if (rounds > 12) {
      s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ rk[48]!;
      s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ rk[49]!;
      s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ rk[50]!;
      s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ rk[51]!;
      t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ rk[52]!;
      t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ rk[53]!;
      t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ rk[54]!;
      t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ rk[55]!;
    }
  }
  const c0 = (SBOX[t0 & 255]! | (SBOX[(t1 >>> 8) & 255]! << 8) | (SBOX[(t2 >>> 16) & 255]! << 16) | (SBOX[t3 >>> 24]! << 24)) ^ rk[k]!;
  const c1 = (SBOX[t1 & 255]! | (SBOX[(t2 >>> 8) & 255]! << 8) | (SBOX[(t3 >>> 16) & 255]! << 16) | (SBOX[t0 >>> 24]! << 24)) ^ rk[k + 1]!;
  const c2 = (SBOX[t2 & 255]! | (SBOX[(t3 >>> 8) & 255]! << 8) | (SBOX[(t0 >>> 16) & 255]! << 16) | (SBOX[t1 >>> 24]! << 24)) ^ rk[k + 2]!;
  const c3 = (SBOX[t3 & 255]! | (SBOX[(t0 >>> 8) & 255]! << 8) | (SBOX[(t1 >>> 16) & 255]! << 16) | (SBOX[t2 >>> 24]! << 24)) ^ rk[k + 3]!;
  dst[0] = c0; dst[1] = c0 >>> 8; dst[2] = c0 >>> 16; dst[3] = c0 >>> 24;
  dst[4] = c1; dst[5] = c1 >>> 8; dst[6] = c1 >>> 16; dst[7] = c1 >>> 24;
  dst[8] = c2; dst[9] = c2 >>> 8; dst[10] = c2 >>> 16; dst[11] = c2 >>> 24;
  dst[12] = c3; dst[13] = c3 >>> 8; dst[14] = c3 >>> 16; dst[15] = c3 >>> 24;
}

/**
 * CBC encryption of `words` 32-bit words (a multiple of 4) of src into dst:
 * C_i = E(P_i xor C_{i-1}), C_0 = (c0, c1, c2, c3). Reads each input block
 * fully before writing its output, so src and dst may be the same array.
 */
function cbcEncryptWords(rk: Int32Array, src: Int32Array, dst: Int32Array, words: number, c0: number, c1: number, c2: number, c3: number): void {
  const rounds = (rk.length >>> 2) - 1;
  const k = rk.length - 4;
  // Round keys in locals: the block loop then reads no schedule array (15% faster at 16 KiB).
  const k0 = rk[0]!, k1 = rk[1]!, k2 = rk[2]!, k3 = rk[3]!, k4 = rk[4]!, k5 = rk[5]!, k6 = rk[6]!, k7 = rk[7]!,
    k8 = rk[8]!, k9 = rk[9]!, k10 = rk[10]!, k11 = rk[11]!, k12 = rk[12]!, k13 = rk[13]!, k14 = rk[14]!, k15 = rk[15]!,
    k16 = rk[16]!, k17 = rk[17]!, k18 = rk[18]!, k19 = rk[19]!, k20 = rk[20]!, k21 = rk[21]!, k22 = rk[22]!, k23 = rk[23]!,
    k24 = rk[24]!, k25 = rk[25]!, k26 = rk[26]!, k27 = rk[27]!, k28 = rk[28]!, k29 = rk[29]!, k30 = rk[30]!, k31 = rk[31]!,
    k32 = rk[32]!, k33 = rk[33]!, k34 = rk[34]!, k35 = rk[35]!, k36 = rk[36]!, k37 = rk[37]!, k38 = rk[38]!, k39 = rk[39]!;
  const l0 = rk[k]!, l1 = rk[k + 1]!, l2 = rk[k + 2]!, l3 = rk[k + 3]!;
  let k40 = 0, k41 = 0, k42 = 0, k43 = 0, k44 = 0, k45 = 0, k46 = 0, k47 = 0,
    k48 = 0, k49 = 0, k50 = 0, k51 = 0, k52 = 0, k53 = 0, k54 = 0, k55 = 0;
  if (rounds > 10) {
    k40 = rk[40]!; k41 = rk[41]!; k42 = rk[42]!; k43 = rk[43]!; k44 = rk[44]!; k45 = rk[45]!; k46 = rk[46]!; k47 = rk[47]!;
    if (rounds > 12) {
      k48 = rk[48]!; k49 = rk[49]!; k50 = rk[50]!; k51 = rk[51]!; k52 = rk[52]!; k53 = rk[53]!; k54 = rk[54]!; k55 = rk[55]!;
    }
  }
  for (let o = 0; o < words; o += 4) {
    let s0 = src[o]! ^ c0 ^ k0;
    let s1 = src[o + 1]! ^ c1 ^ k1;
    let s2 = src[o + 2]! ^ c2 ^ k2;
    let s3 = src[o + 3]! ^ c3 ^ k3;
    let t0: number, t1: number, t2: number, t3: number;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k4;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k5;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k6;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k7;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k8;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k9;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k10;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k11;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k12;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k13;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k14;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k15;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k16;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k17;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k18;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k19;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k20;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k21;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k22;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k23;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k24;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k25;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k26;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k27;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k28;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k29;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k30;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k31;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k32;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k33;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k34;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k35;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k36;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k37;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k38;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k39;
    if (rounds > 10) {
      s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k40;
      s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k41;
      s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k42;
      s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k43;
      t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k44;
      t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k45;
      t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k46;
      t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k47;
      if (rounds > 12) {
        s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k48;
        s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k49;
        s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k50;
        s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k51;
        t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k52;
        t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k53;
        t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k54;
        t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k55;
      }
    }
    c0 = (SBOX[t0 & 255]! | (SBOX[(t1 >>> 8) & 255]! << 8) | (SBOX[(t2 >>> 16) & 255]! << 16) | (SBOX[t3 >>> 24]! << 24)) ^ l0;
    c1 = (SBOX[t1 & 255]! | (SBOX[(t2 >>> 8) & 255]! << 8) | (SBOX[(t3 >>> 16) & 255]! << 16) | (SBOX[t0 >>> 24]! << 24)) ^ l1;
    c2 = (SBOX[t2 & 255]! | (SBOX[(t3 >>> 8) & 255]! << 8) | (SBOX[(t0 >>> 16) & 255]! << 16) | (SBOX[t1 >>> 24]! << 24)) ^ l2;
    c3 = (SBOX[t3 & 255]! | (SBOX[(t0 >>> 8) & 255]! << 8) | (SBOX[(t1 >>> 16) & 255]! << 16) | (SBOX[t2 >>> 24]! << 24)) ^ l3;
    dst[o] = c0;
    dst[o + 1] = c1;
    dst[o + 2] = c2;
    dst[o + 3] = c3;
  }
}

/**
 * CBC decryption, the inverse of cbcEncryptWords: P_i = D(C_i) xor C_{i-1},
 * with the equivalent inverse cipher's schedule dk. src and dst may be the same.
 */
function cbcDecryptWords(dk: Int32Array, src: Int32Array, dst: Int32Array, words: number, c0: number, c1: number, c2: number, c3: number): void {
  const rounds = (dk.length >>> 2) - 1;
  const k = dk.length - 4;
  // Round keys in locals: the block loop then reads no schedule array (15% faster at 16 KiB).
  const k0 = dk[0]!, k1 = dk[1]!, k2 = dk[2]!, k3 = dk[3]!, k4 = dk[4]!, k5 = dk[5]!, k6 = dk[6]!, k7 = dk[7]!,
    k8 = dk[8]!, k9 = dk[9]!, k10 = dk[10]!, k11 = dk[11]!, k12 = dk[12]!, k13 = dk[13]!, k14 = dk[14]!, k15 = dk[15]!,
    k16 = dk[16]!, k17 = dk[17]!, k18 = dk[18]!, k19 = dk[19]!, k20 = dk[20]!, k21 = dk[21]!, k22 = dk[22]!, k23 = dk[23]!,
    k24 = dk[24]!, k25 = dk[25]!, k26 = dk[26]!, k27 = dk[27]!, k28 = dk[28]!, k29 = dk[29]!, k30 = dk[30]!, k31 = dk[31]!,
    k32 = dk[32]!, k33 = dk[33]!, k34 = dk[34]!, k35 = dk[35]!, k36 = dk[36]!, k37 = dk[37]!, k38 = dk[38]!, k39 = dk[39]!;
  const l0 = dk[k]!, l1 = dk[k + 1]!, l2 = dk[k + 2]!, l3 = dk[k + 3]!;
  let k40 = 0, k41 = 0, k42 = 0, k43 = 0, k44 = 0, k45 = 0, k46 = 0, k47 = 0,
    k48 = 0, k49 = 0, k50 = 0, k51 = 0, k52 = 0, k53 = 0, k54 = 0, k55 = 0;
  if (rounds > 10) {
    k40 = dk[40]!; k41 = dk[41]!; k42 = dk[42]!; k43 = dk[43]!; k44 = dk[44]!; k45 = dk[45]!; k46 = dk[46]!; k47 = dk[47]!;
    if (rounds > 12) {
      k48 = dk[48]!; k49 = dk[49]!; k50 = dk[50]!; k51 = dk[51]!; k52 = dk[52]!; k53 = dk[53]!; k54 = dk[54]!; k55 = dk[55]!;
    }
  }
  for (let o = 0; o < words; o += 4) {
    const x0 = src[o]!;
    const x1 = src[o + 1]!;
    const x2 = src[o + 2]!;
    const x3 = src[o + 3]!;
    let s0 = x0 ^ k0;
    let s1 = x1 ^ k1;
    let s2 = x2 ^ k2;
    let s3 = x3 ^ k3;
    let t0: number, t1: number, t2: number, t3: number;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k4;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k5;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k6;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k7;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k8;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k9;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k10;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k11;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k12;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k13;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k14;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k15;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k16;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k17;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k18;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k19;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k20;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k21;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k22;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k23;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k24;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k25;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k26;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k27;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k28;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k29;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k30;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k31;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k32;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k33;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k34;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k35;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k36;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k37;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k38;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k39;
    if (rounds > 10) {
      s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k40;
      s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k41;
      s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k42;
      s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k43;
      t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k44;
      t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k45;
      t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k46;
      t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k47;
      if (rounds > 12) {
        s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k48;
        s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k49;
        s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k50;
        s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k51;
        t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k52;
        t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k53;
        t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k54;
        t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k55;
      }
    }
    dst[o] = (INV_SBOX[t0 & 255]! | (INV_SBOX[(t3 >>> 8) & 255]! << 8) | (INV_SBOX[(t2 >>> 16) & 255]! << 16) | (INV_SBOX[t1 >>> 24]! << 24)) ^ l0 ^ c0;
    dst[o + 1] = (INV_SBOX[t1 & 255]! | (INV_SBOX[(t0 >>> 8) & 255]! << 8) | (INV_SBOX[(t3 >>> 16) & 255]! << 16) | (INV_SBOX[t2 >>> 24]! << 24)) ^ l1 ^ c1;
    dst[o + 2] = (INV_SBOX[t2 & 255]! | (INV_SBOX[(t1 >>> 8) & 255]! << 8) | (INV_SBOX[(t0 >>> 16) & 255]! << 16) | (INV_SBOX[t3 >>> 24]! << 24)) ^ l2 ^ c2;
    dst[o + 3] = (INV_SBOX[t3 & 255]! | (INV_SBOX[(t2 >>> 8) & 255]! << 8) | (INV_SBOX[(t1 >>> 16) & 255]! << 16) | (INV_SBOX[t0 >>> 24]! << 24)) ^ l3 ^ c3;
    c0 = x0;
    c1 = x1;
    c2 = x2;
    c3 = x3;
  }
}

/**
 * cbcEncryptWords on bytes: each word assembled from four bytes (short calls,
 * views not on a 4-byte boundary, big-endian hosts). One offset serves both
 * arrays (about 20% faster in V8 than separate ones).
 */
function cbcEncryptBytes(rk: Int32Array, src: Uint8Array, dst: Uint8Array, length: number, c0: number, c1: number, c2: number, c3: number): void {
  const rounds = (rk.length >>> 2) - 1;
  const k = rk.length - 4;
  // Round keys in locals: the block loop then reads no schedule array (15% faster at 16 KiB).
  const k0 = rk[0]!, k1 = rk[1]!, k2 = rk[2]!, k3 = rk[3]!, k4 = rk[4]!, k5 = rk[5]!, k6 = rk[6]!, k7 = rk[7]!,
    k8 = rk[8]!, k9 = rk[9]!, k10 = rk[10]!, k11 = rk[11]!, k12 = rk[12]!, k13 = rk[13]!, k14 = rk[14]!, k15 = rk[15]!,
    k16 = rk[16]!, k17 = rk[17]!, k18 = rk[18]!, k19 = rk[19]!, k20 = rk[20]!, k21 = rk[21]!, k22 = rk[22]!, k23 = rk[23]!,
    k24 = rk[24]!, k25 = rk[25]!, k26 = rk[26]!, k27 = rk[27]!, k28 = rk[28]!, k29 = rk[29]!, k30 = rk[30]!, k31 = rk[31]!,
    k32 = rk[32]!, k33 = rk[33]!, k34 = rk[34]!, k35 = rk[35]!, k36 = rk[36]!, k37 = rk[37]!, k38 = rk[38]!, k39 = rk[39]!;
  const l0 = rk[k]!, l1 = rk[k + 1]!, l2 = rk[k + 2]!, l3 = rk[k + 3]!;
  let k40 = 0, k41 = 0, k42 = 0, k43 = 0, k44 = 0, k45 = 0, k46 = 0, k47 = 0,
    k48 = 0, k49 = 0, k50 = 0, k51 = 0, k52 = 0, k53 = 0, k54 = 0, k55 = 0;
  if (rounds > 10) {
    k40 = rk[40]!; k41 = rk[41]!; k42 = rk[42]!; k43 = rk[43]!; k44 = rk[44]!; k45 = rk[45]!; k46 = rk[46]!; k47 = rk[47]!;
    if (rounds > 12) {
      k48 = rk[48]!; k49 = rk[49]!; k50 = rk[50]!; k51 = rk[51]!; k52 = rk[52]!; k53 = rk[53]!; k54 = rk[54]!; k55 = rk[55]!;
    }
  }
  for (let o = 0; o < length; o += 16) {
    let s0 = (src[o]! | (src[o + 1]! << 8) | (src[o + 2]! << 16) | (src[o + 3]! << 24)) ^ c0 ^ k0;
    let s1 = (src[o + 4]! | (src[o + 5]! << 8) | (src[o + 6]! << 16) | (src[o + 7]! << 24)) ^ c1 ^ k1;
    let s2 = (src[o + 8]! | (src[o + 9]! << 8) | (src[o + 10]! << 16) | (src[o + 11]! << 24)) ^ c2 ^ k2;
    let s3 = (src[o + 12]! | (src[o + 13]! << 8) | (src[o + 14]! << 16) | (src[o + 15]! << 24)) ^ c3 ^ k3;
    let t0: number, t1: number, t2: number, t3: number;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k4;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k5;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k6;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k7;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k8;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k9;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k10;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k11;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k12;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k13;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k14;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k15;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k16;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k17;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k18;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k19;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k20;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k21;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k22;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k23;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k24;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k25;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k26;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k27;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k28;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k29;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k30;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k31;
    s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k32;
    s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k33;
    s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k34;
    s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k35;
    t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k36;
    t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k37;
    t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k38;
    t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k39;
    if (rounds > 10) {
      s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k40;
      s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k41;
      s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k42;
      s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k43;
      t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k44;
      t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k45;
      t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k46;
      t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k47;
      if (rounds > 12) {
        s0 = TE0[t0 & 255]! ^ TE1[(t1 >>> 8) & 255]! ^ TE2[(t2 >>> 16) & 255]! ^ TE3[t3 >>> 24]! ^ k48;
        s1 = TE0[t1 & 255]! ^ TE1[(t2 >>> 8) & 255]! ^ TE2[(t3 >>> 16) & 255]! ^ TE3[t0 >>> 24]! ^ k49;
        s2 = TE0[t2 & 255]! ^ TE1[(t3 >>> 8) & 255]! ^ TE2[(t0 >>> 16) & 255]! ^ TE3[t1 >>> 24]! ^ k50;
        s3 = TE0[t3 & 255]! ^ TE1[(t0 >>> 8) & 255]! ^ TE2[(t1 >>> 16) & 255]! ^ TE3[t2 >>> 24]! ^ k51;
        t0 = TE0[s0 & 255]! ^ TE1[(s1 >>> 8) & 255]! ^ TE2[(s2 >>> 16) & 255]! ^ TE3[s3 >>> 24]! ^ k52;
        t1 = TE0[s1 & 255]! ^ TE1[(s2 >>> 8) & 255]! ^ TE2[(s3 >>> 16) & 255]! ^ TE3[s0 >>> 24]! ^ k53;
        t2 = TE0[s2 & 255]! ^ TE1[(s3 >>> 8) & 255]! ^ TE2[(s0 >>> 16) & 255]! ^ TE3[s1 >>> 24]! ^ k54;
        t3 = TE0[s3 & 255]! ^ TE1[(s0 >>> 8) & 255]! ^ TE2[(s1 >>> 16) & 255]! ^ TE3[s2 >>> 24]! ^ k55;
      }
    }
    c0 = (SBOX[t0 & 255]! | (SBOX[(t1 >>> 8) & 255]! << 8) | (SBOX[(t2 >>> 16) & 255]! << 16) | (SBOX[t3 >>> 24]! << 24)) ^ l0;
    c1 = (SBOX[t1 & 255]! | (SBOX[(t2 >>> 8) & 255]! << 8) | (SBOX[(t3 >>> 16) & 255]! << 16) | (SBOX[t0 >>> 24]! << 24)) ^ l1;
    c2 = (SBOX[t2 & 255]! | (SBOX[(t3 >>> 8) & 255]! << 8) | (SBOX[(t0 >>> 16) & 255]! << 16) | (SBOX[t1 >>> 24]! << 24)) ^ l2;
    c3 = (SBOX[t3 & 255]! | (SBOX[(t0 >>> 8) & 255]! << 8) | (SBOX[(t1 >>> 16) & 255]! << 16) | (SBOX[t2 >>> 24]! << 24)) ^ l3;
    dst[o] = c0; dst[o + 1] = c0 >>> 8; dst[o + 2] = c0 >>> 16; dst[o + 3] = c0 >>> 24;
    dst[o + 4] = c1; dst[o + 5] = c1 >>> 8; dst[o + 6] = c1 >>> 16; dst[o + 7] = c1 >>> 24;
    dst[o + 8] = c2; dst[o + 9] = c2 >>> 8; dst[o + 10] = c2 >>> 16; dst[o + 11] = c2 >>> 24;
    dst[o + 12] = c3; dst[o + 13] = c3 >>> 8; dst[o + 14] = c3 >>> 16; dst[o + 15] = c3 >>> 24;
  }
}

/** cbcDecryptWords on bytes, as cbcEncryptBytes; also decrypts single blocks. */
function cbcDecryptBytes(dk: Int32Array, src: Uint8Array, dst: Uint8Array, length: number, c0: number, c1: number, c2: number, c3: number): void {
  const rounds = (dk.length >>> 2) - 1;
  const k = dk.length - 4;
  // Round keys in locals: the block loop then reads no schedule array (15% faster at 16 KiB).
  const k0 = dk[0]!, k1 = dk[1]!, k2 = dk[2]!, k3 = dk[3]!, k4 = dk[4]!, k5 = dk[5]!, k6 = dk[6]!, k7 = dk[7]!,
    k8 = dk[8]!, k9 = dk[9]!, k10 = dk[10]!, k11 = dk[11]!, k12 = dk[12]!, k13 = dk[13]!, k14 = dk[14]!, k15 = dk[15]!,
    k16 = dk[16]!, k17 = dk[17]!, k18 = dk[18]!, k19 = dk[19]!, k20 = dk[20]!, k21 = dk[21]!, k22 = dk[22]!, k23 = dk[23]!,
    k24 = dk[24]!, k25 = dk[25]!, k26 = dk[26]!, k27 = dk[27]!, k28 = dk[28]!, k29 = dk[29]!, k30 = dk[30]!, k31 = dk[31]!,
    k32 = dk[32]!, k33 = dk[33]!, k34 = dk[34]!, k35 = dk[35]!, k36 = dk[36]!, k37 = dk[37]!, k38 = dk[38]!, k39 = dk[39]!;
  const l0 = dk[k]!, l1 = dk[k + 1]!, l2 = dk[k + 2]!, l3 = dk[k + 3]!;
  let k40 = 0, k41 = 0, k42 = 0, k43 = 0, k44 = 0, k45 = 0, k46 = 0, k47 = 0,
    k48 = 0, k49 = 0, k50 = 0, k51 = 0, k52 = 0, k53 = 0, k54 = 0, k55 = 0;
  if (rounds > 10) {
    k40 = dk[40]!; k41 = dk[41]!; k42 = dk[42]!; k43 = dk[43]!; k44 = dk[44]!; k45 = dk[45]!; k46 = dk[46]!; k47 = dk[47]!;
    if (rounds > 12) {
      k48 = dk[48]!; k49 = dk[49]!; k50 = dk[50]!; k51 = dk[51]!; k52 = dk[52]!; k53 = dk[53]!; k54 = dk[54]!; k55 = dk[55]!;
    }
  }
  for (let o = 0; o < length; o += 16) {
    const x0 = (src[o]! | (src[o + 1]! << 8) | (src[o + 2]! << 16) | (src[o + 3]! << 24));
    const x1 = (src[o + 4]! | (src[o + 5]! << 8) | (src[o + 6]! << 16) | (src[o + 7]! << 24));
    const x2 = (src[o + 8]! | (src[o + 9]! << 8) | (src[o + 10]! << 16) | (src[o + 11]! << 24));
    const x3 = (src[o + 12]! | (src[o + 13]! << 8) | (src[o + 14]! << 16) | (src[o + 15]! << 24));
    let s0 = x0 ^ k0;
    let s1 = x1 ^ k1;
    let s2 = x2 ^ k2;
    let s3 = x3 ^ k3;
    let t0: number, t1: number, t2: number, t3: number;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k4;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k5;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k6;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k7;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k8;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k9;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k10;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k11;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k12;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k13;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k14;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k15;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k16;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k17;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k18;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k19;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k20;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k21;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k22;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k23;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k24;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k25;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k26;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k27;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k28;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k29;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k30;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k31;
    s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k32;
    s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k33;
    s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k34;
    s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k35;
    t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k36;
    t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k37;
    t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k38;
    t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k39;
    if (rounds > 10) {
      s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k40;
      s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k41;
      s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k42;
      s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k43;
      t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k44;
      t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k45;
      t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k46;
      t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k47;
      if (rounds > 12) {
        s0 = TD0[t0 & 255]! ^ TD1[(t3 >>> 8) & 255]! ^ TD2[(t2 >>> 16) & 255]! ^ TD3[t1 >>> 24]! ^ k48;
        s1 = TD0[t1 & 255]! ^ TD1[(t0 >>> 8) & 255]! ^ TD2[(t3 >>> 16) & 255]! ^ TD3[t2 >>> 24]! ^ k49;
        s2 = TD0[t2 & 255]! ^ TD1[(t1 >>> 8) & 255]! ^ TD2[(t0 >>> 16) & 255]! ^ TD3[t3 >>> 24]! ^ k50;
        s3 = TD0[t3 & 255]! ^ TD1[(t2 >>> 8) & 255]! ^ TD2[(t1 >>> 16) & 255]! ^ TD3[t0 >>> 24]! ^ k51;
        t0 = TD0[s0 & 255]! ^ TD1[(s3 >>> 8) & 255]! ^ TD2[(s2 >>> 16) & 255]! ^ TD3[s1 >>> 24]! ^ k52;
        t1 = TD0[s1 & 255]! ^ TD1[(s0 >>> 8) & 255]! ^ TD2[(s3 >>> 16) & 255]! ^ TD3[s2 >>> 24]! ^ k53;
        t2 = TD0[s2 & 255]! ^ TD1[(s1 >>> 8) & 255]! ^ TD2[(s0 >>> 16) & 255]! ^ TD3[s3 >>> 24]! ^ k54;
        t3 = TD0[s3 & 255]! ^ TD1[(s2 >>> 8) & 255]! ^ TD2[(s1 >>> 16) & 255]! ^ TD3[s0 >>> 24]! ^ k55;
      }
    }
    const p0 = (INV_SBOX[t0 & 255]! | (INV_SBOX[(t3 >>> 8) & 255]! << 8) | (INV_SBOX[(t2 >>> 16) & 255]! << 16) | (INV_SBOX[t1 >>> 24]! << 24)) ^ l0 ^ c0;
    const p1 = (INV_SBOX[t1 & 255]! | (INV_SBOX[(t0 >>> 8) & 255]! << 8) | (INV_SBOX[(t3 >>> 16) & 255]! << 16) | (INV_SBOX[t2 >>> 24]! << 24)) ^ l1 ^ c1;
    const p2 = (INV_SBOX[t2 & 255]! | (INV_SBOX[(t1 >>> 8) & 255]! << 8) | (INV_SBOX[(t0 >>> 16) & 255]! << 16) | (INV_SBOX[t3 >>> 24]! << 24)) ^ l2 ^ c2;
    const p3 = (INV_SBOX[t3 & 255]! | (INV_SBOX[(t2 >>> 8) & 255]! << 8) | (INV_SBOX[(t1 >>> 16) & 255]! << 16) | (INV_SBOX[t0 >>> 24]! << 24)) ^ l3 ^ c3;
    dst[o] = p0; dst[o + 1] = p0 >>> 8; dst[o + 2] = p0 >>> 16; dst[o + 3] = p0 >>> 24;
    dst[o + 4] = p1; dst[o + 5] = p1 >>> 8; dst[o + 6] = p1 >>> 16; dst[o + 7] = p1 >>> 24;
    dst[o + 8] = p2; dst[o + 9] = p2 >>> 8; dst[o + 10] = p2 >>> 16; dst[o + 11] = p2 >>> 24;
    dst[o + 12] = p3; dst[o + 13] = p3 >>> 8; dst[o + 14] = p3 >>> 16; dst[o + 15] = p3 >>> 24;
    c0 = x0;
    c1 = x1;
    c2 = x2;
    c3 = x3;
  }
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// From this length on, CBC runs on Int32Array views of the caller's arrays
// when the host is little-endian and both views start on a 4-byte boundary:
// creating the two views costs about as much as it saves on a few blocks.
const WORD_VIEW_MIN_BYTES = 128;

/** The little-endian word at b[i..i+4). */
function readWordLE(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
}

/** Whether a CBC call of n bytes can run on word views of input and output. */
function wordViewsFit(input: Uint8Array, output: Uint8Array, n: number): boolean {
  return LITTLE_ENDIAN_HOST && n >= WORD_VIEW_MIN_BYTES && ((input.byteOffset | output.byteOffset) & 3) === 0;
}

function wordView(b: Uint8Array): Int32Array {
  return new Int32Array(b.buffer, b.byteOffset, b.length >>> 2);
}

/**
 * One expanded key. Fields are kept to the minimum (the CMAC layer budgets
 * 512 bytes for a whole pre-keyed context): the encryption schedule in one
 * Int32Array, and the decryption schedule built on first decryption only, so
 * encrypt-only users (CMAC, CTR-like modes) never pay for it.
 */
class TableAesCipher extends AesCipherBase {
  private ek: Int32Array;
  private dk: Int32Array | undefined = undefined;

  constructor(key: Uint8Array) {
    super(key.length);
    this.ek = expandEncryptionKey(key);
  }

  get backend(): AesBackendInfo {
    return info;
  }

  private decryptionSchedule(): Int32Array {
    return this.dk ??= expandDecryptionKey(this.ek);
  }

  override encryptBlock(src: Uint8Array, dst: Uint8Array): void {
    this.assertUsable();
    checkBlockArgs(src, dst);
    encryptOneBlock(this.ek, src, dst);
  }

  // The raw block functions take offsets for the base class's derived modes;
  // this class overrides every caller, so views at an offset are rare here.
  protected encryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    encryptOneBlock(this.ek, so === 0 ? src : src.subarray(so, so + 16), dOff === 0 ? dst : dst.subarray(dOff, dOff + 16));
  }

  protected decryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    const s = so === 0 ? src : src.subarray(so, so + 16);
    const d = dOff === 0 ? dst : dst.subarray(dOff, dOff + 16);
    cbcDecryptBytes(this.decryptionSchedule(), s, d, 16, 0, 0, 0, 0);
  }

  protected override cbcEncryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const n = input.length;
    const c0 = readWordLE(iv, 0), c1 = readWordLE(iv, 4), c2 = readWordLE(iv, 8), c3 = readWordLE(iv, 12);
    if (wordViewsFit(input, output, n)) {
      const src = wordView(input);
      cbcEncryptWords(this.ek, src, input === output ? src : wordView(output), n >>> 2, c0, c1, c2, c3);
    } else {
      cbcEncryptBytes(this.ek, input, output, n, c0, c1, c2, c3);
    }
  }

  protected override cbcDecryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const n = input.length;
    const c0 = readWordLE(iv, 0), c1 = readWordLE(iv, 4), c2 = readWordLE(iv, 8), c3 = readWordLE(iv, 12);
    const dk = this.decryptionSchedule();
    if (wordViewsFit(input, output, n)) {
      const src = wordView(input);
      cbcDecryptWords(dk, src, input === output ? src : wordView(output), n >>> 2, c0, c1, c2, c3);
    } else {
      cbcDecryptBytes(dk, input, output, n, c0, c1, c2, c3);
    }
  }

  protected wipe(): void {
    this.ek.fill(0);
    this.dk?.fill(0);
    this.dk = undefined;
  }
}

export const tableBackend: AesBackend = {
  info,
  available: () => true,
  expandKey: (key) => new TableAesCipher(key),
};
