// AES-CMAC (RFC 4493, NIST SP 800-38B) over any BlockCipher: the preloaded
// context (`new Cmac(cipher)`), its dup (`clone()`), and the block chaining
// shared with the one-shot `cmac()`. The cipher is a type-only seam, so any
// aes-core backend (or another 128-bit block cipher) can be measured here.
import type { AesBackendInfo, BlockCipher } from '@layerbench/aes-core';
import { CmacDestroyedError, checkBytes, tagLengthOption } from './errors.js';
import { subkeysFromL } from './subkeys.js';

export interface CmacOptions {
  /** Bytes of tag returned by digest()/mac() and expected by verify(): 4..16, default 16. */
  tagLength?: number;
}

// Layout of a context's only typed array: both subkeys, the chaining value
// and the pending final block. One 64-byte array keeps a context small (the
// seed asked "how much memory does a ctx take?") and wipes with one fill().
const K1 = 0;
const K2 = 16;
const X = 32;
const BUF = 48;
const CONTEXT_BYTES = 64;

// The block every encryptBlock() call of this module works on. Sharing one
// (JavaScript runs one call at a time and encryptBlock never calls back)
// spares each context a 16-byte view; it is zeroed after every operation so
// no chaining value or tag stays behind in it.
const block = new Uint8Array(16);

// The block helpers below are unrolled on purpose: a 16-step loop or
// fill()/set() on a 16-byte array costs several times more than 16 plain
// stores in V8, and these run once per block of every message.

/** block = msg[off..off+16) */
function loadMessageBlock(msg: Uint8Array, off: number): void {
  const s = block;
  s[0] = msg[off]!; s[1] = msg[off + 1]!; s[2] = msg[off + 2]!; s[3] = msg[off + 3]!;
  s[4] = msg[off + 4]!; s[5] = msg[off + 5]!; s[6] = msg[off + 6]!; s[7] = msg[off + 7]!;
  s[8] = msg[off + 8]!; s[9] = msg[off + 9]!; s[10] = msg[off + 10]!; s[11] = msg[off + 11]!;
  s[12] = msg[off + 12]!; s[13] = msg[off + 13]!; s[14] = msg[off + 14]!; s[15] = msg[off + 15]!;
}

/** block ^= msg[off..off+16) */
function xorMessageBlock(msg: Uint8Array, off: number): void {
  const s = block;
  s[0]! ^= msg[off]!; s[1]! ^= msg[off + 1]!; s[2]! ^= msg[off + 2]!; s[3]! ^= msg[off + 3]!;
  s[4]! ^= msg[off + 4]!; s[5]! ^= msg[off + 5]!; s[6]! ^= msg[off + 6]!; s[7]! ^= msg[off + 7]!;
  s[8]! ^= msg[off + 8]!; s[9]! ^= msg[off + 9]!; s[10]! ^= msg[off + 10]!; s[11]! ^= msg[off + 11]!;
  s[12]! ^= msg[off + 12]!; s[13]! ^= msg[off + 13]!; s[14]! ^= msg[off + 14]!; s[15]! ^= msg[off + 15]!;
}

/** block ^= msg[off..off+16) ^ k1[k..k+16): a complete last block. */
function xorCompleteLastBlock(msg: Uint8Array, off: number, k1: Uint8Array, k: number): void {
  const s = block;
  s[0]! ^= msg[off]! ^ k1[k]!; s[1]! ^= msg[off + 1]! ^ k1[k + 1]!;
  s[2]! ^= msg[off + 2]! ^ k1[k + 2]!; s[3]! ^= msg[off + 3]! ^ k1[k + 3]!;
  s[4]! ^= msg[off + 4]! ^ k1[k + 4]!; s[5]! ^= msg[off + 5]! ^ k1[k + 5]!;
  s[6]! ^= msg[off + 6]! ^ k1[k + 6]!; s[7]! ^= msg[off + 7]! ^ k1[k + 7]!;
  s[8]! ^= msg[off + 8]! ^ k1[k + 8]!; s[9]! ^= msg[off + 9]! ^ k1[k + 9]!;
  s[10]! ^= msg[off + 10]! ^ k1[k + 10]!; s[11]! ^= msg[off + 11]! ^ k1[k + 11]!;
  s[12]! ^= msg[off + 12]! ^ k1[k + 12]!; s[13]! ^= msg[off + 13]! ^ k1[k + 13]!;
  s[14]! ^= msg[off + 14]! ^ k1[k + 14]!; s[15]! ^= msg[off + 15]! ^ k1[k + 15]!;
}

/** block = 0 */
function wipeBlock(): void {
  const s = block;
  s[0] = 0; s[1] = 0; s[2] = 0; s[3] = 0; s[4] = 0; s[5] = 0; s[6] = 0; s[7] = 0;
  s[8] = 0; s[9] = 0; s[10] = 0; s[11] = 0; s[12] = 0; s[13] = 0; s[14] = 0; s[15] = 0;
}

/**
 * The final-block rule: a complete last block is XORed with K1, a partial
 * one (including the empty message) is padded with 10* and XORed with K2.
 * `last[lastOff..lastOff+rem)` holds the rem (0..16) bytes of the last block;
 * `keys[keysOff..+32)` holds K1 then K2.
 */
function xorFinalBlock(last: Uint8Array, lastOff: number, rem: number, keys: Uint8Array, keysOff: number): void {
  if (rem === 16) {
    xorCompleteLastBlock(last, lastOff, keys, keysOff + K1);
    return;
  }
  const s = block;
  const k = keysOff + K2;
  for (let i = 0; i < rem; i++) s[i]! ^= last[lastOff + i]! ^ keys[k + i]!;
  s[rem]! ^= 0x80 ^ keys[k + rem]!;
  for (let i = rem + 1; i < 16; i++) s[i]! ^= keys[k + i]!;
}

/**
 * CMAC of a whole message from the keyed start; leaves the full 16-byte tag
 * in `block` (the caller copies what it needs, then wipes `block`).
 * `keys[keysOff..+32)` holds K1 then K2.
 */
export function chainWholeMessage(cipher: BlockCipher, keys: Uint8Array, keysOff: number, msg: Uint8Array): void {
  const n = msg.length;
  // Start of the last block (1..16 bytes long; 0 bytes only for the empty message).
  const lastStart = n === 0 ? 0 : (n - 1) & ~15;
  const s = block;
  if (lastStart === 0) {
    wipeBlock();
  } else {
    loadMessageBlock(msg, 0);
    cipher.encryptBlock(s, s);
    for (let pos = 16; pos < lastStart; pos += 16) {
      xorMessageBlock(msg, pos);
      cipher.encryptBlock(s, s);
    }
  }
  xorFinalBlock(msg, lastStart, n - lastStart, keys, keysOff);
  cipher.encryptBlock(s, s);
}

/** Copies the first tagLength bytes of `block` into a new array and wipes `block`. */
export function takeTag(tagLength: number): Uint8Array {
  const out = new Uint8Array(tagLength);
  for (let i = 0; i < tagLength; i++) out[i] = block[i]!;
  wipeBlock();
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

/** Computes L = E_K(0^128) with `cipher` and writes K1, K2 into keys[off..off+32). */
export function deriveSubkeys(cipher: BlockCipher, keys: Uint8Array, off: number): void {
  wipeBlock();
  cipher.encryptBlock(block, block);
  subkeysFromL(block, keys, off);
  wipeBlock();
}

/** Clones share one cipher; it is destroyed when the last of them is. */
interface CipherOwner {
  refs: number;
}

// Module-private key of the options object by which clone() hands its state
// to the constructor (so clone() need not derive the subkeys again, and
// clones keep the same object shape as contexts made by `new`).
const cloneSource = Symbol('cloneSource');
interface InternalOptions extends CmacOptions {
  [cloneSource]?: Cmac;
}

/**
 * A CMAC context keyed once (the "preloaded cipher and key" of the NTPsec
 * report): the key schedule lives in the cipher, the subkeys K1/K2 are
 * derived in the constructor, and every message afterwards costs only its
 * block encryptions.
 *
 * Streaming: update() processes full blocks eagerly but always keeps the
 * last (possibly full) block buffered, because CMAC treats the final block
 * differently. digest() does not change the state: calling it again gives
 * the same tag and update() continues the same message; reset() starts a
 * new one. mac(msg) and verify(msg, tag) work on a whole message and leave
 * the streaming state untouched.
 *
 * Ownership: the context takes ownership of `cipher`. clone() shares the
 * (read-only) cipher and counts references: destroy() wipes this context's
 * subkeys and state, and destroys the cipher only when the last context
 * sharing it is destroyed. Do not hand one cipher to two `new Cmac(...)`
 * calls; clone() instead.
 */
export class Cmac {
  readonly tagLength: number;
  private readonly cipher: BlockCipher;
  private readonly owner: CipherOwner;
  /** K1 | K2 | chaining value | pending block (see the layout constants). */
  private readonly state: Uint8Array;
  private bufferLength: number;
  private destroyed: boolean;

  constructor(cipher: BlockCipher, options: CmacOptions = {}) {
    if (cipher === null || typeof cipher !== 'object' || typeof cipher.encryptBlock !== 'function') {
      throw new TypeError('CMAC needs a BlockCipher (an object with encryptBlock(src, dst))');
    }
    if (cipher.blockSize !== 16) {
      throw new RangeError(`CMAC needs a 128-bit block cipher (blockSize 16), got blockSize ${String(cipher.blockSize)}`);
    }
    this.tagLength = tagLengthOption(options.tagLength);
    this.cipher = cipher;
    this.state = new Uint8Array(CONTEXT_BYTES);
    this.destroyed = false;
    const source = (options as InternalOptions)[cloneSource];
    if (source === undefined) {
      this.owner = { refs: 1 };
      this.bufferLength = 0;
      deriveSubkeys(cipher, this.state, K1);
    } else {
      this.owner = source.owner;
      this.owner.refs++;
      this.bufferLength = source.bufferLength;
      this.state.set(source.state);
    }
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
    if (this.destroyed) throw new CmacDestroyedError('update');
    checkBytes(data, 'message');
    const n = data.length;
    if (n === 0) return this;
    const st = this.state;
    let used = this.bufferLength;
    let pos = 0;
    if (used < 16) {
      const take = Math.min(16 - used, n);
      for (let i = 0; i < take; i++) st[BUF + used + i] = data[i]!;
      used += take;
      pos = take;
      // Whatever was buffered may still be the last block: keep it.
      if (pos === n) {
        this.bufferLength = used;
        return this;
      }
    }
    // More data follows a full buffered block, so that block is not the last.
    const s = block;
    for (let i = 0; i < 16; i++) s[i] = st[X + i]! ^ st[BUF + i]!;
    const cipher = this.cipher;
    cipher.encryptBlock(s, s);
    // Full blocks straight from the input, except one that may be the last.
    while (n - pos > 16) {
      xorMessageBlock(data, pos);
      cipher.encryptBlock(s, s);
      pos += 16;
    }
    for (let i = 0; i < 16; i++) st[X + i] = s[i]!;
    wipeBlock();
    const rem = n - pos;
    for (let i = 0; i < rem; i++) st[BUF + i] = data[pos + i]!;
    this.bufferLength = rem;
    return this;
  }

  /** Writes the tag (tagLength bytes) into out[0..tagLength); the state is unchanged. */
  digestInto(out: Uint8Array): void {
    if (this.destroyed) throw new CmacDestroyedError('digestInto');
    checkBytes(out, 'output');
    const tagLength = this.tagLength;
    if (out.length < tagLength) {
      throw new RangeError(`CMAC output must hold at least tagLength = ${tagLength} bytes, got ${out.length}`);
    }
    const st = this.state;
    // A loop, not subarray(): a view would allocate and move the context's
    // small on-heap array to a separate backing store.
    for (let i = 0; i < 16; i++) block[i] = st[X + i]!;
    xorFinalBlock(st, BUF, this.bufferLength, st, K1);
    this.cipher.encryptBlock(block, block);
    for (let i = 0; i < tagLength; i++) out[i] = block[i]!;
    wipeBlock();
  }

  /** The tag of everything updated since the start or the last reset(); the state is unchanged. */
  digest(): Uint8Array {
    if (this.destroyed) throw new CmacDestroyedError('digest');
    const out = new Uint8Array(this.tagLength);
    this.digestInto(out);
    return out;
  }

  /** Back to the keyed start: the subkeys stay, the message is forgotten. */
  reset(): this {
    if (this.destroyed) throw new CmacDestroyedError('reset');
    this.state.fill(0, X, CONTEXT_BYTES);
    this.bufferLength = 0;
    return this;
  }

  /** The tag of `msg` alone (as reset + update + digest), without touching the streaming state. */
  mac(msg: Uint8Array): Uint8Array {
    if (this.destroyed) throw new CmacDestroyedError('mac');
    checkBytes(msg, 'message');
    chainWholeMessage(this.cipher, this.state, K1, msg);
    return takeTag(this.tagLength);
  }

  /**
   * True when `tag` is the tag of `msg`, compared in constant time. A tag of
   * another length than tagLength is false (the length is not secret).
   */
  verify(msg: Uint8Array, tag: Uint8Array): boolean {
    if (this.destroyed) throw new CmacDestroyedError('verify');
    checkBytes(msg, 'message');
    checkBytes(tag, 'tag');
    if (tag.length !== this.tagLength) return false;
    chainWholeMessage(this.cipher, this.state, K1, msg);
    return blockEqualsTag(tag, this.tagLength);
  }

  /** An independent copy of this context (the EVP_MAC_CTX_dup pattern): no re-keying, no subkey derivation. */
  clone(): Cmac {
    if (this.destroyed) throw new CmacDestroyedError('clone');
    const options: InternalOptions = { tagLength: this.tagLength, [cloneSource]: this };
    return new Cmac(this.cipher, options);
  }

  /**
   * Wipes the subkeys and state; the cipher's key schedule is wiped when the
   * last clone sharing it is destroyed. Later calls throw CmacDestroyedError.
   * A garbage-collected runtime may have copied the bytes before: this is
   * hygiene, not a guarantee.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.state.fill(0);
    this.bufferLength = 0;
    if (--this.owner.refs === 0) this.cipher.destroy();
  }
}
