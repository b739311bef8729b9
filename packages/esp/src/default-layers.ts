// Turns the `aes` / `sha1` options of createEspSa into layer factories. A
// string names a backend of this package's own dependencies (aes-core,
// sha1-dispatch); a function is an injected layer (bisection mixes layer
// versions) and is used as it is. This is the only module of esp that imports
// another layer at run time.
import { aesBackends, createAes } from '@layerbench/aes-core';
import type { BlockCipherFactory } from '@layerbench/aes-core';
import { createHmacSha1, sha1Implementations } from '@layerbench/sha1-dispatch';
import type { HmacSha1Factory } from '@layerbench/sha1-dispatch';

export function aesFactory(backend: string): BlockCipherFactory {
  return (key) => createAes(key, { backend });
}

export function sha1Factory(impl: string): HmacSha1Factory {
  return (key, options) => createHmacSha1(key, options?.tagLength === undefined ? { impl } : { impl, tagLength: options.tagLength });
}

/** Names of the aes-core backends this machine can run. */
export function availableAesBackends(): string[] {
  return aesBackends().filter((b) => b.available).map((b) => b.name);
}

/** Names of the sha1-dispatch implementations this machine can run. */
export function availableSha1Implementations(): string[] {
  return sha1Implementations().filter((s) => s.available).map((s) => s.name);
}
