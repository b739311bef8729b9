// Which workloads move with the shared machine's slow state (bench-runner
// README, "Several processes per run"): in one fresh process, SHA-1 of 1500 B
// (unrolled, wasm) taking turns with five candidate reference workloads, the
// 10th percentile over 40 rounds of the fastest of 20 batches of 50 calls,
// ns per call, printed as one JSON line. Run it every half minute for a
// while and compare the lines from before and during a slow spell:
//
//   npm run build
//   while :; do echo "$(date +%T) $(node apps/cli/scripts/machine-state-probe.mjs)"; sleep 25; done
//
//   refA  bench-runner's reference workload (one dependent chain, 1 KiB table)
//   refB  four independent ALU chains (instruction-level parallelism)
//   refC  bench-runner's state probe: a SHA-1-like compression with its
//         16-word schedule stored and reloaded (store-to-load forwarding)
//   refD  four chains of lookups in a 16 KiB table
//   refE  the same in a 64 KiB table (beyond L1)
import { sha1 } from '@layerbench/sha1-dispatch';
// bench-runner's reference workload and state probe themselves, from its build (not part of its public API).
import { referenceWork, stateProbeWork } from '../../../packages/bench-runner/dist/reference.js';

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

function ilp(seed, rounds) {
  let a = seed | 0;
  let b = a ^ 0x12345678;
  let c = a ^ 0x2468ace0;
  let d = a ^ 0x13579bdf;
  for (let i = 0; i < rounds; i++) {
    a = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + 0x5a827999) | 0;
    b = (((b << 30) | (b >>> 2)) + ((a & c) | (~a & d)) + i) | 0;
    c = (((c << 5) | (c >>> 27)) + (d ^ a) + 0x6ed9eba1) | 0;
    d = (((d << 30) | (d >>> 2)) + (b | c) + table[i & 255]) | 0;
  }
  return a ^ b ^ c ^ d;
}

const big16 = new Uint32Array(4096);
const big64 = new Uint32Array(16384);
for (let i = 0; i < big64.length; i++) {
  big64[i] = Math.imul(i + 1, 0x9e3779b1) >>> 0;
  if (i < big16.length) big16[i] = big64[i];
}
function lookups(t, mask, seed, rounds) {
  let a = seed | 0;
  let b = a + 1;
  let c = a + 2;
  let d = a + 3;
  for (let i = 0; i < rounds; i++) {
    a = (a >>> 3) ^ t[(a ^ b) & mask];
    b = (b >>> 3) ^ t[(b ^ c) & mask];
    c = (c >>> 3) ^ t[(c ^ d) & mask];
    d = (d >>> 3) ^ t[(d ^ a) & mask];
  }
  return a ^ b ^ c ^ d;
}

const msg = new Uint8Array(1500).fill(7);
let sink = 0;
const kinds = {
  unrolled: () => {
    sink ^= sha1(msg, { impl: 'unrolled' })[0];
  },
  wasm: () => {
    sink ^= sha1(msg, { impl: 'wasm' })[0];
  },
  refA: () => {
    sink = referenceWork(sink, 1024);
  },
  refB: () => {
    sink = ilp(sink, 1024);
  },
  refC: () => {
    sink = stateProbeWork(sink, 24);
  },
  refD: () => {
    sink = lookups(big16, 4095, sink, 1024);
  },
  refE: () => {
    sink = lookups(big64, 16383, sink, 1024);
  },
};

function time(fn, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n;
}

for (const fn of Object.values(kinds)) for (let i = 0; i < 3000; i++) fn();
const slices = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
for (let round = 0; round < 40; round++) {
  for (const [k, fn] of Object.entries(kinds)) {
    let fastest = Infinity;
    for (let b = 0; b < 20; b++) fastest = Math.min(fastest, time(fn, 50));
    slices[k].push(fastest);
  }
}
const p10 = (v) => [...v].sort((a, b) => a - b)[Math.round(0.1 * v.length)];
console.log(JSON.stringify(Object.fromEntries(Object.entries(slices).map(([k, v]) => [k, Number(p10(v).toFixed(1))]))));
if (sink === 0.5) console.log(sink);
