// The bitsliced S-box circuits checked on all 256 inputs against the S-boxes
// built from the field definition (aes-field.ts), in every bit position of the
// 32-bit words (both copies of the doubled layout).
import { expect, it } from 'vitest';
import { INV_SBOX, SBOX } from '../aes-field.js';
import { subBytesBitsliced } from './bitsliced.js';

function runCircuit(apply: (q: Int32Array) => void, inputs: number[]): number[] {
  const q = new Int32Array(8);
  inputs.forEach((x, pos) => {
    for (let k = 0; k < 8; k++) q[k] |= ((x >>> k) & 1) << pos;
  });
  apply(q);
  return inputs.map((_, pos) => {
    let y = 0;
    for (let k = 0; k < 8; k++) y |= ((q[k]! >>> pos) & 1) << k;
    return y;
  });
}

it.each([
  ['S-box', (q: Int32Array) => subBytesBitsliced(q), SBOX],
  ['inverse S-box', (q: Int32Array) => subBytesBitsliced(q, true), INV_SBOX],
] as const)('bitsliced %s equals the table on all 256 inputs', (_name, circuit, table) => {
  for (let base = 0; base < 256; base += 32) {
    const inputs = Array.from({ length: 32 }, (_, i) => (base + i * 37) & 255);
    expect(runCircuit(circuit, inputs)).toEqual(inputs.map((x) => table[x]));
  }
  // Every input in every bit position.
  for (let shift = 0; shift < 256; shift += 8) {
    const inputs = Array.from({ length: 32 }, (_, i) => (i + shift) & 255);
    expect(runCircuit(circuit, inputs)).toEqual(inputs.map((x) => table[x]));
  }
});

it('S-box from the field definition matches FIPS 197 spot values', () => {
  // FIPS 197 Figure 7: S(00)=63, S(53)=ed, S(ff)=16; Figure 14: InvS(63)=00.
  expect([SBOX[0x00], SBOX[0x53], SBOX[0xff], INV_SBOX[0x63]]).toEqual([0x63, 0xed, 0x16, 0x00]);
});
