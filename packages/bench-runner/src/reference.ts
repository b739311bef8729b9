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

// The state probe: a second fixed workload, timed once between every two
// cases (not between slices), that senses a slow state of a shared CPU the
// reference workload cannot see. Measured on the development machine
// (bench-runner README, "Several processes per run"): in 12 of 70 fresh
// processes SHA-1 of 1500 B ran x1.13-1.33 slower for minutes at a time,
// and T-table CMAC x1.56, while the reference workload moved x0.97-1.04;
// this store-and-reload work (a SHA-1-like compression whose 16-word
// schedule is written to and read back from a typed array) moved x1.20-1.64
// with them. compare widens a case's interval by what the probe says the
// state moved between the two runs. Its name changes when its work does.

/** Identifies the state probe's workload; stored in each run that records it. */
export const stateProbeWorkName = 'store-reload-16x80';

const schedule = new Int32Array(16);
const probeBlock = new Int32Array(16).fill(0x01020304);

/** `blocks` compressions of the probe's work starting from `seed`; returns the state (kept alive by the caller). */
export function stateProbeWork(seed: number, blocks: number): number {
  let a = seed | 0;
  let b = 0xefcdab89 | 0;
  let c = 0x98badcfe | 0;
  let d = 0x10325476;
  let e = 0xc3d2e1f0 | 0;
  for (let n = 0; n < blocks; n++) {
    for (let i = 0; i < 16; i++) schedule[i] = probeBlock[i]! ^ n;
    for (let i = 0; i < 80; i++) {
      let x: number;
      if (i < 16) x = schedule[i]!;
      else {
        const t = schedule[(i - 3) & 15]! ^ schedule[(i - 8) & 15]! ^ schedule[(i - 14) & 15]! ^ schedule[i & 15]!;
        x = (t << 1) | (t >>> 31);
        schedule[i & 15] = x;
      }
      const f = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + x + 0x5a827999) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = f;
    }
  }
  return a ^ b ^ c ^ d ^ e;
}

let probeSink = 1;
/** Compressions per call of the state probe (about 4.4 µs here). */
export const stateProbeBlocks = 24;

/** The state probe as a bench case. */
export const stateProbeCase: BenchCase = {
  id: 'state-probe',
  layer: 'bench-runner',
  params: { work: stateProbeWorkName },
  setup: () => ({
    fn: () => (probeSink = stateProbeWork(probeSink, stateProbeBlocks)),
    digest: () => 'state-probe',
  }),
};
