// Timing of whole-message SHA-1 per implementation over a range of sizes, and
// the node:crypto crossover derived from it. Used to produce the shipped
// figures (scripts/measure-crossover.mjs) and by measureCrossover() to
// re-measure on the user's machine. Not a benchmark harness: a quick median of
// a few batches, enough to place a crossover.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
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
  rows: SizeMeasurement[];
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

export const DEFAULT_SIZES = [64, 128, 256, 384, 512, 768, 1024, 1280, 1500, 1792, 2048, 3072, 4096, 8192, 16384, 65536];

export function machineDescription(): string {
  const list = cpus();
  return `${list[0]?.model.trim() ?? 'unknown CPU'} x${list.length}, Node ${process.version}, OpenSSL ${process.versions.openssl}`;
}

function hasherFor(impl: Sha1ImplName): (msg: Uint8Array, out: Uint8Array) => unknown {
  return (msg, out) => hashWholeMessage(impl, msg, out);
}

/** ns/op of whole-message hashing per (size, impl): 10th percentile of batches of msPerPoint/batches ms, impls interleaved per batch. */
export function measureSizes(impls: Sha1ImplName[], sizes: number[], msPerPoint: number, batches = 7, clock = measurementClock()): SizeMeasurement[] {
  const rows: SizeMeasurement[] = [];
  const out = new Uint8Array(20);
  const hashers = impls.map(hasherFor);
  const messages = sizes.map((size) => {
    const msg = new Uint8Array(size);
    for (let i = 0; i < size; i++) msg[i] = (i * 131 + 7) & 0xff;
    return msg;
  });
  // Calibrate iterations so one batch lasts about msPerPoint / batches.
  const calibrate = (h: (msg: Uint8Array, out: Uint8Array) => unknown, msg: Uint8Array) => {
    let n = 1;
    for (;;) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) h(msg, out);
      const dt = performance.now() - t0;
      if (dt >= 2 || n >= 1 << 20) return Math.max(1, Math.round((n * msPerPoint) / batches / Math.max(dt, 1e-3)));
      n *= 2;
    }
  };
  // Passes over every size warm each hasher up (JIT tiers), so the smallest
  // size is not measured on unoptimised code; one pass was not enough.
  for (let pass = 0; pass < 3; pass++) for (const msg of messages) for (const h of hashers) calibrate(h, msg);
  for (let m = 0; m < sizes.length; m++) {
    const size = sizes[m]!;
    const msg = messages[m]!;
    const iters = hashers.map((h) => calibrate(h, msg));
    const samples: number[][] = impls.map(() => []);
    for (let b = 0; b < batches; b++) {
      hashers.forEach((h, k) => {
        const n = iters[k]!;
        const t0 = clock.nowNs();
        for (let i = 0; i < n; i++) h(msg, out);
        samples[k]!.push((clock.nowNs() - t0) / n);
      });
    }
    impls.forEach((impl, k) => {
      // The 10th percentile of many ~1 ms batches: on a shared machine most
      // batches lose time to another process; the low ones are those that ran
      // alone, which is the cost the dispatcher compares.
      const s = samples[k]!.sort((x, y) => x - y);
      rows.push({ size, impl, nsPerOp: Math.round(s[Math.floor(s.length / 10)]! * 10) / 10 });
    });
  }
  return rows;
}

/** Per-point median of several measurement rounds (same sizes and impls in each). */
export function medianRows(rounds: SizeMeasurement[][]): SizeMeasurement[] {
  return rounds[0]!.map((row, i) => {
    const values = rounds.map((r) => r[i]!.nsPerOp).sort((a, b) => a - b);
    return { ...row, nsPerOp: values[values.length >> 1]! };
  });
}
