// The timed loops. Each synchronous case gets a loop of its own
// (compileCaseLoop), warmed until V8's compilers have settled
// (warmCaseLoop), then timed in batches sized so one sample lasts about
// budget/1000 (enough samples for the statistics, few enough for a result
// file); asynchronous cases go through mitata's measure(); fixed-time cases
// (the esptest shape) count calls for N seconds and keep per-chunk samples.
import { performance } from 'node:perf_hooks';
import { getHeapCodeStatistics, setFlagsFromString } from 'node:v8';
import { do_not_optimize, measure } from 'mitata';

/** One operation; may return a promise, which is then awaited. */
export type TimedCall = () => unknown;
/** Any function (what V8's optimisation natives take). */
type AnyFunction = (...args: never[]) => unknown;

const nsPerMs = 1e6;

export function nowNs(): number {
  return performance.now() * nsPerMs;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
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

/** Calls the case's `fn` `n` times, keeping every result alive. */
export type CaseLoop = (n: number) => void;

/** What `fn` is called on: the object setup() returned (fn is called as its method). */
export interface LoopTarget {
  fn(): unknown;
}

// Gives each compiled loop a different source text: V8 caches compiled code by
// source, and loops with the same text would share one function's type
// feedback and optimised code (a loop timing table AES would also have seen
// every other case's call target, and not inline it).
let loopSerial = 0;

/**
 * The timed loop of one case: its own function, compiled from its own source
 * text, whose only call site calls this case's `fn` — the shape of a user's
 * `for (...) cipher.encryptBlock(src, dst)`, one call per iteration and no
 * wrapper shared with other cases. It is called once per sample with the batch
 * size, so V8 optimises it as an ordinary, often-called function instead of
 * timing on-stack-replacement code compiled in the middle of its first call.
 */
export function compileCaseLoop(target: LoopTarget): CaseLoop {
  loopSerial++;
  const source = `// bench-runner case loop #${loopSerial}
    return function caseLoop(n) {
      for (let i = 0; i < n; i++) keep(target.fn());
    };`;
  const make = new Function('target', 'keep', source) as (t: LoopTarget, keep: (v: unknown) => void) => CaseLoop;
  return make(target, do_not_optimize);
}

/**
 * Samples of `loop`: ns per call, one per batch of `batch` calls, in time
 * order, until they add up to `seconds` and there are at least `minSamples`.
 * This driver is shared by every case; its one call (to the case's loop) is
 * not inlined, so each case's loop keeps its own optimised code.
 */
export function sampleLoop(loop: CaseLoop, batch: number, seconds: number, minSamples: number): number[] {
  const budgetNs = seconds * 1e9;
  const samples: number[] = [];
  let spent = 0;
  while (samples.length < minSamples || spent < budgetNs) {
    const t0 = nowNs();
    loop(batch);
    const dt = nowNs() - t0;
    spent += dt;
    samples.push(dt / batch);
  }
  return samples;
}

/** What the engine asks V8 about its own compilers (see jitProbe). */
export interface JitProbe {
  /** V8's %FinalizeOptimization(): waits for the background compiler to finish what is queued and installs it. */
  finalize(): void;
  /** Whether `fn` runs TurboFan code now (%GetOptimizationStatus); undefined when the status bits could not be verified. */
  isTurbofanned?: (fn: AnyFunction) => boolean;
}

let probe: JitProbe | null | undefined;

function nativesSyntaxAlreadyOn(): boolean {
  const args = [...process.execArgv, process.env.NODE_OPTIONS ?? ''];
  return args.some((a) => /allow[-_]natives[-_]syntax/.test(a));
}

/**
 * The TurboFan bit of %GetOptimizationStatus, found on this V8 rather than
 * assumed (1 << 5 on V8 9, 1 << 6 from V8 10 on, where Maglev took 1 << 5):
 * a probe function is optimised with %OptimizeFunctionOnNextCall and the
 * higher of the two bits it then has is the one. undefined if neither.
 */
function turbofanBit(
  status: (f: AnyFunction) => number,
  prepare: (f: AnyFunction) => void,
  optimizeNext: (f: AnyFunction) => void,
): number | undefined {
  const sample = function turbofanProbe(x: number): number {
    return (x * 3 + 1) | 0;
  };
  const fresh = status(sample);
  prepare(sample);
  sample(1);
  sample(2);
  optimizeNext(sample);
  sample(3);
  const optimized = status(sample);
  for (const bit of [1 << 6, 1 << 5]) {
    if ((optimized & bit) !== 0 && (fresh & bit) === 0) return bit;
  }
  return undefined;
}

/**
 * V8's own answers about its compilers, through runtime functions that V8
 * offers to its tests: %FinalizeOptimization() and %GetOptimizationStatus().
 * The flag that allows them is switched on only while these few functions are
 * compiled, then off again (unless the process was started with it), so the
 * rest of the program is parsed as before; they change nothing V8 compiles.
 * null when the runtime does not offer them (not V8, or flags cannot be
 * changed at run time): the warm-up then goes by time and speed alone.
 */
export function jitProbe(): JitProbe | null {
  if (probe !== undefined) return probe;
  probe = null;
  const alreadyOn = nativesSyntaxAlreadyOn();
  try {
    if (!alreadyOn) setFlagsFromString('--allow-natives-syntax');
    const finalize = new Function('%FinalizeOptimization();') as () => void;
    finalize();
    probe = { finalize };
    try {
      const status = new Function('f', 'return %GetOptimizationStatus(f);') as (f: AnyFunction) => number;
      const prepare = new Function('f', '%PrepareFunctionForOptimization(f);') as (f: AnyFunction) => void;
      const optimizeNext = new Function('f', '%OptimizeFunctionOnNextCall(f);') as (f: AnyFunction) => void;
      const bit = turbofanBit(status, prepare, optimizeNext);
      if (bit !== undefined) probe.isTurbofanned = (fn) => (status(fn) & bit) !== 0;
    } catch {
      // The status is an extra condition; the finalizer alone still works.
    }
  } catch {
    probe = null;
  } finally {
    if (!alreadyOn) {
      try {
        setFlagsFromString('--no-allow-natives-syntax');
      } catch {
        // Nothing was switched on if this fails too.
      }
    }
  }
  return probe;
}

/** Waits for pending background optimisations and installs them (no-op without a probe). */
export function settleCompilers(): void {
  jitProbe()?.finalize();
}

/** Warm-up batches last at least this long: long enough to time, short enough to miss most preemptions. */
const WARM_CHUNK_NS = 100_000;
/** A warm-up round counts at least this many such batches (unless it has run four times its length). */
const MIN_ROUND_CHUNKS = 8;

/**
 * Runs `loop` for about `seconds`, doubling the batch until one lasts at
 * least 0.1 ms, and until at least MIN_ROUND_CHUNKS batches lasted that long;
 * returns the lowest ns per call of those batches (or of the last batch: a
 * slow case may not finish one) and the batch size reached. The lowest, not
 * the median: a busy machine only ever adds time (a batch that was preempted
 * reads 10-100x slow), so the fastest batch is what the code can do now.
 */
function warmFor(loop: CaseLoop, seconds: number, startChunk: number): { nsPerOp: number; chunk: number } {
  const budget = seconds * 1e9;
  const start = nowNs();
  let chunk = startChunk;
  let fastest = Infinity;
  let counted = 0;
  let last = 0;
  let elapsed = 0;
  do {
    const t0 = nowNs();
    loop(chunk);
    const dt = nowNs() - t0;
    last = dt / chunk;
    if (dt < WARM_CHUNK_NS) chunk *= 2;
    else {
      counted++;
      if (last < fastest) fastest = last;
    }
    elapsed = nowNs() - start;
  } while (elapsed < budget || (counted < MIN_ROUND_CHUNKS && elapsed < 4 * budget));
  return { nsPerOp: Number.isFinite(fastest) ? fastest : last, chunk };
}

/** Settling stops after this many quiet rounds in a row, or when MAX_SETTLE_SECONDS have passed. */
const QUIET_ROUNDS = 3;
const MAX_SETTLE_SECONDS = 3;
/**
 * A round whose cost per call fell below this fraction of the best earlier
 * round is not quiet. What settling waits for (interpreter -> optimised code,
 * one tier to the next, a late inlining) moves the cost by far more; noise on
 * a shared machine moves a 5 ms round by a few percent either way.
 */
const SETTLED_IMPROVEMENT = 0.95;
/** The finalizer returns in microseconds when nothing is compiling; longer means it waited for a compile. */
const FINALIZE_WAITED_NS = 200_000;
/** From this cost per call on, settling looks at time only (see warmCaseLoop). */
export const SLOW_CALL_NS = 100_000;

function codeSize(): number {
  return getHeapCodeStatistics().code_and_metadata_size;
}

export interface WarmedLoop {
  /** ns per call once warm (the fastest batch of the last settling round). */
  nsPerOp: number;
  /** 'finalized': measured after V8's background compiles were waited for; 'time': warmed by time only. */
  jit: 'finalized' | 'time';
  /** Whether the case's loop ran TurboFan code when the warm-up ended (undefined: V8 could not be asked). */
  loopOptimized?: boolean | undefined;
  /** Seconds spent warming and settling. */
  seconds: number;
  /** Settling rounds run after the first warm-up. */
  rounds: number;
}

/**
 * Warms a case loop until V8 has finished optimising what it runs. A fixed
 * warm-up is not enough. V8 decides to optimise a function after it has run
 * a certain amount of bytecode (more for a larger function, and the
 * interpreter runs a large generated function such as table AES's unrolled
 * rounds 100x slower than its optimised code), and then compiles it on a
 * background thread, which on a busy machine or an older V8 takes hundreds of
 * milliseconds (Node 18 under load: 120-409 ms for cmac's one-shot path, after
 * some 200 ms in the interpreter). A measurement that starts before that
 * times the interpreter: 10-20x slower, and different in every process.
 *
 * So after `seconds` of warm-up (at least 10 ms) the loop runs in rounds;
 * before each round the engine waits for the background compiler to finish
 * and install what the previous round queued (jitProbe). A round is quiet
 * when that wait found nothing compiling, no code was added or removed since
 * the last check (v8.getHeapCodeStatistics), the case's own loop already runs
 * TurboFan code, and its cost per call did not fall 5% below the best earlier
 * round; three quiet rounds in a row end the warm-up (at most
 * MAX_SETTLE_SECONDS). The loop's own tier matters on Node 22/24: there a
 * large callee stayed in the interpreter for three rounds without any compile
 * or code change (V8 tiers up by invocations), and only the loop's status
 * told that V8 had not got there yet. Each round is a quarter
 * of the first warm-up, at least 5 ms and 8 batches of 0.1 ms (warmFor).
 * A call of SLOW_CALL_NS or more is judged by its time alone (no compile
 * waited for, no 5% improvement): at that cost the loop's own tier is noise
 * (a loop called a few times per round stays in the interpreter for good,
 * and reading that as "not settled" kept sha1's 1 MiB cases warming for the
 * full 3 s in every bisect worker), V8 tiers such a callee up within its
 * first call (its inner loops alone exhaust any budget), and code added
 * anywhere else (code size moved every second round there) shows in the
 * call's time if it matters to it.
 * Waiting only at round boundaries matters: a compile V8 starts in the middle
 * of a round (Node 18 marked cmac() itself 200 ms in, after its callees)
 * is waited for before the next round, which then cannot be quiet.
 */
export function warmCaseLoop(loop: CaseLoop, seconds: number): WarmedLoop {
  const jit = jitProbe();
  const started = nowNs();
  const first = Math.max(0.01, seconds);
  const roundSeconds = Math.max(0.005, first / 4);
  let { nsPerOp, chunk } = warmFor(loop, first, 1);
  let best = nsPerOp;
  let code = codeSize();
  let quiet = 0;
  let rounds = 0;
  while (quiet < QUIET_ROUNDS && nowNs() - started < MAX_SETTLE_SECONDS * 1e9) {
    // Wait for what the previous round queued (a compile started while it ran
    // counts against that round), then run this one.
    const t0 = nowNs();
    jit?.finalize();
    const waited = nowNs() - t0 > FINALIZE_WAITED_NS;
    const codeNow = codeSize();
    const slow = nsPerOp >= SLOW_CALL_NS;
    const changed = !slow && codeNow !== code;
    code = codeNow;
    const interpreted = !slow && jit?.isTurbofanned?.(loop) === false;
    const next = warmFor(loop, roundSeconds, chunk);
    const improved = next.nsPerOp < best * SETTLED_IMPROVEMENT;
    best = Math.min(best, next.nsPerOp);
    quiet = waited || changed || interpreted || improved ? 0 : quiet + 1;
    nsPerOp = next.nsPerOp;
    chunk = next.chunk;
    rounds++;
  }
  jit?.finalize();
  return {
    nsPerOp: Math.max(nsPerOp, 0.01),
    jit: jit ? 'finalized' : 'time',
    loopOptimized: jit?.isTurbofanned?.(loop),
    seconds: (nowNs() - started) / 1e9,
    rounds,
  };
}

/** One case's timing: its loop compiled, warmed and settled once, then reused for every slice. */
export interface CaseTimer {
  /** ns per call estimated at the end of the warm-up (sizes the batches). */
  readonly nsPerOp: number;
  readonly async: boolean;
  readonly jit: WarmedLoop['jit'] | 'mitata';
  /** Samples (ns per call, one per batch of `batch` calls, in time order) for about `seconds`, at least MIN_SLICE_SAMPLES. */
  measure(seconds: number, batch: number): Promise<number[]>;
  /** The fixed-time shape (esptest): calls for `seconds`, reading the clock about every millisecond. */
  fixedTime(seconds: number): Promise<FixedTimeLoopResult>;
  /**
   * Warms and settles again (warmCaseLoop): for when other cases ran in the
   * same process since, and may have made V8 drop code this case runs (a
   * library function shared by several cases, re-optimised for all of them).
   */
  rewarm(): void;
}

/**
 * The timer of one case. Synchronous cases get their own loop
 * (compileCaseLoop), warmed until V8 has settled (warmCaseLoop); before each
 * slice the engine again waits for any optimisation queued meanwhile (by this
 * case or by the other cases of an interleaved run), so a compile never lands
 * in the middle of a slice. Asynchronous cases (rare, never sub-microsecond)
 * are timed by mitata's measure().
 */
export async function createCaseTimer(target: LoopTarget, async: boolean, warmSeconds: number): Promise<CaseTimer> {
  if (async) {
    const call = (): unknown => target.fn();
    const warm = await warmUp(call, warmSeconds);
    return {
      nsPerOp: warm.nsPerOp,
      async: true,
      jit: 'mitata',
      measure: (seconds, batch) => measureSamples(call, seconds, batch),
      rewarm: () => undefined,
      fixedTime: (seconds) =>
        fixedTimeLoop(
          async (n) => {
            for (let i = 0; i < n; i++) await call();
          },
          seconds,
          Math.max(1, Math.floor(1e6 / warm.nsPerOp)),
        ),
    };
  }
  const loop = compileCaseLoop(target);
  const warm = warmCaseLoop(loop, warmSeconds);
  return {
    nsPerOp: warm.nsPerOp,
    async: false,
    jit: warm.jit,
    measure: async (seconds, batch) => {
      settleCompilers();
      return sampleLoop(loop, batch, seconds, MIN_SLICE_SAMPLES);
    },
    fixedTime: async (seconds) => {
      settleCompilers();
      return fixedTimeLoop(loop, seconds, Math.max(1, Math.floor(1e6 / warm.nsPerOp)));
    },
    rewarm: () => {
      warmCaseLoop(loop, warmSeconds);
    },
  };
}

export interface FixedTimeLoopResult {
  ops: number;
  elapsedSeconds: number;
  /** ns per operation of each chunk between clock checks. */
  samples: number[];
}

/**
 * Runs `chunk` calls at a time (`runChunk(chunk)`) until `seconds` have
 * passed, reading the clock between chunks (chunk sized to ~1 ms so the clock
 * costs nothing and the loop overshoots the deadline by at most about a
 * millisecond). A synchronous case passes its own loop; an asynchronous one a
 * chunk that awaits each call.
 */
export async function fixedTimeLoop(
  runChunk: (n: number) => void | Promise<void>,
  seconds: number,
  chunk: number,
): Promise<FixedTimeLoopResult> {
  const deadline = seconds * 1e9;
  const samples: number[] = [];
  let ops = 0;
  const start = nowNs();
  let last = start;
  for (;;) {
    const pending = runChunk(chunk);
    if (pending) await pending;
    const t = nowNs();
    ops += chunk;
    samples.push((t - last) / chunk);
    last = t;
    if (t - start >= deadline) break;
  }
  return { ops, elapsedSeconds: (last - start) / 1e9, samples };
}
