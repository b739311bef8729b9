// SHA-1 of a whole message by a named implementation: the one path sha1()
// takes after dispatch, shared with the crossover measurements so what is
// measured is exactly what runs.
import { nodeSha1 } from './backends/node.js';
import { compressorOf } from './implementations.js';
import type { Sha1ImplName } from './implementations.js';
import { sha1WithCompressor } from './sha1-hash.js';

export function hashWholeMessage(impl: Sha1ImplName, msg: Uint8Array, out?: Uint8Array): Uint8Array {
  // node returns OpenSSL's digest Buffer itself: no second allocation or copy.
  if (impl === 'node') return nodeSha1(msg, out, 0);
  return sha1WithCompressor(compressorOf(impl)!, msg, out ?? new Uint8Array(20), 0);
}
