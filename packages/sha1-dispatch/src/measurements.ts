// Timing of whole-message SHA-1 and of blockDataOrder calls per implementation
// over a range of sizes: the figures the dispatcher's cost lines are fitted to
// (cost-model.ts). Used to produce the shipped figures
// (scripts/measure-crossover.mjs) and by measureCrossover() to re-measure on
// the user's machine. Not a benchmark harness: a low percentile of short
// interleaved batches, enough to place a crossover.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { compressorOf } from './implementations.js';
import { hashWholeMessage } from './whole-message.js';
import type { Sha1ImplName } from './implementations.js';

export interface SizeMeasurement {
  size: number;
  impl: Sha1ImplName;
  /** ns per whole-message hash: 10th percentile of short interleaved batches, wall time. */
  nsPerOp: number;
}

export interface CrossoverMeasurements {
  /** Whole messages of at least this many bytes go to node:crypto. */
  crossover: number;
  machine: string;
  /** What the batches were timed with (see measurementClock). */
  clock: MeasurementClock['kind'];
  date: string;
  command: string;
  /** Whole-message time per (size, impl). */
  rows: SizeMeasurement[];
  /** One blockDataOrder call per (run of size/64 blocks, impl): decides the streaming split. */
  blockRuns?: SizeMeasurement[];
}

// Includes the sizes the sha1 suite measures (64, 1500, 16384), so the choice there is a measured one.
/**
 * The clock batches are timed with: wall time, as the caller experiences it.
 * (Process CPU time was tried: it counts the GC helper threads that the
 * allocating node:crypto path keeps busy, which the caller does not wait for,
 * and it put the crossover above sizes where node:crypto is plainly faster.)
 * Noise from other processes is handled by short interleaved batches, a low
 * percentile per point, and by fitting lines through all sizes (cost-model.ts).
 */
export interface MeasurementClock {
  kind: 'wall time';
  nowNs(): number;
}

export function measurementClock(): MeasurementClock {
  return { kind: 'wall time', nowNs: () => performance.now() * 1e6 };
}

export const DEFAULT_SIZES = [
  64, 128, 256, 384, 512, 768, 1024, 1280, 1500, 1792, 2048, 3072, 4096, 8192, 16384, 65536,
];

export function machineDescription(): string {
  const list = cpus();
  return `${list[0]?.model.trim() ?? 'unknown CPU'} x${list.length}, Node ${process.version}, OpenSSL ${process.versions.openssl}`;
}

/** One operation on a prepared input of `size` bytes. */
type Operation = (input: Uint8Array) => unknown;

/**
 * The timing core: for each size, each implementation's operation in
 * interleaved batches of about msPerPoint / batches ms; the 10th percentile
 * per point (on a shared machine most batches lose time to another process;
 * the low ones ran alone, which is the cost the dispatcher compares).
 */
function measurePoints(
  impls: Sha1ImplName[],
  sizes: number[],
  operationOf: (impl: Sha1ImplName) => Operation,
  msPerPoint: number,
  batches: number,
  clock: MeasurementClock,
): SizeMeasurement[] {
  const rows: SizeMeasurement[] = [];
  const ops = impls.map(operationOf);
  const inputs = sizes.map((size) => {
    const input = new Uint8Array(size);
    for (let i = 0; i < size; i++) input[i] = (i * 131 + 7) & 0xff;
    return input;
  });
  const calibrate = (op: Operation, input: Uint8Array) => {
    let n = 1;
    for (;;) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) op(input);
      const dt = performance.now() - t0;
      if (dt >= 2 || n >= 1 << 20) return Math.max(1, Math.round((n * msPerPoint) / batches / Math.max(dt, 1e-3)));
      n *= 2;
    }
  };
  // Passes over every size warm each operation up (JIT tiers), so the first
  // size is not measured on unoptimised code; one pass was not enough.
  for (let pass = 0; pass < 3; pass++) for (const input of inputs) for (const op of ops) calibrate(op, input);
  for (let m = 0; m < sizes.length; m++) {
    const input = inputs[m]!;
    const iters = ops.map((op) => calibrate(op, input));
    const samples: number[][] = impls.map(() => []);
    for (let b = 0; b < batches; b++) {
      ops.forEach((op, k) => {
        const n = iters[k]!;
        const t0 = clock.nowNs();
        for (let i = 0; i < n; i++) op(input);
        samples[k]!.push((clock.nowNs() - t0) / n);
      });
    }
    impls.forEach((impl, k) => {
      const sorted = samples[k]!.sort((x, y) => x - y);
      rows.push({ size: sizes[m]!, impl, nsPerOp: Math.round(sorted[Math.floor(sorted.length / 10)]! * 10) / 10 });
    });
  }
  return rows;
}

/** Whole-message SHA-1 (the path sha1() takes) per (size, impl). */
export function measureSizes(
  impls: Sha1ImplName[],
  sizes: number[],
  msPerPoint: number,
  batches = 7,
  clock = measurementClock(),
): SizeMeasurement[] {
  const out = new Uint8Array(20);
  return measurePoints(impls, sizes, (impl) => (msg) => hashWholeMessage(impl, msg, out), msPerPoint, batches, clock);
}

/** Block counts of the streaming measurement: one blockDataOrder call per run. */
export const DEFAULT_BLOCK_RUNS = [1, 2, 3, 4, 6, 8, 16, 32];

/**
 * One blockDataOrder call over a run of `size / 64` blocks per (size, impl):
 * what a streaming update costs, including any per-call cost (wasm copies
 * into linear memory and moves the state in and out).
 */
export function measureBlockRuns(
  impls: Sha1ImplName[],
  blockCounts: number[],
  msPerPoint: number,
  batches = 7,
  clock = measurementClock(),
): SizeMeasurement[] {
  const state = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const operationOf = (impl: Sha1ImplName): Operation => {
    const c = compressorOf(impl);
    if (c === undefined) throw new RangeError(`measureBlockRuns: '${impl}' has no block function`);
    return (data) => c.blockDataOrder(state, data, 0, data.length >> 6);
  };
  return measurePoints(
    impls,
    blockCounts.map((n) => n * 64),
    operationOf,
    msPerPoint,
    batches,
    clock,
  );
}

/** Per-point median of several measurement rounds (same sizes and impls in each). */
export function medianRows(rounds: SizeMeasurement[][]): SizeMeasurement[] {
  return rounds[0]!.map((row, i) => {
    const values = rounds.map((r) => r[i]!.nsPerOp).sort((a, b) => a - b);
    return { ...row, nsPerOp: values[values.length >> 1]! };
  });
}
