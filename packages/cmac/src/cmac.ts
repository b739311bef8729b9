// AES-CMAC (RFC 4493, NIST SP 800-38B) over any BlockCipher: the preloaded
// context (`new Cmac(cipher)`), its dup (`clone()`), and the block chaining
// shared with the one-shot `cmac()`. The cipher is a type-only seam, so any
// aes-core backend (or another 128-bit block cipher) can be measured here.
import type { AesBackendInfo, BlockCipher } from '@layerbench/aes-core';
import { CmacDestroyedError, checkBytes, tagLengthOption } from './errors.js';
import { constantTimeEqual } from './layer-shared.generated.js';
import { dblLittleEndianWords } from './subkeys.js';

export interface CmacOptions {
  /** Bytes of tag returned by digest()/mac() and expected by verify(): 4..16, default 16. */
  tagLength?: number;
}

// The chaining value of the message in progress, as the four little-endian
// words of aes-core's cbcMacWords seam: a cipher with that method chains a
// whole run of blocks in one call, and the value never goes back to bytes
// between blocks. One shared array (JavaScript runs one call at a time and
// the cipher never calls back) spares each context its own; it is zeroed
// after every operation that leaves a secret in it (a chaining value, L, the
// cut-off part of a truncated tag). A full 16-byte tag may stay, as it is
// the output handed to the caller.
const chain = new Int32Array(4);
// The padded last block of a message whose length is not a multiple of 16.
const padded = new Uint8Array(16);
const zeroBlock = new Uint8Array(16);
const emptyMessage = new Uint8Array(0);
// K1 of the context being built or the one-shot call in progress; wiped after use.
const subkeyScratch = new Int32Array(4);
// The expected tag verify() compares with the given one; wiped after use.
const tagScratch = new Uint8Array(16);

/** Zeroes four words (four stores: cheaper than fill() at this size, on the one-shot path). */
export function wipeWords(words: Int32Array): void {
  words[0] = 0;
  words[1] = 0;
  words[2] = 0;
  words[3] = 0;
}

function wipeChain(): void {
  wipeWords(chain);
}

// The fallback for a cipher without cbcMacWords (an aes-core older than
// 0.2.0 swapped in by a bisection, or another library's BlockCipher): the
// chaining value goes through this block and encryptBlock() per block, or
// through one bulk cbcEncrypt() call for long runs.
const fallbackBlock = new Uint8Array(16);
const BULK_MIN_BYTES = 256;
const BULK_CHUNK_BYTES = 4096;
// Output of the bulk calls (only its last block is needed); wiped after use.
let bulkScratch: Uint8Array | undefined;

function chainToBytes(bytes: Uint8Array, off: number): void {
  for (let j = 0; j < 4; j++) {
    const w = chain[j]!;
    const o = off + 4 * j;
    bytes[o] = w;
    bytes[o + 1] = w >>> 8;
    bytes[o + 2] = w >>> 16;
    bytes[o + 3] = w >>> 24;
  }
}

function bytesToChain(bytes: Uint8Array, off: number): void {
  for (let j = 0; j < 4; j++) {
    const o = off + 4 * j;
    chain[j] = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24);
  }
}

function fallbackChain(cipher: BlockCipher, data: Uint8Array, pos: number, blocks: number): void {
  const b = fallbackBlock;
  chainToBytes(b, 0);
  const end = pos + 16 * blocks;
  if (end - pos < BULK_MIN_BYTES) {
    for (; pos < end; pos += 16) {
      for (let i = 0; i < 16; i++) b[i]! ^= data[pos + i]!;
      cipher.encryptBlock(b, b);
    }
  } else {
    // CBC with the chaining value as IV computes the same chain.
    const scratch = (bulkScratch ??= new Uint8Array(BULK_CHUNK_BYTES));
    let used = 0;
    while (pos < end) {
      const len = Math.min(BULK_CHUNK_BYTES, end - pos);
      const out = cipher.cbcEncrypt(
        b,
        data.subarray(pos, pos + len),
        len === BULK_CHUNK_BYTES ? scratch : scratch.subarray(0, len),
      );
      for (let i = 0; i < 16; i++) b[i] = out[len - 16 + i]!;
      used = Math.max(used, len);
      pos += len;
    }
    scratch.fill(0, 0, used);
  }
  bytesToChain(b, 0);
  b.fill(0);
}

/**
 * How a context chains blocks with its cipher: chain = the CBC-MAC chain of
 * `blocks` full blocks of data from `pos`, continued from chain, with `mask`
 * (if given) XORed into the chaining value before the last block. Chosen once
 * per cipher by chainingFor() (a context keeps it): a cipher has
 * cbcMacWords or it does not, so no call asks again.
 */
export type ChainBlocks = (
  cipher: BlockCipher,
  data: Uint8Array,
  pos: number,
  blocks: number,
  mask?: Int32Array,
) => void;

/** The whole run in one call of aes-core's CBC-MAC seam. */
const chainWithCbcMacWords: ChainBlocks = (cipher, data, pos, blocks, mask) => {
  cipher.cbcMacWords!(chain, data, pos, blocks, mask);
};

/** Through encryptBlock/cbcEncrypt, for a cipher without cbcMacWords. */
const chainWithBlockCalls: ChainBlocks = (cipher, data, pos, blocks, mask) => {
  if (mask === undefined) {
    fallbackChain(cipher, data, pos, blocks);
  } else {
    fallbackChain(cipher, data, pos, blocks - 1);
    chain[0]! ^= mask[0]!;
    chain[1]! ^= mask[1]!;
    chain[2]! ^= mask[2]!;
    chain[3]! ^= mask[3]!;
    fallbackChain(cipher, data, pos + 16 * (blocks - 1), 1);
  }
};

/** Whether `cipher` has aes-core's CBC-MAC seam (optional: aes-core before 0.2 and other libraries lack it). */
export function hasCbcMacWords(cipher: BlockCipher): boolean {
  return typeof cipher.cbcMacWords === 'function';
}

/** The chaining path for `cipher`: its cbcMacWords when it has one, else block calls. */
export function chainingFor(cipher: BlockCipher): ChainBlocks {
  return hasCbcMacWords(cipher) ? chainWithCbcMacWords : chainWithBlockCalls;
}

/**
 * The CMAC chain from `chain` over the rest of a message, data[pos..pos+length):
 * when its last block is complete it takes K1 as its mask and the whole run
 * is one cipher call; otherwise the full blocks are chained first and the
 * 0..15 bytes after them are padded with 10* into a block that takes
 * K2 = dbl(K1), computed here branch-free. K1 comes as its four
 * little-endian words k1Word0..k1Word3.
 */
function finishChain(
  chainBlocks: ChainBlocks,
  cipher: BlockCipher,
  data: Uint8Array,
  pos: number,
  length: number,
  k1Word0: number,
  k1Word1: number,
  k1Word2: number,
  k1Word3: number,
): void {
  // Full blocks before the last one, which is 1..16 bytes long (0 only for the empty message).
  const full = length === 0 ? 0 : (length - 1) >>> 4;
  const rem = length - 16 * full;
  const mask = subkeyScratch;
  mask[0] = k1Word0;
  mask[1] = k1Word1;
  mask[2] = k1Word2;
  mask[3] = k1Word3;
  if (rem === 16) {
    chainBlocks(cipher, data, pos, full + 1, mask);
  } else {
    if (full > 0) chainBlocks(cipher, data, pos, full);
    const p = padded;
    const lastOff = pos + 16 * full;
    for (let i = 0; i < rem; i++) p[i] = data[lastOff + i]!;
    p[rem] = 0x80;
    for (let i = rem + 1; i < 16; i++) p[i] = 0;
    dblLittleEndianWords(mask, mask);
    chainBlocks(cipher, p, 0, 1, mask);
    p.fill(0);
  }
  wipeWords(mask);
}

/**
 * CMAC of a whole message from the keyed start, K1 given as four
 * little-endian words; leaves the full 16-byte tag in `chain` (the caller
 * takes what it needs and wipes what must stay secret: see takeTag).
 */
export function chainWholeMessage(
  chainBlocks: ChainBlocks,
  cipher: BlockCipher,
  msg: Uint8Array,
  k1Word0: number,
  k1Word1: number,
  k1Word2: number,
  k1Word3: number,
): void {
  wipeChain();
  finishChain(chainBlocks, cipher, msg, 0, msg.length, k1Word0, k1Word1, k1Word2, k1Word3);
}

/** Copies the first tagLength bytes of the tag in `chain` into a new array. */
export function takeTag(tagLength: number): Uint8Array {
  const out = new Uint8Array(tagLength);
  if (tagLength === 16) {
    // The whole block is the tag handed out: nothing secret stays behind.
    chainToBytes(out, 0);
  } else {
    // The bytes cut off a truncated tag stay secret: wipe them.
    for (let i = 0; i < tagLength; i++) out[i] = chain[i >>> 2]! >>> (8 * (i & 3));
    wipeChain();
  }
  return out;
}

/** Whether the first tagLength bytes of the tag in `chain` are `tag` (constant-time); wipes `chain`. */
function chainEqualsTag(tag: Uint8Array, tagLength: number): boolean {
  const expected = tagLength === 16 ? tagScratch : tagScratch.subarray(0, tagLength);
  for (let i = 0; i < tagLength; i++) expected[i] = chain[i >>> 2]! >>> (8 * (i & 3));
  wipeChain();
  const equal = constantTimeEqual(expected, tag);
  tagScratch.fill(0);
  return equal;
}

/**
 * K1 = dbl(E_K(0^128)) with `cipher`, as four little-endian words in
 * `subkeyScratch` (the caller copies them out and wipes the scratch).
 */
export function deriveK1(chainBlocks: ChainBlocks, cipher: BlockCipher): Int32Array {
  wipeChain();
  chainBlocks(cipher, zeroBlock, 0, 1);
  dblLittleEndianWords(chain, subkeyScratch);
  wipeChain();
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

/**
 * A CMAC context keyed once (the "preloaded cipher and key" of the NTPsec
 * report): the key schedule lives in the cipher, the subkey K1 is derived in
 * the constructor and kept as four integers (K2 = dbl(K1) costs a few
 * shifts when a message needs it), the chaining path (the cipher's
 * cbcMacWords, or block calls for a cipher without it) is chosen there too,
 * and every message afterwards costs only its block encryptions.
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
  private readonly chainBlocks: ChainBlocks;
  // The four words of the subkey K1, little-endian (the layout of aes-core's
  // cbcMacWords state); K2 is derived from them when a message needs it.
  private k1Word0: number;
  private k1Word1: number;
  private k1Word2: number;
  private k1Word3: number;
  /** null: sole owner of the cipher; shared after clone(); undefined once destroyed. */
  private owner: SharedCipher | null | undefined;
  private stream: Uint8Array | undefined;

  constructor(cipher: BlockCipher, options: CmacOptions = {}) {
    if (cipher === null || typeof cipher !== 'object' || typeof cipher.encryptBlock !== 'function') {
      throw new TypeError('CMAC needs a BlockCipher (an object with encryptBlock(src, dst))');
    }
    if (cipher.blockSize !== 16) {
      throw new RangeError(
        `CMAC needs a 128-bit block cipher (blockSize 16), got blockSize ${String(cipher.blockSize)}`,
      );
    }
    this.tagLength = tagLengthOption(options.tagLength);
    this.cipher = cipher;
    this.chainBlocks = chainingFor(cipher);
    const k1 = deriveK1(this.chainBlocks, cipher);
    this.k1Word0 = k1[0]!;
    this.k1Word1 = k1[1]!;
    this.k1Word2 = k1[2]!;
    this.k1Word3 = k1[3]!;
    wipeWords(k1);
    this.owner = null;
    this.stream = undefined;
  }

  /**
   * Makes `to` (a fresh object with this class's prototype) a copy of this
   * context that shares its cipher: no re-keying, no subkey derivation.
   * The fields are assigned in the constructor's order.
   */
  private _cloneInto(to: Cmac): Cmac {
    // The readonly fields, written once here as the constructor writes them.
    const fields = to as unknown as { tagLength: number; cipher: BlockCipher; chainBlocks: ChainBlocks };
    fields.tagLength = this.tagLength;
    fields.cipher = this.cipher;
    fields.chainBlocks = this.chainBlocks;
    to.k1Word0 = this.k1Word0;
    to.k1Word1 = this.k1Word1;
    to.k1Word2 = this.k1Word2;
    to.k1Word3 = this.k1Word3;
    to.owner = this.shareCipher();
    to.stream = this.stream === undefined ? undefined : new Uint8Array(this.stream);
    return to;
  }

  /** Counts one more context on this context's cipher and returns the shared count. */
  private shareCipher(): SharedCipher {
    const shared = (this.owner ??= { refs: 1 });
    shared.refs++;
    return shared;
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
    const chainBlocks = this.chainBlocks;
    bytesToChain(st, X);
    let pos = 0;
    if (used > 0) {
      pos = 16 - used;
      for (let i = 0; i < pos; i++) st[PENDING + used + i] = data[i]!;
      chainBlocks(cipher, st, PENDING, 1);
    }
    // Full blocks straight from the input, except the last 1..16 bytes.
    const end = pos + (((n - pos - 1) >>> 4) << 4);
    if (end > pos) chainBlocks(cipher, data, pos, (end - pos) >>> 4);
    chainToBytes(st, X);
    wipeChain();
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
      chainWholeMessage(
        this.chainBlocks,
        this.cipher,
        emptyMessage,
        this.k1Word0,
        this.k1Word1,
        this.k1Word2,
        this.k1Word3,
      );
    } else {
      bytesToChain(st, X);
      finishChain(
        this.chainBlocks,
        this.cipher,
        st,
        PENDING,
        st[PENDING_LENGTH]!,
        this.k1Word0,
        this.k1Word1,
        this.k1Word2,
        this.k1Word3,
      );
    }
    for (let i = 0; i < tagLength; i++) out[i] = chain[i >>> 2]! >>> (8 * (i & 3));
    wipeChain();
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
    chainWholeMessage(this.chainBlocks, this.cipher, msg, this.k1Word0, this.k1Word1, this.k1Word2, this.k1Word3);
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
    chainWholeMessage(this.chainBlocks, this.cipher, msg, this.k1Word0, this.k1Word1, this.k1Word2, this.k1Word3);
    return chainEqualsTag(tag, this.tagLength);
  }

  /** An independent copy of this context (the EVP_MAC_CTX_dup pattern): no re-keying, no subkey derivation. */
  clone(): Cmac {
    if (this.owner === undefined) throw new CmacDestroyedError('clone');
    return this._cloneInto(Object.create(Cmac.prototype) as Cmac);
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
    this.k1Word0 = 0;
    this.k1Word1 = 0;
    this.k1Word2 = 0;
    this.k1Word3 = 0;
    this.stream?.fill(0);
    this.stream = undefined;
    if (owner === null || --owner.refs === 0) this.cipher.destroy();
  }
}
