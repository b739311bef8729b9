// The timed loops. Ordinary cases run in one warm loop compiled per case
// (createSliceTimer) with a batch size chosen so one sample lasts about
// budget/1000 (enough samples for the statistics, few enough for a result
// file); asynchronous ones through mitata's measure(); fixed-time cases (the
// esptest shape) count operations for N seconds and keep per-chunk samples.
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
  return raw - (raw % 4); // whole unrolled groups of 4
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

/** At least this many samples per slice, so each slice has a stable median. */
export const MIN_SLICE_SAMPLES = 12;

/** One case's timing loop: compiled once, warmed, then reused for every slice of the case. */
export interface SliceTimer {
  /** Samples (ns per call, one per batch, in time order) for about `seconds`, at least MIN_SLICE_SAMPLES. */
  measure(seconds: number): Promise<number[]>;
}

type SyncSliceLoop = (budgetNs: number, minSamples: number) => Float64Array;

// Gives each compiled loop a different source text: V8 caches compiled code by
// source, and loops with the same text would share one function's type
// feedback (so a loop timing table AES would also have seen every other
// case's call target, and not inline it).
let loopSerial = 0;

function compileSyncLoop(call: TimedCall, batch: number): SyncSliceLoop {
  const quads = batch >>> 2;
  const rest = batch & 3;
  loopSerial++;
  const source = `// bench-runner slice loop #${loopSerial}
    return function sliceLoop(budgetNs, minSamples) {
      let samples = new Float64Array(64);
      let n = 0;
      let spent = 0;
      while (n < minSamples || spent < budgetNs) {
        const t0 = now();
        for (let i = 0; i < ${quads}; i++) { keep(call()); keep(call()); keep(call()); keep(call()); }
        for (let i = 0; i < ${rest}; i++) keep(call());
        const dt = now() - t0;
        spent += dt;
        if (n === samples.length) {
          const grown = new Float64Array(2 * n);
          grown.set(samples);
          samples = grown;
        }
        samples[n++] = dt / ${batch};
      }
      return samples.subarray(0, n);
    };`;
  const make = new Function('call', 'keep', 'now', source) as (
    c: TimedCall, keep: (v: unknown) => void, now: () => number,
  ) => SyncSliceLoop;
  return make(call, do_not_optimize, nowNs);
}

/**
 * The timer of one case. Sliced measurement needs the same optimized loop in
 * every slice: mitata's measure() compiles a new loop on every call, and a
 * fresh loop runs unoptimized until V8's on-stack replacement, 7-10 ms here,
 * half of a 20 ms interleaved slice (one AES block measured 80-86 ns in 20 ms
 * mitata slices against 72 ns in a warm loop: a bias that also compressed
 * every ratio toward 1). So synchronous cases get one loop of their own,
 * compiled here and run for `warmSeconds` (at least 10 ms) before any sample
 * counts. Asynchronous cases (rare, never sub-microsecond) keep mitata's
 * measure().
 */
export function createSliceTimer(call: TimedCall, batch: number, async: boolean, warmSeconds: number): SliceTimer {
  if (async) return { measure: (seconds) => measureSamples(call, seconds, batch) };
  const loop = compileSyncLoop(call, batch);
  // At least 10 ms (on-stack replacement takes 7-10 ms here); one sample suffices for slow cases.
  loop(Math.max(0.01, warmSeconds) * 1e9, 1);
  return { measure: async (seconds) => Array.from(loop(seconds * 1e9, MIN_SLICE_SAMPLES)) };
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
