// Separate processes: each visit is taken relative to its round's state
// (relativeToRounds), because this VM's CPU sits in a slow state for a few
// seconds at a time and a few neighbouring rounds can be slow for every
// variant at once. The figures below are the shape of the visits measured on
// 2026-12-06 (BISECT.md, "Separate processes"): node:crypto CMAC at about
// 4.7 µs under Node 16 and 6.1 µs under Node 20 a visit, rounds 7-10 about
// x1.75 slower for every variant, and the slow state starting inside round 11
// for some processes only.
import { describe, expect, it } from 'vitest';
import { processModel } from '@layerbench/bench-runner/stats';
import { relativeToRounds } from '../src/bisect/run.ts';

const ROUNDS = 12;
/** Deterministic visit-to-visit jitter of about ±1%. */
const jitter = (variant: number, process: number, round: number) =>
  1 + 0.01 * Math.sin(1.7 * variant + 2.3 * process + 0.9 * round);

/** `processes` processes of a variant at `level` ns; `slow(process, round)` says which visits the slow state took. */
function variant(
  index: number,
  level: number,
  slow: (process: number, round: number) => boolean,
  processes = 3,
): number[][] {
  return Array.from({ length: processes }, (_, p) =>
    Array.from({ length: ROUNDS }, (_, r) => level * jitter(index, p, r) * (slow(p, r) ? 1.75 : 1)),
  );
}

const slowRounds = (p: number, r: number) => (r >= 6 && r <= 9) || (r >= 10 && p === 2);

describe('relativeToRounds', () => {
  it('takes out a slow state that several rounds share over every variant: the comparison then sees the code', () => {
    const raw = {
      good: variant(0, 4700, slowRounds),
      bad: variant(1, 6100, slowRounds),
      control: variant(2, 4700, slowRounds),
    };
    const rule = { threshold: 0.03, alpha: 0.01 };
    const before = processModel(raw, rule);
    const after = processModel(relativeToRounds(raw), rule);
    // The median of raw visits lands in the slow state for the processes slow for 6 of 12 rounds.
    expect(before.sd).toBeGreaterThan(0.1);
    expect(before.compare('good', 'bad')!.verdict).toBe('inconclusive');
    expect(after.sd).toBeLessThan(0.02);
    const total = after.compare('good', 'bad')!;
    expect(total.verdict).toBe('regressed');
    expect(total.ratio).toBeGreaterThan(1.27);
    expect(total.ratio).toBeLessThan(1.33);
    expect(after.compare('good', 'control')!.verdict).not.toBe('regressed');
    expect(after.compare('good', 'control')!.verdict).not.toBe('improved');
  });

  it('a state common to a whole round changes nothing but the level of the run: every value moves by one factor', () => {
    const calm = { good: variant(0, 100, () => false), bad: variant(1, 130, () => false) };
    const stormy = {
      good: calm.good.map((visits) => visits.map((x, r) => x * (r % 3 === 0 ? 1.6 : 1))),
      bad: calm.bad.map((visits) => visits.map((x, r) => x * (r % 3 === 0 ? 1.6 : 1))),
    };
    const a = relativeToRounds(calm);
    const b = relativeToRounds(stormy);
    // 4 of 12 rounds at x1.6: the run's level is 1.6^(4/12) higher, and nothing else differs.
    const level = 1.6 ** (4 / 12);
    const factors = (['good', 'bad'] as const).flatMap((v) =>
      b[v]!.flatMap((visits, p) => visits.map((x, r) => x / a[v]![p]![r]!)),
    );
    expect(factors).toHaveLength(2 * 3 * ROUNDS);
    for (const factor of factors) expect(factor).toBeCloseTo(level, 10);
  });

  it('keeps the run at its own level: each variant keeps its geometric mean over every visit', () => {
    const raw = { good: variant(0, 4700, slowRounds), bad: variant(1, 6100, slowRounds) };
    const out = relativeToRounds(raw);
    const gm = (xs: number[][]) => Math.exp(xs.flat().reduce((s, x) => s + Math.log(x), 0) / xs.flat().length);
    // Every variant carries the same state in every round, so its mean moves by the same factor: the ratio is kept.
    expect(gm(out.bad!) / gm(out.good!)).toBeCloseTo(gm(raw.bad) / gm(raw.good), 10);
    // And the figures stay between the fast and the slow state (the run's average state), not rescaled to 1.
    expect(gm(out.good!)).toBeGreaterThan(4700);
    expect(gm(out.good!)).toBeLessThan(4700 * 1.75);
  });

  it('leaves out a round that did not visit every variant (an interrupted bisect) and keeps NaN (a visit without samples)', () => {
    const raw = {
      good: [
        [100, 101, Number.NaN, 99],
        [102, 100, 101, 100],
      ],
      // The bisect stopped in round 4, before visiting this variant.
      bad: [
        [130, 131, 129],
        [131, 130, 130],
      ],
    };
    const out = relativeToRounds(raw);
    expect(out.good!.map((visits) => visits.length)).toEqual([3, 3]);
    expect(out.bad!.map((visits) => visits.length)).toEqual([3, 3]);
    expect(Number.isNaN(out.good![0]![2]!)).toBe(true);
    expect(out.good![1]![2]!).toBeGreaterThan(0);
    expect(relativeToRounds({})).toEqual({});
  });

  it('keeps the values as measured when no round visited every variant (interrupted in the first round)', () => {
    // Stopped in round 1 after the good variant's two processes and one of the bad variant's.
    const raw = { good: [[100], [102]], bad: [[130], []] };
    const out = relativeToRounds(raw);
    expect(out).toEqual(raw);
    expect(out.good).not.toBe(raw.good);
  });
});
