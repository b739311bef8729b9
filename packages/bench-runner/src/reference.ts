// The reference workload: a fixed piece of work timed between the slices of
// every case, in the same process, so that each case can also be recorded
// relative to it. Two separate runs on a shared machine drift apart by 10-90%
// (other jobs on the same cores, SMT siblings, steal time, frequency); what
// slows the case during a slice slows the reference slices on either side of
// it too, and cancels in the ratio. `compare` uses the relative figures when
// both result files have them.
//
// The work is a small mix of what the measured layers do: 32-bit ALU work
// (xorshift, rotations, additions: SHA-1, the bitsliced AES) and dependent
// lookups in a 1 KiB table that stays in L1 (the T-table AES), about 1.5 µs
// per call here. It is the same in every version of layerbench that records
// `reference.work === referenceWorkName`: changing it makes relative figures
// of older result files incomparable, so it gets a new name.
import type { BenchCase } from './types.js';

/** Identifies the reference workload; stored in each result with relative figures. */
export const referenceWorkName = 'xorshift-table-1024x256';

const table = new Uint32Array(256);
{
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x >>> 0;
  }
}

/** `rounds` rounds of the reference mix starting from `seed`; returns the state (kept alive by the caller). */
export function referenceWork(seed: number, rounds: number): number {
  let x = seed | 0;
  let y = 0x6a09e667;
  for (let i = 0; i < rounds; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    y = (((y << 5) | (y >>> 27)) + (x ^ table[(x ^ y) & 255]!)) | 0;
    y ^= table[(y >>> 8) & 255]! + i;
  }
  return x ^ y;
}

let sink = 1;
/** Rounds per call of the reference case. */
export const referenceRounds = 1024;

/** The reference workload as a bench case. */
export const referenceCase: BenchCase = {
  id: 'reference',
  layer: 'bench-runner',
  params: { work: referenceWorkName },
  setup: () => ({
    fn: () => (sink = referenceWork(sink, referenceRounds)),
    digest: () => 'reference',
  }),
};
