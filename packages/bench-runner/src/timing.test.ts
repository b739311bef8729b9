import { describe, expect, it } from 'vitest';
import { MIN_SLICE_SAMPLES, createSliceTimer } from './timing.js';

describe('createSliceTimer', () => {
  it('calls fn batch times per sample and warms (whole batches) before measuring', async () => {
    let calls = 0;
    const timer = createSliceTimer(() => ++calls, 7, false, 0.01);
    const warmCalls = calls;
    // The warm-up ran whole batches for at least 10 ms before any measurement.
    expect(warmCalls).toBeGreaterThanOrEqual(7);
    expect(warmCalls % 7).toBe(0);
    const samples = await timer.measure(0.005);
    expect(samples.length).toBeGreaterThanOrEqual(MIN_SLICE_SAMPLES);
    expect(calls - warmCalls).toBe(7 * samples.length);
    for (const s of samples) expect(s).toBeGreaterThan(0);
  });

  it('runs every batch size exactly, including the unrolled groups of four and the remainder', async () => {
    for (const batch of [1, 3, 4, 5, 8, 13]) {
      let calls = 0;
      const timer = createSliceTimer(() => { calls++; }, batch, false, 0);
      const before = calls;
      const samples = await timer.measure(0);
      expect(calls - before, `batch ${batch}`).toBe(batch * samples.length);
      expect(samples.length).toBe(MIN_SLICE_SAMPLES);
    }
  });

  it('measures for about the time asked, in samples of one batch', async () => {
    const spin = () => {
      let x = 0;
      for (let i = 0; i < 2000; i++) x = (x * 31 + i) | 0;
      return x;
    };
    const timer = createSliceTimer(spin, 16, false, 0.01);
    const t0 = performance.now();
    const samples = await timer.measure(0.05);
    const elapsedMs = performance.now() - t0;
    expect(elapsedMs).toBeGreaterThanOrEqual(50);
    const perSampleNs = samples.reduce((a, b) => a + b, 0) * 16 / samples.length;
    // Both bounds follow from the loop, not from the machine's speed: it stops
    // once its samples add up to the budget, and they are within the wall time.
    expect((perSampleNs * samples.length) / 1e6).toBeGreaterThanOrEqual(50 - 1e-6);
    expect((perSampleNs * samples.length) / 1e6).toBeLessThanOrEqual(elapsedMs);
  });

  it('propagates an error thrown by fn (the caller marks the case failed)', () => {
    let n = 0;
    expect(() => createSliceTimer(() => { if (++n > 5) throw new Error('boom'); }, 4, false, 0.01)).toThrow('boom');
  });

  it('times async cases through mitata', async () => {
    let calls = 0;
    const timer = createSliceTimer(async () => { calls++; }, 1, true, 0);
    const samples = await timer.measure(0.01);
    expect(samples.length).toBeGreaterThan(0);
    expect(calls).toBeGreaterThanOrEqual(samples.length);
  });
});
