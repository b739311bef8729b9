// The timed loops. Ordinary cases go through mitata's measure() with a batch
// size chosen so one sample lasts about budget/1000 (enough samples for the
// statistics, few enough for a result file); fixed-time cases (the esptest
// shape) count operations for N seconds and keep per-chunk samples as well.
import { performance } from 'node:perf_hooks';
import { do_not_optimize, measure } from 'mitata';

/** One operation; may return a promise, which is then awaited. */
export type TimedCall = () => unknown;

const nsPerMs = 1e6;

export function nowNs(): number {
  return performance.now() * nsPerMs;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The forced-GC function when the runtime exposes one (node --expose-gc). */
export function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}

export interface WarmupResult {
  /** Estimated ns per operation from the last warm-up chunk. */
  nsPerOp: number;
  async: boolean;
}

/**
 * Runs `call` for about `seconds`, doubling the chunk size until a chunk
 * lasts at least a millisecond, so the JIT has settled and the cost per
 * operation is known before measuring.
 */
export async function warmUp(call: TimedCall, seconds: number): Promise<WarmupResult> {
  const budget = seconds * 1e9;
  const start = nowNs();
  const first = call();
  const async = isThenable(first);
  if (async) await first;
  let estimate = nowNs() - start;
  let chunk = 1;
  while (nowNs() - start < budget) {
    const t0 = nowNs();
    if (async) for (let i = 0; i < chunk; i++) await call();
    else for (let i = 0; i < chunk; i++) do_not_optimize(call());
    const dt = nowNs() - t0;
    estimate = dt / chunk;
    if (dt < nsPerMs) chunk *= 2;
  }
  return { nsPerOp: Math.max(estimate, 0.01), async };
}

/** Operations per sample so that one sample lasts about `targetNs`; 1 means no batching. */
export function batchSize(nsPerOp: number, targetNs: number): number {
  const raw = Math.floor(targetNs / nsPerOp);
  if (raw <= 1) return 1;
  if (raw < 8) return raw;
  return raw - (raw % 4); // whole unrolled groups of 4 for mitata
}

/** Target duration of one sample for a time budget: ~1000 samples, 50 µs..10 ms each. */
export function sampleTargetNs(budgetSeconds: number): number {
  return Math.min(10 * nsPerMs, Math.max(50_000, (budgetSeconds * 1e9) / 1000));
}

/**
 * Samples (ns per operation, one per batch) from mitata's measure() for a
 * budget of `seconds` of timed work. mitata sorts the samples and drops the
 * two smallest and two largest when it has more than 12.
 */
export async function measureSamples(call: TimedCall, seconds: number, batch: number): Promise<number[]> {
  const timed = (): unknown => {
    const r = call();
    do_not_optimize(r);
    return r;
  };
  const batching = batch > 1;
  const stats = await measure(timed, {
    gc: exposedGc() ?? false,
    min_cpu_time: seconds * 1e9,
    min_samples: 12,
    max_samples: 1e7,
    warmup_samples: 1,
    warmup_threshold: Number.MAX_SAFE_INTEGER,
    batch_threshold: batching ? Number.MAX_SAFE_INTEGER : -1,
    batch_samples: batching ? batch : 1,
    batch_unroll: batching && batch % 4 === 0 ? 4 : 1,
  });
  return stats.samples;
}

export interface FixedTimeLoopResult {
  ops: number;
  elapsedSeconds: number;
  /** ns per operation of each chunk between clock checks. */
  samples: number[];
}

/**
 * Runs `call` until `seconds` have passed, reading the clock every `chunk`
 * operations (chunk sized to ~1 ms so the clock costs nothing and the loop
 * overshoots the deadline by at most about a millisecond).
 */
export async function fixedTimeLoop(call: TimedCall, seconds: number, chunk: number, async: boolean): Promise<FixedTimeLoopResult> {
  const deadline = seconds * 1e9;
  const samples: number[] = [];
  let ops = 0;
  const start = nowNs();
  let last = start;
  for (;;) {
    if (async) for (let i = 0; i < chunk; i++) await call();
    else for (let i = 0; i < chunk; i++) do_not_optimize(call());
    const t = nowNs();
    ops += chunk;
    samples.push((t - last) / chunk);
    last = t;
    if (t - start >= deadline) break;
  }
  return { ops, elapsedSeconds: (last - start) / 1e9, samples };
}
