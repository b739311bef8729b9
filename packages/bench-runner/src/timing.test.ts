import { describe, expect, it } from 'vitest';
import {
  MIN_SLICE_SAMPLES,
  SLOW_CALL_NS,
  compileCaseLoop,
  createCaseTimer,
  jitProbe,
  sampleLoop,
  warmCaseLoop,
} from './timing.js';

describe('compileCaseLoop and sampleLoop', () => {
  it('calls fn exactly n times per loop call, as a method of its target', () => {
    const target = {
      calls: 0,
      fn(this: { calls: number }) {
        return ++this.calls;
      },
    };
    const loop = compileCaseLoop(target);
    for (const n of [0, 1, 3, 4, 13]) {
      const before = target.calls;
      loop(n);
      expect(target.calls - before, `n = ${n}`).toBe(n);
    }
  });

  it('takes one sample per batch until the samples add up to the time asked, and at least the minimum', () => {
    let calls = 0;
    const loop = compileCaseLoop({ fn: () => ++calls });
    const none = sampleLoop(loop, 7, 0, MIN_SLICE_SAMPLES);
    expect(none).toHaveLength(MIN_SLICE_SAMPLES);
    expect(calls).toBe(7 * MIN_SLICE_SAMPLES);

    const spin = () => {
      let x = 0;
      for (let i = 0; i < 2000; i++) x = (x * 31 + i) | 0;
      return x;
    };
    const spinLoop = compileCaseLoop({ fn: spin });
    const t0 = performance.now();
    const samples = sampleLoop(spinLoop, 16, 0.05, MIN_SLICE_SAMPLES);
    const elapsedMs = performance.now() - t0;
    // Both bounds follow from the loop, not from the machine's speed: it stops
    // once its samples add up to the budget, and they are within the wall time.
    const spentMs = (samples.reduce((a, b) => a + b, 0) * 16) / 1e6;
    expect(spentMs).toBeGreaterThanOrEqual(50 - 1e-6);
    expect(spentMs).toBeLessThanOrEqual(elapsedMs);
  });

  it('propagates an error thrown by fn (the caller marks the case failed)', () => {
    let n = 0;
    const loop = compileCaseLoop({
      fn: () => {
        if (++n > 5) throw new Error('boom');
      },
    });
    expect(() => sampleLoop(loop, 4, 0.01, MIN_SLICE_SAMPLES)).toThrow('boom');
  });
});

describe('jitProbe', () => {
  it('asks V8 here, tells TurboFan code from the interpreter, and leaves natives syntax switched off for the rest of the program', () => {
    const probe = jitProbe();
    expect(probe).not.toBeNull();
    expect(() => probe!.finalize()).not.toThrow();
    const never = (x: number) => x + 1;
    expect(probe!.isTurbofanned!(never)).toBe(false);
    // The flag was on only while the finalizer was compiled: new code cannot use natives.
    expect(() => new Function('%FinalizeOptimization();')).toThrow(SyntaxError);
  });
});

describe('warmCaseLoop', () => {
  it('settles after the warm-up with V8 finalized, within its time cap, and estimates the cost per call', () => {
    let x = 1;
    const loop = compileCaseLoop({ fn: () => (x = (x * 1103515245 + 12345) | 0) });
    const warm = warmCaseLoop(loop, 0.01);
    expect(warm.jit).toBe('finalized');
    // The warm-up ends only once the loop it built runs TurboFan code.
    expect(warm.loopOptimized).toBe(true);
    expect(warm.seconds).toBeGreaterThanOrEqual(0.01);
    expect(warm.seconds).toBeLessThan(3 + 1);
    expect(warm.rounds).toBeGreaterThanOrEqual(2);
    expect(warm.nsPerOp).toBeGreaterThan(0);
  });

  it('runs a slow case at least once per round and stops at the cap', () => {
    let calls = 0;
    const slow = () => {
      calls++;
      const until = performance.now() + 2;
      while (performance.now() < until);
    };
    const warm = warmCaseLoop(compileCaseLoop({ fn: slow }), 0);
    expect(calls).toBeGreaterThanOrEqual(1 + warm.rounds);
    expect(warm.nsPerOp).toBeGreaterThanOrEqual(2e6);
  });

  it('ends the warm-up of a slow case on quiet rounds, not at the cap, though its loop is never optimised', () => {
    const slow = () => {
      const until = performance.now() + 0.5;
      while (performance.now() < until);
    };
    const warm = warmCaseLoop(compileCaseLoop({ fn: slow }), 0.01);
    // A loop called a few times per round stays in the interpreter; at 0.5 ms a call that is noise.
    expect(warm.nsPerOp).toBeGreaterThanOrEqual(SLOW_CALL_NS);
    // Three quiet rounds end it (more when a busy machine makes one 5% faster than the best before);
    // waiting for the loop's tier ran all 3 s: some 300 rounds of 8 calls.
    expect(warm.rounds).toBeGreaterThanOrEqual(3);
    expect(warm.rounds).toBeLessThan(60);
  });
});

describe('createCaseTimer', () => {
  it('warms before measuring and then calls fn batch times per sample', async () => {
    let calls = 0;
    const timer = await createCaseTimer({ fn: () => ++calls }, false, 0.01);
    const warmCalls = calls;
    expect(warmCalls).toBeGreaterThan(0);
    expect(timer.async).toBe(false);
    expect(timer.jit).toBe('finalized');
    const samples = await timer.measure(0.005, 7);
    expect(samples.length).toBeGreaterThanOrEqual(MIN_SLICE_SAMPLES);
    expect(calls - warmCalls).toBe(7 * samples.length);
    for (const s of samples) expect(s).toBeGreaterThan(0);
  });

  it('runs fixed-time loops for the time asked, counting every call', async () => {
    let calls = 0;
    const timer = await createCaseTimer({ fn: () => ++calls }, false, 0);
    const before = calls;
    const r = await timer.fixedTime(0.02);
    expect(r.ops).toBe(calls - before);
    expect(r.elapsedSeconds).toBeGreaterThanOrEqual(0.02);
    expect(r.samples.length).toBeGreaterThan(0);
  });

  it('times async cases through mitata', async () => {
    let calls = 0;
    const timer = await createCaseTimer(
      {
        fn: async () => {
          calls++;
        },
      },
      true,
      0,
    );
    expect(timer.jit).toBe('mitata');
    const samples = await timer.measure(0.01, 1);
    expect(samples.length).toBeGreaterThan(0);
    expect(calls).toBeGreaterThanOrEqual(samples.length);
  });
});
