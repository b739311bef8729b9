// The registry of SHA-1 implementations: name, whether native, what
// capabilities it needs, and whether it runs here. Dispatch and forcing read it.
import { blockDataOrder as genericBlocks } from './backends/generic.js';
import { nodeCryptoWorks } from './backends/node.js';
import { blockDataOrder as unrolledBlocks } from './backends/unrolled.generated.js';
import { wasmCompressor, wasmLoads } from './backends/wasm.js';
import { CAPABILITY_BITS } from './capabilities.js';
import type { CapabilityName } from './capabilities.js';
import type { Sha1Compressor } from './types.js';

export const SHA1_IMPL_NAMES = ['generic', 'unrolled', 'wasm', 'node'] as const;
export type Sha1ImplName = (typeof SHA1_IMPL_NAMES)[number];

export interface Sha1ImplementationInfo {
  name: Sha1ImplName;
  /** Runs here: its capabilities are present (after LAYERBENCH_CAPS masking) and it loads. */
  available: boolean;
  /** Native code (OpenSSL), not TypeScript or WebAssembly shipped in this package. */
  native: boolean;
  /** Has a block function (a Sha1Compressor); node does not. */
  blockFunction: boolean;
  /** Capabilities it needs. */
  requires: CapabilityName[];
  /** When unavailable: why. */
  unavailableReason?: string;
}

interface ImplEntry {
  name: Sha1ImplName;
  native: boolean;
  requires: CapabilityName[];
  compressor?: Sha1Compressor;
  loads(): boolean;
}

const ENTRIES: Record<Sha1ImplName, ImplEntry> = {
  generic: {
    name: 'generic',
    native: false,
    requires: [],
    compressor: { name: 'generic', blockDataOrder: genericBlocks },
    loads: () => true,
  },
  unrolled: {
    name: 'unrolled',
    native: false,
    requires: [],
    compressor: { name: 'unrolled', blockDataOrder: unrolledBlocks },
    loads: () => true,
  },
  wasm: { name: 'wasm', native: false, requires: ['wasm'], compressor: wasmCompressor, loads: wasmLoads },
  node: { name: 'node', native: true, requires: ['nodeCrypto'], loads: nodeCryptoWorks },
};

export function isImplName(name: string): name is Sha1ImplName {
  return (SHA1_IMPL_NAMES as readonly string[]).includes(name);
}

/** Availability of every implementation under an (already masked) capability word. */
export function implementationInfo(word: number): Sha1ImplementationInfo[] {
  return SHA1_IMPL_NAMES.map((name) => {
    const e = ENTRIES[name];
    const missing = e.requires.filter((cap) => (word & CAPABILITY_BITS[cap]) === 0);
    let unavailableReason: string | undefined;
    if (missing.length > 0) unavailableReason = `capability ${missing.join(', ')} absent or masked`;
    else if (!e.loads()) unavailableReason = 'failed to load in this runtime';
    const info: Sha1ImplementationInfo = {
      name,
      available: unavailableReason === undefined,
      native: e.native,
      blockFunction: e.compressor !== undefined,
      requires: [...e.requires],
    };
    if (unavailableReason !== undefined) info.unavailableReason = unavailableReason;
    return info;
  });
}

/** The block function of an implementation, or undefined for node. */
export function compressorOf(name: Sha1ImplName): Sha1Compressor | undefined {
  return ENTRIES[name].compressor;
}
