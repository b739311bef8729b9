// Input validation shared by every backend, so all of them reject bad input
// with the same typed errors (what was wrong and what was expected). What a
// byte argument is, and how its error reads, is the layers' common rule
// (layer-shared.generated.ts).
import { checkBytes as checkByteArgument, describeValue, isBytes } from './layer-shared.generated.js';

function checkBytes(value: unknown, what: string): asserts value is Uint8Array {
  // The message is built only for bad input: these checks run on every call.
  if (!isBytes(value)) checkByteArgument(value, `AES ${what}`);
}

export function checkKey(key: unknown): asserts key is Uint8Array {
  checkBytes(key, 'key');
  const n = key.length;
  if (n !== 16 && n !== 24 && n !== 32) {
    throw new RangeError(`AES key must be 16, 24 or 32 bytes, got ${n}`);
  }
}

/** encryptBlock/decryptBlock arguments: src is exactly one block; dst is at least one block (its first 16 bytes are written). */
export function checkBlockArgs(src: unknown, dst: unknown): void {
  checkBytes(src, 'block src');
  checkBytes(dst, 'block dst');
  if ((src as Uint8Array).length !== 16) {
    throw new RangeError(`AES block src must be 16 bytes, got ${(src as Uint8Array).length}`);
  }
  if ((dst as Uint8Array).length < 16) {
    throw new RangeError(`AES block dst must be at least 16 bytes, got ${(dst as Uint8Array).length}`);
  }
}

/**
 * cbcEncrypt/cbcDecrypt arguments. Returns the output view: `dst` when given
 * (its first src.length bytes), otherwise a new array. A `src` that partially
 * overlaps `dst` (same buffer, different offset) is copied first, because the
 * chaining reads input after output has been written; src === dst (same view)
 * is handled in place by every backend.
 */
export function checkCbcArgs(iv: unknown, src: unknown, dst: unknown): { input: Uint8Array; output: Uint8Array } {
  checkBytes(iv, 'CBC iv');
  if (iv.length !== 16) throw new RangeError(`AES-CBC iv must be 16 bytes, got ${iv.length}`);
  checkBytes(src, 'CBC data');
  const n = src.length;
  if (n % 16 !== 0) {
    throw new RangeError(`AES-CBC data length must be a multiple of 16 (no padding), got ${n}`);
  }
  if (dst === undefined) return { input: src, output: new Uint8Array(n) };
  checkBytes(dst, 'CBC dst');
  if (dst.length < n)
    throw new RangeError(`AES-CBC dst must be at least ${n} bytes (the data length), got ${dst.length}`);
  const output = dst.length === n ? dst : dst.subarray(0, n);
  let input: Uint8Array = src;
  if (src.buffer === output.buffer && src.byteOffset !== output.byteOffset) {
    const a = src.byteOffset;
    const b = output.byteOffset;
    if (a < b + n && b < a + n) input = src.slice();
  }
  return { input, output };
}

/** cbcMacWords arguments: a 4-word state, bytes, a whole number of blocks inside them, an optional 4-word mask. */
export function checkCbcMacArgs(state: unknown, data: unknown, offset: unknown, blocks: unknown, mask: unknown): void {
  // One cheap test for the call every CMAC makes; the messages below only when it fails.
  if (
    state instanceof Int32Array &&
    state.length === 4 &&
    isBytes(data) &&
    (offset as number) >>> 0 === offset &&
    (blocks as number) >>> 0 === blocks &&
    (offset as number) + 16 * (blocks as number) <= data.length &&
    (mask === undefined || (mask instanceof Int32Array && mask.length === 4 && (blocks as number) > 0))
  )
    return;
  checkWords(state, 'state');
  checkBytes(data, 'CBC-MAC data');
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > 0xffffffff) {
    throw new RangeError(`AES CBC-MAC offset must be a non-negative integer, got ${String(offset)}`);
  }
  if (typeof blocks !== 'number' || !Number.isInteger(blocks) || blocks < 0 || blocks > 0xffffffff) {
    throw new RangeError(`AES CBC-MAC blocks must be a non-negative integer, got ${String(blocks)}`);
  }
  if (offset + 16 * blocks > data.length) {
    throw new RangeError(
      `AES CBC-MAC of ${blocks} blocks from offset ${offset} needs ${offset + 16 * blocks} bytes of data, got ${data.length}`,
    );
  }
  checkWords(mask, 'lastBlockMask');
  throw new RangeError('AES CBC-MAC lastBlockMask needs at least one block to apply to, got blocks = 0');
}

function checkWords(value: unknown, what: string): void {
  if (!(value instanceof Int32Array) || value.length !== 4) {
    const got = value instanceof Int32Array ? `${value.length} words` : describeValue(value);
    throw new TypeError(`AES CBC-MAC ${what} must be an Int32Array of 4 words, got ${got}`);
  }
}
