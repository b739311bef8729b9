// What this runtime offers the SHA-1 layer, as flags and as one hex capability
// word (printed as `CPU capabilities: <word>`, like OpenSSL's esptest), and
// LAYERBENCH_CAPS masking of that word in the manner of OPENSSL_ia32cap.
import { nodeCryptoWorks } from './backends/node.js';
import { webAssembly } from './webassembly-api.js';
import { EnvironmentValueError } from './layer-shared.generated.js';

/** Bit layout of the capability word. Append new bits; never renumber. */
export const CAPABILITY_BITS = {
  wasm: 0x1,
  simd128: 0x2,
  nodeCrypto: 0x4,
  bigint: 0x8,
} as const;

export type CapabilityName = keyof typeof CAPABILITY_BITS;
export const CAPABILITY_NAMES = Object.keys(CAPABILITY_BITS) as CapabilityName[];

export interface Capabilities {
  flags: Record<CapabilityName, boolean>;
  /** The effective word (detected, then masked), 8 hex digits. */
  word: string;
  /** The word before LAYERBENCH_CAPS masking. */
  detectedWord: string;
  /** The LAYERBENCH_CAPS value applied, if any. */
  mask?: string;
}

// The smallest valid module (header only), and one whose function body uses a
// v128 instruction: (func (drop (i32x4.splat (i32.const 0)))). A runtime
// without SIMD128 rejects the second at validation. capabilities.test.ts
// re-assembles both with wabt to check these bytes.
export const MVP_PROBE: Uint8Array = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
export const SIMD_PROBE: Uint8Array = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  0x01,
  0x04,
  0x01,
  0x60,
  0x00,
  0x00, // type section: () -> ()
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x09,
  0x01,
  0x07,
  0x00,
  0x41,
  0x00,
  0xfd,
  0x11,
  0x1a,
  0x0b, // code: i32.const 0; i32x4.splat; drop; end
]);

function validates(bytes: Uint8Array): boolean {
  try {
    return webAssembly?.validate(bytes) === true;
  } catch {
    return false;
  }
}

/** The capability word of this runtime, unmasked. */
export function detectCapabilityWord(): number {
  let word = 0;
  if (validates(MVP_PROBE)) word |= CAPABILITY_BITS.wasm;
  if (validates(SIMD_PROBE)) word |= CAPABILITY_BITS.simd128;
  if (nodeCryptoWorks()) word |= CAPABILITY_BITS.nodeCrypto;
  if (typeof BigInt === 'function') word |= CAPABILITY_BITS.bigint;
  return word;
}

export function formatCapabilityWord(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/**
 * Applies a LAYERBENCH_CAPS value to a detected word. Comma- or
 * space-separated terms, applied left to right:
 * `~name` clears that capability, `~0xHEX` clears those bits, `0xHEX` (or bare
 * hex) keeps only those bits. Masking can only remove what was detected.
 */
export function applyCapabilityMask(detected: number, spec: string): number {
  let word = detected;
  const terms = spec.split(/[\s,]+/).filter((t) => t !== '');
  for (const term of terms) {
    const negate = term.startsWith('~');
    const body = negate ? term.slice(1) : term;
    let bits: number;
    if (/^(0x)?[0-9a-f]{1,8}$/i.test(body) && !(body in CAPABILITY_BITS)) {
      bits = parseInt(body.replace(/^0x/i, ''), 16);
    } else if (negate && body in CAPABILITY_BITS) {
      bits = CAPABILITY_BITS[body as CapabilityName];
    } else if (body in CAPABILITY_BITS) {
      throw new EnvironmentValueError(
        `LAYERBENCH_CAPS: '${term}' cannot add a capability; write '~${body}' to mask it`,
        'LAYERBENCH_CAPS',
        spec,
      );
    } else {
      throw new EnvironmentValueError(
        `LAYERBENCH_CAPS: unknown capability '${body}' in '${spec}' (known: ${CAPABILITY_NAMES.join(', ')}, or a hex mask)`,
        'LAYERBENCH_CAPS',
        spec,
      );
    }
    word = negate ? word & ~bits : word & bits;
  }
  return word >>> 0;
}

export function flagsOf(word: number): Record<CapabilityName, boolean> {
  const flags = {} as Record<CapabilityName, boolean>;
  for (const name of CAPABILITY_NAMES) flags[name] = (word & CAPABILITY_BITS[name]) !== 0;
  return flags;
}
