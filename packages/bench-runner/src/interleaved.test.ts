import { describe, expect, it } from 'vitest';
import { compareRounds, runInterleaved } from './interleaved.js';
import type { BenchCase } from './types.js';

function loopCase(id: string, iterations: number, extra: Partial<BenchCase> = {}): BenchCase {
  return {
    id,
    layer: 'test',
    params: { iterations },
    setup() {
      let x = 1;
      return {
        fn: () => {
          for (let i = 0; i < iterations; i++) x = (x * 31 + i) | 0;
          return x;
        },
        digest: () => 'same',
      };
    },
    ...extra,
  };
}

describe('runInterleaved', () => {
  it('pools samples from every round and gives a ratio of each variant to the first', async () => {
    const result = await runInterleaved([loopCase('a', 50), loopCase('b', 50), loopCase('c', 500)], { timePerCase: 0.03, rounds: 3 });
    expect(result.rounds).toBe(3);
    expect(result.cases.map((c) => c.status)).toEqual(['ok', 'ok', 'ok']);
    // Every slice keeps at least MIN_SLICE_SAMPLES (12) samples, so 3 rounds give >= 36.
    for (const c of result.cases) expect(c.samples.length).toBeGreaterThanOrEqual(36);
    expect(result.ratios.map((r) => r.id)).toEqual(['b', 'c']);
    for (const r of result.ratios) {
      expect(r.ci[0]).toBeLessThanOrEqual(r.ratio);
      expect(r.ci[1]).toBeGreaterThanOrEqual(r.ratio);
    }
  });
  it('isolates a failing variant and leaves it out of the ratios', async () => {
    const result = await runInterleaved(
      [loopCase('a', 10), loopCase('bad', 10, { expectedDigest: 'other' }), loopCase('c', 10)],
      { timePerCase: 0.02, rounds: 2 },
    );
    expect(result.cases[1]!.status).toBe('failed');
    expect(result.cases[1]!.error!.name).toBe('DigestMismatchError');
    expect(result.ratios.map((r) => r.id)).toEqual(['c']);
  });
  it('rejects bad options', async () => {
    await expect(runInterleaved([loopCase('a', 1)], { rounds: 0 })).rejects.toThrow(RangeError);
    await expect(runInterleaved([], {})).rejects.toThrow(RangeError);
  });
});

describe('compareRounds', () => {
  it('uses the paired per-round ratios: shared drift cancels', () => {
    const drift = [1, 1.3, 0.8, 1.1, 0.9, 1.25, 1, 0.85, 1.2, 1.05, 0.95, 1.15];
    const base = drift.map((d, i) => 100 * d * (1 + ((i % 3) - 1) * 0.001));
    const head = drift.map((d, i) => 105 * d * (1 + ((i % 4) - 1.5) * 0.001));
    const r = compareRounds(base, head, { threshold: 0.02, alpha: 0.01 });
    expect(r.ratio).toBeGreaterThan(1.045);
    expect(r.ratio).toBeLessThan(1.055);
    expect(r.ratioCi[0]).toBeGreaterThan(1.04);
    expect(r.ratioCi[1]).toBeLessThan(1.06);
    // All 12 log ratios positive and distinct: W+ = 78, mean 39, variance 162.5,
    // z = (78 - 39 - 0.5) / sqrt(162.5) = 3.0202, two-sided p = 0.002526.
    expect(r.pValue).toBeCloseTo(0.002526, 5);
    expect(r.verdict).toBe('regressed');
  });
  it('A/A with identical rounds is unchanged', () => {
    const rounds = [100, 101, 99, 100, 102, 98];
    const r = compareRounds(rounds, rounds);
    expect(r.ratio).toBe(1);
    expect(r.pValue).toBe(1);
    expect(r.verdict).toBe('unchanged');
  });
  it('rejects unpaired input', () => {
    expect(() => compareRounds([1, 2], [1])).toThrow(RangeError);
    expect(() => compareRounds([0], [1])).toThrow(/no round/);
  });
});
