import { describe, expect, it } from 'vitest';
import { runInterleaved } from './interleaved.js';
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
    const result = await runInterleaved([loopCase('a', 50), loopCase('b', 50), loopCase('c', 500)], {
      timePerCase: 0.03,
      rounds: 3,
    });
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
