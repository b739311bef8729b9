// The convenience constructors over aes-core: the one-shot cmac() that keys
// the cipher and derives the subkeys on every call (the EVP_MAC pattern of
// the NTPsec report) and createCmac() for a preloaded context. The `aes`
// option takes any BlockCipherFactory, so a bench composition can inject the
// AES layer of another version.
import { createAes } from '@layerbench/aes-core';
import type { BlockCipher, BlockCipherFactory, DispatchDecision } from '@layerbench/aes-core';
import { Cmac, chainingFor, chainWholeMessage, deriveK1, hasCbcMacWords, takeTag, wipeWords } from './cmac.js';
import type { CmacOptions } from './cmac.js';
import { checkAesKey, checkBytes, tagLengthOption } from './errors.js';
import { ImplementationError, implOption } from './layer-shared.generated.js';

export interface CmacKeyOptions extends CmacOptions {
  /** aes-core backend name (e.g. 'table', 'ct', 'bitsliced', 'node'); default: aes-core's choice. */
  impl?: string;
  /**
   * @deprecated since 0.2: use `impl`. Still read (callers written for 0.1,
   * layers of another version mixed in by a bisection); naming another
   * backend than `impl` throws.
   */
  backend?: string;
  /** Builds the cipher instead of aes-core's createAes (then `impl` must not be given). */
  aes?: BlockCipherFactory;
}

function keyCipher(key: Uint8Array, options: CmacKeyOptions): BlockCipher {
  checkAesKey(key);
  const impl = implOption(options, 'CMAC');
  if (options.aes !== undefined) {
    if (impl !== undefined) {
      throw new TypeError('CMAC options: give either `aes` (a cipher factory) or `impl`, not both');
    }
    if (typeof options.aes !== 'function') {
      throw new TypeError(`CMAC option aes must be a function (key) => BlockCipher, got ${typeof options.aes}`);
    }
    return options.aes(key);
  }
  if (impl === undefined) return createAes(key);
  // Both names: an aes-core before 0.2 (mixed in by a bisection) reads only `backend`.
  const cipher = createAes(key, { impl, backend: impl });
  if (cipher.backend.name !== impl) {
    const ran = cipher.backend.name;
    cipher.destroy();
    throw new ImplementationError(
      `CMAC asked aes-core for backend '${impl}' and got '${ran}': this aes-core does not read the option`,
      {
        unknown: false,
        layer: 'cmac',
        requested: impl,
        available: [ran],
      },
    );
  }
  return cipher;
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

/**
 * The one choice this layer makes, in the shape every layer reports (bench
 * results record it): the chaining path a context over aes-core's default
 * cipher takes. The backend itself is aes-core's decision (its own
 * describeDispatch()); cmac has no dispatcher to reset.
 */
export function describeDispatch(): DispatchDecision[] {
  const cipher = createAes(new Uint8Array(16));
  try {
    const words = hasCbcMacWords(cipher);
    const name = cipher.backend.name;
    return [
      {
        layer: 'cmac',
        decision: 'chaining path',
        impl: words ? 'cbcMacWords' : 'block calls',
        reason: words
          ? `aes-core's default cipher (${name}) has cbcMacWords: a message whose last block is complete is one cipher call`
          : `aes-core's default cipher (${name}) has no cbcMacWords (aes-core before 0.2): encryptBlock per block, cbcEncrypt for runs of 256 bytes or more`,
      },
    ];
  } finally {
    cipher.destroy();
  }
}
