// How the suites ask aes-core for a backend by name. bisect and find run
// these suites against aes-core versions older and newer than this one: the
// option is `impl` since aes-core 0.2 and was `backend` before (0.2 still
// reads `backend` as a deprecated alias and refuses the two naming different
// backends). Passing both names selects the backend on every version, and
// checkBackend() makes sure the cipher (or CMAC context) really is that
// backend, so a layer that read neither name could never be measured, and
// reported, under the name of another.
import type { BlockCipher } from '@layerbench/aes-core';
import type { Layers } from '../layers.js';

/** createAes options naming `name` for every aes-core version. */
export function aesImplOptions(name: string): { impl: string; backend: string } {
  return { impl: name, backend: name };
}

/** `keyed` when it runs backend `name`; otherwise an error saying what ran instead. */
export function checkBackend<T extends { readonly backend: { readonly name: string } }>(keyed: T, name: string): T {
  const ran = keyed.backend.name;
  if (ran !== name)
    throw new Error(`asked aes-core for backend '${name}' and it ran '${ran}': this aes-core does not read the option`);
  return keyed;
}

/** A cipher of backend `name` from the composition's aes-core, checked to be that backend. */
export function createAesAs(layers: Layers, key: Uint8Array, name: string): BlockCipher {
  return checkBackend(layers.aes.createAes(key, aesImplOptions(name)), name);
}
