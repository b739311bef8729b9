// Capability probes and LAYERBENCH_CAPS parsing.
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { webAssembly } from './webassembly-api.js';
import {
  applyCapabilityMask,
  CAPABILITY_BITS,
  flagsOf,
  formatCapabilityWord,
  MVP_PROBE,
  SIMD_PROBE,
} from './capabilities.js';

describe('probes', () => {
  it('the SIMD probe is the assembled (func (drop (i32x4.splat (i32.const 0)))), rejected without SIMD', async () => {
    const wabt = await wabtInit();
    const mod = wabt.parseWat('probe.wat', '(module (func (drop (i32x4.splat (i32.const 0)))))', { simd: true });
    const bytes = Uint8Array.from(mod.toBinary({}).buffer);
    mod.destroy();
    expect(Array.from(SIMD_PROBE)).toEqual(Array.from(bytes));
    expect(webAssembly!.validate(SIMD_PROBE)).toBe(true);
    // Swap the SIMD opcode for an unassigned prefix byte: the probe then fails validation,
    // as it does on a runtime without SIMD128.
    const broken = SIMD_PROBE.slice();
    broken[broken.indexOf(0xfd)] = 0xff;
    expect(webAssembly!.validate(broken)).toBe(false);
    expect(webAssembly!.validate(MVP_PROBE)).toBe(true);
  });
});

describe('applyCapabilityMask', () => {
  const all = 0xf;
  it.each([
    ['~simd128', 0xd],
    ['~wasm,~simd128', 0xc],
    ['~wasm ~bigint', 0x6],
    ['~0x3', 0xc],
    ['0x5', 0x5],
    ['00000005', 0x5],
    ['ffffffff', 0xf],
    ['', 0xf],
  ])('%s -> %i', (spec, want) => {
    expect(applyCapabilityMask(all, spec)).toBe(want);
  });

  it('cannot add what was not detected', () => {
    expect(applyCapabilityMask(0x4, 'ffffffff')).toBe(0x4);
  });

  it('throws on unknown names and on adding by name', () => {
    expect(() => applyCapabilityMask(all, '~sse4')).toThrow(/unknown capability 'sse4'/);
    expect(() => applyCapabilityMask(all, 'simd128')).toThrow(/cannot add a capability; write '~simd128'/);
  });

  it('formats words as 8 hex digits and decodes flags', () => {
    expect(formatCapabilityWord(0xf)).toBe('0000000f');
    expect(flagsOf(CAPABILITY_BITS.wasm | CAPABILITY_BITS.bigint)).toEqual({
      wasm: true,
      simd128: false,
      nodeCrypto: false,
      bigint: true,
    });
  });
});
