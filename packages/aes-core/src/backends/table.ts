// Table-driven AES ("T-tables", FIPS 197 section 5 rounds folded into four
// 256-entry word tables per direction). Fast and allocation-free per block,
// but NOT constant-time: table indices are secret state bytes, so cache timing
// can leak key material to a co-resident attacker.
import { AesCipherBase } from '../cipher-base.js';
import { checkBlockArgs } from '../input-checks.js';
import { SBOX } from '../aes-field.js';
import { LITTLE_ENDIAN_HOST, carveScheduleWords } from '../schedule-slab.js';
import {
  cbcDecryptBytes,
  cbcDecryptWords,
  cbcEncryptBytes,
  cbcEncryptWords,
  cbcMacBytes,
  encryptOneBlock,
  invMixColumnOfSubWord,
} from './table-rounds.generated.js';
import type { AesBackend, AesBackendInfo } from '../types.js';

const info: AesBackendInfo = Object.freeze({ name: 'table', constantTime: false, native: false });

// The T-tables and the unrolled round functions are generated into
// ./table-rounds.generated.ts (scripts/gen-table-rounds.mjs). State, round keys and
// tables hold each column as a little-endian word (row 0 in the low byte), so
// on little-endian hosts (all but s390x) the CBC loops read and write whole
// words through Int32Array views instead of assembling each word from four
// bytes (12% faster at 16 KiB).

/** SubWord of FIPS 197: the S-box on each byte of w, in place (any byte order). */
function subWord(w: number): number {
  return (SBOX[w >>> 24]! << 24) | (SBOX[(w >>> 16) & 255]! << 16) | (SBOX[(w >>> 8) & 255]! << 8) | SBOX[w & 255]!;
}

/**
 * FIPS 197 KeyExpansion (section 5.2) for this backend: little-endian words
 * (key byte 0 in the low byte, the column order of the rounds) carved from
 * the slab. The shared expandKeyWords of aes-field.ts takes SubWord as a
 * callback and finds Rcon by division; this one has the S-box inline, keeps
 * Rcon as a running xtime and i mod Nk as a counter, and is about twice as
 * fast (it is a third of a one-shot CMAC). RotWord moves byte 1 to byte 0:
 * with little-endian words, a right rotation by 8.
 */
function expandKeyLittleEndian(key: Uint8Array): Int32Array {
  const nk = key.length >>> 2;
  const total = 4 * (nk + 7);
  const w = carveScheduleWords(total);
  if (nk === 4) {
    // AES-128 (the NTP and most ESP keys): a round key per step, in locals.
    let w0 = readWordLE(key, 0),
      w1 = readWordLE(key, 4),
      w2 = readWordLE(key, 8),
      w3 = readWordLE(key, 12);
    w[0] = w0;
    w[1] = w1;
    w[2] = w2;
    w[3] = w3;
    let rcon = 1;
    for (let i = 4; i < 44; i += 4) {
      w0 ^= subWord((w3 >>> 8) | (w3 << 24)) ^ rcon;
      w1 ^= w0;
      w2 ^= w1;
      w3 ^= w2;
      w[i] = w0;
      w[i + 1] = w1;
      w[i + 2] = w2;
      w[i + 3] = w3;
      rcon = (rcon << 1) ^ (0x11b & -(rcon >>> 7));
    }
    return w;
  }
  for (let i = 0; i < nk; i++) w[i] = readWordLE(key, 4 * i);
  let rcon = 1;
  let j = 0;
  for (let i = nk; i < total; i++) {
    let t = w[i - 1]!;
    if (j === 0) {
      t = subWord((t >>> 8) | (t << 24)) ^ rcon;
      rcon = (rcon << 1) ^ (0x11b & -(rcon >>> 7));
    } else if (nk === 8 && j === 4) {
      t = subWord(t);
    }
    w[i] = w[i - nk]! ^ t;
    if (++j === nk) j = 0;
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
  const dk = carveScheduleWords(total);
  for (let r = 0; r < total; r += 4) {
    const from = total - 4 - r;
    for (let j = 0; j < 4; j++) {
      const w = ek[from + j]!;
      dk[r + j] = r === 0 || r === total - 4 ? w : invMixColumnOfSubWord(w);
    }
  }
  return dk;
}

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
 * encrypt-only users (CMAC, CTR-like modes) never pay for it. Both
 * schedules are views into a shared slab (../schedule-slab.ts); wipe() zeroes
 * this cipher's words only.
 */
class TableAesCipher extends AesCipherBase {
  private ek: Int32Array;
  private dk: Int32Array | undefined = undefined;

  constructor(key: Uint8Array) {
    super(key.length);
    this.ek = expandKeyLittleEndian(key);
  }

  get backend(): AesBackendInfo {
    return info;
  }

  private decryptionSchedule(): Int32Array {
    return (this.dk ??= expandDecryptionKey(this.ek));
  }

  override encryptBlock(src: Uint8Array, dst: Uint8Array): void {
    // One combined test on the hot path; the checks that build the error
    // messages run only when it fails.
    if (
      this.destroyed ||
      !(src instanceof Uint8Array) ||
      !(dst instanceof Uint8Array) ||
      src.length !== 16 ||
      dst.length < 16
    ) {
      this.assertUsable();
      checkBlockArgs(src, dst);
    }
    encryptOneBlock(this.ek, src, dst);
  }

  // The raw block functions take offsets for the base class's derived modes;
  // this class overrides every caller, so views at an offset are rare here.
  protected encryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    encryptOneBlock(
      this.ek,
      so === 0 ? src : src.subarray(so, so + 16),
      dOff === 0 ? dst : dst.subarray(dOff, dOff + 16),
    );
  }

  protected decryptRaw(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
    const s = so === 0 ? src : src.subarray(so, so + 16);
    const d = dOff === 0 ? dst : dst.subarray(dOff, dOff + 16);
    cbcDecryptBytes(this.decryptionSchedule(), s, d, 16, 0, 0, 0, 0);
  }

  protected override cbcEncryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const n = input.length;
    const c0 = readWordLE(iv, 0),
      c1 = readWordLE(iv, 4),
      c2 = readWordLE(iv, 8),
      c3 = readWordLE(iv, 12);
    if (wordViewsFit(input, output, n)) {
      const src = wordView(input);
      cbcEncryptWords(this.ek, src, input === output ? src : wordView(output), n >>> 2, c0, c1, c2, c3);
    } else {
      cbcEncryptBytes(this.ek, input, output, n, c0, c1, c2, c3);
    }
  }

  // The MAC chain never leaves words: no byte conversion of the chaining
  // value between blocks and no output array.
  protected override cbcMacRaw(
    state: Int32Array,
    data: Uint8Array,
    offset: number,
    blocks: number,
    mask: Int32Array | undefined,
  ): void {
    cbcMacBytes(this.ek, state, data, offset, blocks, mask);
  }

  protected override cbcDecryptRaw(iv: Uint8Array, input: Uint8Array, output: Uint8Array): void {
    const n = input.length;
    const c0 = readWordLE(iv, 0),
      c1 = readWordLE(iv, 4),
      c2 = readWordLE(iv, 8),
      c3 = readWordLE(iv, 12);
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
