// The convenience constructors over aes-core: the one-shot cmac() that keys
// the cipher and derives the subkeys on every call (the EVP_MAC pattern of
// the NTPsec report) and createCmac() for a preloaded context. The `aes`
// option takes any BlockCipherFactory, so a bench composition can inject the
// AES layer of another version.
import { createAes } from '@layerbench/aes-core';
import type { BlockCipher, BlockCipherFactory } from '@layerbench/aes-core';
import { Cmac, chainingFor, chainWholeMessage, deriveK1, takeTag, wipeWords } from './cmac.js';
import type { CmacOptions } from './cmac.js';
import { checkAesKey, checkBytes, tagLengthOption } from './errors.js';

export interface CmacKeyOptions extends CmacOptions {
  /** aes-core backend name (e.g. 'table', 'ct', 'node'); default: aes-core's choice. */
  backend?: string;
  /** Builds the cipher instead of aes-core's createAes (then `backend` must not be given). */
  aes?: BlockCipherFactory;
}

function keyCipher(key: Uint8Array, options: CmacKeyOptions): BlockCipher {
  checkAesKey(key);
  if (options.aes !== undefined) {
    if (options.backend !== undefined) {
      throw new TypeError('CMAC options: give either `aes` (a cipher factory) or `backend`, not both');
    }
    if (typeof options.aes !== 'function') {
      throw new TypeError(`CMAC option aes must be a function (key) => BlockCipher, got ${typeof options.aes}`);
    }
    return options.aes(key);
  }
  return options.backend === undefined ? createAes(key) : createAes(key, { backend: options.backend });
}

/** A preloaded context: the key is expanded and the subkeys derived once, here. */
export function createCmac(key: Uint8Array, options: CmacKeyOptions = {}): Cmac {
  const tagLength = tagLengthOption(options.tagLength);
  return new Cmac(keyCipher(key, options), { tagLength });
}

/** AES-CMAC of `msg` under `key`, keying the cipher and deriving the subkeys on this call. */
export function cmac(key: Uint8Array, msg: Uint8Array, options: CmacKeyOptions = {}): Uint8Array {
  const tagLength = tagLengthOption(options.tagLength);
  checkBytes(msg, 'message');
  const cipher = keyCipher(key, options);
  try {
    const chainBlocks = chainingFor(cipher);
    const k1 = deriveK1(chainBlocks, cipher);
    const k1Word0 = k1[0]!;
    const k1Word1 = k1[1]!;
    const k1Word2 = k1[2]!;
    const k1Word3 = k1[3]!;
    wipeWords(k1);
    chainWholeMessage(chainBlocks, cipher, msg, k1Word0, k1Word1, k1Word2, k1Word3);
    return takeTag(tagLength);
  } finally {
    cipher.destroy();
  }
}
