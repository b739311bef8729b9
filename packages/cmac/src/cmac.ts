// AES-CMAC (RFC 4493, NIST SP 800-38B) over any BlockCipher: the preloaded
// context (`new Cmac(cipher)`), its dup (`clone()`), and the block chaining
// shared with the one-shot `cmac()`. The cipher is a type-only seam, so any
// aes-core backend (or another 128-bit block cipher) can be measured here.
import type { AesBackendInfo, BlockCipher } from '@layerbench/aes-core';
import { CmacDestroyedError, checkBytes, tagLengthOption } from './errors.js';
import { dblWords, readWords } from './subkeys.js';

export interface CmacOptions {
  /** Bytes of tag returned by digest()/mac() and expected by verify(): 4..16, default 16. */
  tagLength?: number;
}

// The block every encryptBlock() call of this module works on. Sharing one
// (JavaScript runs one call at a time and encryptBlock never calls back)
// spares each context a 16-byte typed array, about 200 bytes in V8. It is
// zeroed after every operation that leaves a secret in it (a chaining value,
// L, the cut-off part of a truncated tag); a full 16-byte tag may stay, as it
// is the output handed to the caller.
const block = new Uint8Array(16);
const emptyMessage = new Uint8Array(0);
// K1 of the context being built or the one-shot call in progress; wiped after use.
const subkeyScratch = new Int32Array(4);

// The block helpers below are unrolled on purpose: a 16-step loop or
// fill()/set() on a 16-byte array costs several times more than 16 plain
// stores in V8, and these run once per block of every message. Stores into
// a Uint8Array keep the low 8 bits, so words are stored without masking.

/** dst[dOff..dOff+16) = src[so..so+16) */
function copyBlock(src: Uint8Array, so: number, dst: Uint8Array, dOff: number): void {
  dst[dOff] = src[so]!; dst[dOff + 1] = src[so + 1]!; dst[dOff + 2] = src[so + 2]!; dst[dOff + 3] = src[so + 3]!;
  dst[dOff + 4] = src[so + 4]!; dst[dOff + 5] = src[so + 5]!; dst[dOff + 6] = src[so + 6]!; dst[dOff + 7] = src[so + 7]!;
  dst[dOff + 8] = src[so + 8]!; dst[dOff + 9] = src[so + 9]!; dst[dOff + 10] = src[so + 10]!; dst[dOff + 11] = src[so + 11]!;
  dst[dOff + 12] = src[so + 12]!; dst[dOff + 13] = src[so + 13]!; dst[dOff + 14] = src[so + 14]!; dst[dOff + 15] = src[so + 15]!;
}

/** block ^= msg[off..off+16) */
function xorMessageBlock(msg: Uint8Array, off: number): void {
  const s = block;
  s[0]! ^= msg[off]!; s[1]! ^= msg[off + 1]!; s[2]! ^= msg[off + 2]!; s[3]! ^= msg[off + 3]!;
  s[4]! ^= msg[off + 4]!; s[5]! ^= msg[off + 5]!; s[6]! ^= msg[off + 6]!; s[7]! ^= msg[off + 7]!;
  s[8]! ^= msg[off + 8]!; s[9]! ^= msg[off + 9]!; s[10]! ^= msg[off + 10]!; s[11]! ^= msg[off + 11]!;
  s[12]! ^= msg[off + 12]!; s[13]! ^= msg[off + 13]!; s[14]! ^= msg[off + 14]!; s[15]! ^= msg[off + 15]!;
}

/** block ^= the 16 big-endian bytes of (w0, w1, w2, w3) */
function xorWords(w0: number, w1: number, w2: number, w3: number): void {
  const s = block;
  s[0]! ^= w0 >>> 24; s[1]! ^= w0 >>> 16; s[2]! ^= w0 >>> 8; s[3]! ^= w0;
  s[4]! ^= w1 >>> 24; s[5]! ^= w1 >>> 16; s[6]! ^= w1 >>> 8; s[7]! ^= w1;
  s[8]! ^= w2 >>> 24; s[9]! ^= w2 >>> 16; s[10]! ^= w2 >>> 8; s[11]! ^= w2;
  s[12]! ^= w3 >>> 24; s[13]! ^= w3 >>> 16; s[14]! ^= w3 >>> 8; s[15]! ^= w3;
}

/** block ^= msg[off..off+16) ^ the 16 big-endian bytes of (w0, w1, w2, w3): a complete last block and K1 in one pass */
function xorMessageBlockAndWords(msg: Uint8Array, off: number, w0: number, w1: number, w2: number, w3: number): void {
  const s = block;
  s[0]! ^= msg[off]! ^ (w0 >>> 24); s[1]! ^= msg[off + 1]! ^ (w0 >>> 16);
  s[2]! ^= msg[off + 2]! ^ (w0 >>> 8); s[3]! ^= msg[off + 3]! ^ w0;
  s[4]! ^= msg[off + 4]! ^ (w1 >>> 24); s[5]! ^= msg[off + 5]! ^ (w1 >>> 16);
  s[6]! ^= msg[off + 6]! ^ (w1 >>> 8); s[7]! ^= msg[off + 7]! ^ w1;
  s[8]! ^= msg[off + 8]! ^ (w2 >>> 24); s[9]! ^= msg[off + 9]! ^ (w2 >>> 16);
  s[10]! ^= msg[off + 10]! ^ (w2 >>> 8); s[11]! ^= msg[off + 11]! ^ w2;
  s[12]! ^= msg[off + 12]! ^ (w3 >>> 24); s[13]! ^= msg[off + 13]! ^ (w3 >>> 16);
  s[14]! ^= msg[off + 14]! ^ (w3 >>> 8); s[15]! ^= msg[off + 15]! ^ w3;
}

/** block = 0 */
function wipeBlock(): void {
  const s = block;
  s[0] = 0; s[1] = 0; s[2] = 0; s[3] = 0; s[4] = 0; s[5] = 0; s[6] = 0; s[7] = 0;
  s[8] = 0; s[9] = 0; s[10] = 0; s[11] = 0; s[12] = 0; s[13] = 0; s[14] = 0; s[15] = 0;
}

/**
 * The final-block rule, then the last encryption: a complete last block is
 * XORed with K1; a partial one (the empty message included) is padded with
 * 10* and XORed with K2 = dbl(K1), computed here branch-free from the K1
 * words. `last[lastOff..lastOff+rem)` holds the rem (0..16) bytes of the
 * last block; `block` holds the chaining value.
 */
function finishChain(
  cipher: BlockCipher, last: Uint8Array, lastOff: number, rem: number,
  k0: number, k1: number, k2: number, k3: number,
): void {
  if (rem === 16) {
    xorMessageBlockAndWords(last, lastOff, k0, k1, k2, k3);
  } else {
    const s = block;
    for (let i = 0; i < rem; i++) s[i]! ^= last[lastOff + i]!;
    s[rem]! ^= 0x80;
    xorWords((k0 << 1) | (k1 >>> 31), (k1 << 1) | (k2 >>> 31), (k2 << 1) | (k3 >>> 31), (k3 << 1) ^ (0x87 & -(k0 >>> 31)));
  }
  cipher.encryptBlock(block, block);
}

// Long runs of full blocks go through the cipher's bulk CBC encryption in one
// call: CBC with the chaining value as IV computes the same chain, and a
// backend's CBC loop skips the per-block call, checks and byte conversions
// (for the node backend it is one OpenSSL call instead of one per block).
// Below this length the per-block path is cheaper (the bulk call costs two
// views and its own argument checks); NTP-sized packets stay per block.
const BULK_MIN_BYTES = 256;
const BULK_CHUNK_BYTES = 4096;
// Output of the bulk calls (only its last block is needed); wiped after use.
let bulkScratch: Uint8Array | undefined;

/** block = the CBC chain of the full blocks msg[pos..end) from the chaining value in `block`. */
function chainFullBlocks(cipher: BlockCipher, msg: Uint8Array, pos: number, end: number): void {
  const s = block;
  if (end - pos < BULK_MIN_BYTES) {
    for (; pos < end; pos += 16) {
      xorMessageBlock(msg, pos);
      cipher.encryptBlock(s, s);
    }
    return;
  }
  const scratch = (bulkScratch ??= new Uint8Array(BULK_CHUNK_BYTES));
  let used = 0;
  while (pos < end) {
    const len = Math.min(BULK_CHUNK_BYTES, end - pos);
    const out = cipher.cbcEncrypt(s, msg.subarray(pos, pos + len), len === BULK_CHUNK_BYTES ? scratch : scratch.subarray(0, len));
    copyBlock(out, len - 16, s, 0);
    used = Math.max(used, len);
    pos += len;
  }
  scratch.fill(0, 0, used);
}

/**
 * CMAC of a whole message from the keyed start, K1 given as four words;
 * leaves the full 16-byte tag in `block` (the caller takes what it needs
 * and wipes what must stay secret: see takeTag).
 */
export function chainWholeMessage(
  cipher: BlockCipher, msg: Uint8Array, k0: number, k1: number, k2: number, k3: number,
): void {
  const n = msg.length;
  // Start of the last block (1..16 bytes long; 0 bytes only for the empty message).
  const lastStart = n === 0 ? 0 : (n - 1) & ~15;
  if (lastStart === 0) {
    wipeBlock();
  } else {
    // The chain starts at zero, so the first block is loaded, not XORed.
    copyBlock(msg, 0, block, 0);
    cipher.encryptBlock(block, block);
    chainFullBlocks(cipher, msg, 16, lastStart);
  }
  finishChain(cipher, msg, lastStart, n - lastStart, k0, k1, k2, k3);
}

/** Copies the first tagLength bytes of `block` (the tag) into a new array. */
export function takeTag(tagLength: number): Uint8Array {
  const out = new Uint8Array(tagLength);
  if (tagLength === 16) {
    // The whole block is the tag handed out: nothing secret stays behind.
    copyBlock(block, 0, out, 0);
  } else {
    // The bytes cut off a truncated tag stay secret: wipe them.
    for (let i = 0; i < tagLength; i++) out[i] = block[i]!;
    wipeBlock();
  }
  return out;
}

/** Constant-time comparison of `block[0..tagLength)` with `tag`; wipes `block`. */
function blockEqualsTag(tag: Uint8Array, tagLength: number): boolean {
  // Every byte is visited and differences are ORed: no early exit that would
  // tell an attacker how many leading bytes of a forged tag were right.
  let diff = 0;
  for (let i = 0; i < tagLength; i++) diff |= block[i]! ^ tag[i]!;
  wipeBlock();
  return diff === 0;
}

/**
 * K1 = dbl(E_K(0^128)) with `cipher`, as four words in `subkeyScratch`
 * (the caller copies them out and wipes the scratch).
 */
export function deriveK1(cipher: BlockCipher): Int32Array {
  wipeBlock();
  cipher.encryptBlock(block, block);
  readWords(block, 0, subkeyScratch);
  wipeBlock();
  dblWords(subkeyScratch, subkeyScratch);
  return subkeyScratch;
}

/**
 * Contexts sharing one cipher through clone() count references here; it is
 * created by the first clone(), so a context never cloned carries none.
 */
interface SharedCipher {
  refs: number;
}

// Streaming state, allocated by the first update(): the chaining value, the
// pending (possibly last) block and its length. Contexts used only through
// mac()/verify() never allocate it.
const X = 0;
const PENDING = 16;
const PENDING_LENGTH = 32;
const STREAM_BYTES = 33;

// The context clone() is copying, handed to the constructor it calls (and
// cleared by it at once): clone() then skips the subkey derivation, and
// clones keep the same object shape as contexts made by `new`.
let cloneSource: Cmac | undefined;

/**
 * A CMAC context keyed once (the "preloaded cipher and key" of the NTPsec
 * report): the key schedule lives in the cipher, the subkey K1 is derived in
 * the constructor and kept as four integers (K2 = dbl(K1) costs a few
 * shifts when a message needs it), and every message afterwards costs only
 * its block encryptions.
 *
 * Streaming: update() processes full blocks eagerly but always keeps the
 * last (possibly full) block pending, because CMAC treats the final block
 * differently. digest() does not change the state: calling it again gives
 * the same tag and update() continues the same message; reset() starts a
 * new one. mac(msg) and verify(msg, tag) work on a whole message and leave
 * the streaming state untouched.
 *
 * Ownership: the context takes ownership of `cipher`. clone() shares the
 * (read-only) cipher and counts references: destroy() wipes this context's
 * subkey and state, and destroys the cipher only when the last context
 * sharing it is destroyed. Do not hand one cipher to two `new Cmac(...)`
 * calls; clone() instead.
 */
export class Cmac {
  readonly tagLength: number;
  private readonly cipher: BlockCipher;
  // K1 as big-endian words.
  private k0: number;
  private k1: number;
  private k2: number;
  private k3: number;
  /** null: sole owner of the cipher; shared after clone(); undefined once destroyed. */
  private owner: SharedCipher | null | undefined;
  private stream: Uint8Array | undefined;

  constructor(cipher: BlockCipher, options: CmacOptions = {}) {
    // First, so a later throw cannot leave it set for another constructor call.
    const source = cloneSource;
    cloneSource = undefined;
    if (cipher === null || typeof cipher !== 'object' || typeof cipher.encryptBlock !== 'function') {
      throw new TypeError('CMAC needs a BlockCipher (an object with encryptBlock(src, dst))');
    }
    if (cipher.blockSize !== 16) {
      throw new RangeError(`CMAC needs a 128-bit block cipher (blockSize 16), got blockSize ${String(cipher.blockSize)}`);
    }
    this.tagLength = tagLengthOption(options.tagLength);
    this.cipher = cipher;
    // One path of field assignments for new contexts and clones alike, so
    // both have one hidden class and the hot methods stay monomorphic.
    const k = source === undefined ? deriveK1(cipher) : source.subkeyInto(subkeyScratch);
    this.k0 = k[0]!;
    this.k1 = k[1]!;
    this.k2 = k[2]!;
    this.k3 = k[3]!;
    k[0] = 0;
    k[1] = 0;
    k[2] = 0;
    k[3] = 0;
    this.owner = source === undefined ? null : source.shareCipher();
    this.stream = source?.stream === undefined ? undefined : new Uint8Array(source.stream);
  }

  /** Counts one more context on this context's cipher and returns the shared count. */
  private shareCipher(): SharedCipher {
    const shared = (this.owner ??= { refs: 1 });
    shared.refs++;
    return shared;
  }

  private subkeyInto(out: Int32Array): Int32Array {
    out[0] = this.k0;
    out[1] = this.k1;
    out[2] = this.k2;
    out[3] = this.k3;
    return out;
  }

  /** AES key size of the cipher: 128, 192 or 256. */
  get keyBits(): 128 | 192 | 256 {
    return this.cipher.keyBits;
  }

  /** The aes-core backend doing the block encryptions (name, constant-time, native). */
  get backend(): AesBackendInfo {
    return this.cipher.backend;
  }

  update(data: Uint8Array): this {
    if (this.owner === undefined) throw new CmacDestroyedError('update');
    checkBytes(data, 'message');
    const n = data.length;
    if (n === 0) return this;
    const st = (this.stream ??= new Uint8Array(STREAM_BYTES));
    const used = st[PENDING_LENGTH]!;
    if (used + n <= 16) {
      // Everything still fits the pending block, which may be the last one: keep it.
      for (let i = 0; i < n; i++) st[PENDING + used + i] = data[i]!;
      st[PENDING_LENGTH] = used + n;
      return this;
    }
    // More than a block is on hand, so the pending block (if any) is not the last.
    const cipher = this.cipher;
    const s = block;
    copyBlock(st, X, s, 0);
    let pos = 0;
    if (used > 0) {
      pos = 16 - used;
      for (let i = 0; i < pos; i++) st[PENDING + used + i] = data[i]!;
      xorMessageBlock(st, PENDING);
      cipher.encryptBlock(s, s);
    }
    // Full blocks straight from the input, except the last 1..16 bytes.
    const end = pos + (((n - pos - 1) >>> 4) << 4);
    chainFullBlocks(cipher, data, pos, end);
    copyBlock(s, 0, st, X);
    wipeBlock();
    for (let i = end; i < n; i++) st[PENDING + i - end] = data[i]!;
    st[PENDING_LENGTH] = n - end;
    return this;
  }

  /** Writes the tag (tagLength bytes) into out[0..tagLength); the state is unchanged. */
  digestInto(out: Uint8Array): void {
    if (this.owner === undefined) throw new CmacDestroyedError('digestInto');
    checkBytes(out, 'output');
    const tagLength = this.tagLength;
    if (out.length < tagLength) {
      throw new RangeError(`CMAC output must hold at least tagLength = ${tagLength} bytes, got ${out.length}`);
    }
    const st = this.stream;
    if (st === undefined) {
      // Nothing was ever updated: the tag of the empty message.
      chainWholeMessage(this.cipher, emptyMessage, this.k0, this.k1, this.k2, this.k3);
    } else {
      copyBlock(st, X, block, 0);
      finishChain(this.cipher, st, PENDING, st[PENDING_LENGTH]!, this.k0, this.k1, this.k2, this.k3);
    }
    for (let i = 0; i < tagLength; i++) out[i] = block[i]!;
    wipeBlock();
  }

  /** The tag of everything updated since the start or the last reset(); the state is unchanged. */
  digest(): Uint8Array {
    if (this.owner === undefined) throw new CmacDestroyedError('digest');
    const out = new Uint8Array(this.tagLength);
    this.digestInto(out);
    return out;
  }

  /** Back to the keyed start: the subkey stays, the message is forgotten. */
  reset(): this {
    if (this.owner === undefined) throw new CmacDestroyedError('reset');
    this.stream?.fill(0);
    return this;
  }

  /** The tag of `msg` alone (as reset + update + digest), without touching the streaming state. */
  mac(msg: Uint8Array): Uint8Array {
    if (this.owner === undefined) throw new CmacDestroyedError('mac');
    checkBytes(msg, 'message');
    chainWholeMessage(this.cipher, msg, this.k0, this.k1, this.k2, this.k3);
    return takeTag(this.tagLength);
  }

  /**
   * True when `tag` is the tag of `msg`, compared in constant time. A tag of
   * another length than tagLength is false (the length is not secret).
   */
  verify(msg: Uint8Array, tag: Uint8Array): boolean {
    if (this.owner === undefined) throw new CmacDestroyedError('verify');
    checkBytes(msg, 'message');
    checkBytes(tag, 'tag');
    if (tag.length !== this.tagLength) return false;
    chainWholeMessage(this.cipher, msg, this.k0, this.k1, this.k2, this.k3);
    return blockEqualsTag(tag, this.tagLength);
  }

  /** An independent copy of this context (the EVP_MAC_CTX_dup pattern): no re-keying, no subkey derivation. */
  clone(): Cmac {
    if (this.owner === undefined) throw new CmacDestroyedError('clone');
    cloneSource = this;
    // `this` serves as the options: it has the tagLength to keep.
    return new Cmac(this.cipher, this);
  }

  /**
   * Wipes the subkey and state; the cipher's key schedule is wiped when the
   * last clone sharing it is destroyed. Later calls throw CmacDestroyedError.
   * A garbage-collected runtime may have copied the bytes before: this is
   * hygiene, not a guarantee.
   */
  destroy(): void {
    const owner = this.owner;
    if (owner === undefined) return;
    this.owner = undefined;
    this.k0 = 0;
    this.k1 = 0;
    this.k2 = 0;
    this.k3 = 0;
    this.stream?.fill(0);
    this.stream = undefined;
    if (owner === null || --owner.refs === 0) this.cipher.destroy();
  }
}
