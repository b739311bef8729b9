// Turns the `aes` / `sha1` options of createEspSa into layer factories. A
// string names a backend of this package's own dependencies (aes-core,
// sha1-dispatch); a function is an injected layer (bisection mixes layer
// versions) and is used as it is. This is the only module of esp that imports
// another layer at run time.
import { aesBackends, createAes } from '@layerbench/aes-core';
import type { BlockCipherFactory } from '@layerbench/aes-core';
import { createHmacSha1, sha1Implementations } from '@layerbench/sha1-dispatch';
import type { HmacSha1Factory } from '@layerbench/sha1-dispatch';
import { ImplementationError } from './layer-shared.generated.js';

/** Throws when a layer ran something else than the implementation it was asked for. */
function checkRan(layer: string, requested: string, ran: string): void {
  if (ran !== requested) {
    throw new ImplementationError(
      `esp asked ${layer} for '${requested}' and got '${ran}': this ${layer} does not read the option`,
      {
        unknown: false,
        layer: 'esp',
        requested,
        available: [ran],
      },
    );
  }
}

export function aesFactory(impl: string): BlockCipherFactory {
  return (key) => {
    // Both names: an aes-core before 0.2 (mixed in by a bisection) reads only `backend`.
    const cipher = createAes(key, { impl, backend: impl });
    if (cipher.backend.name !== impl) cipher.destroy();
    checkRan('aes-core', impl, cipher.backend.name);
    return cipher;
  };
}

export function sha1Factory(impl: string): HmacSha1Factory {
  return (key, options) => {
    const mac = createHmacSha1(
      key,
      options?.tagLength === undefined ? { impl } : { impl, tagLength: options.tagLength },
    );
    if (mac.impl !== impl) mac.destroy();
    checkRan('sha1-dispatch', impl, mac.impl);
    return mac;
  };
}

/** Names of the aes-core backends this machine can run. */
export function availableAesBackends(): string[] {
  return aesBackends()
    .filter((b) => b.available)
    .map((b) => b.name);
}

/** Names of the sha1-dispatch implementations this machine can run. */
export function availableSha1Implementations(): string[] {
  return sha1Implementations()
    .filter((s) => s.available)
    .map((s) => s.name);
}
