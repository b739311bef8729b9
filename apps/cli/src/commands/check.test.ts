import { compareResults as compareWith, fixedRunNoise } from '@layerbench/bench-runner/compare';
import type { RunResult } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { samplesAround, syntheticCase, syntheticRun } from '../../test/synthetic-results.js';
import { checkExit, checkVerdict } from './check.js';

// Two runs of a machine whose cases move 0.2% between processes (a calibration's figure).
const compareResults = (a: RunResult, b: RunResult) => compareWith(a, b, { noise: fixedRunNoise(0.002, 7) });

const base = syntheticRun([syntheticCase('a', samplesAround(100, 1)), syntheticCase('b', samplesAround(200, 2))]);

describe('checkVerdict (the git bisect run answer)', () => {
  it('good when nothing regressed', () => {
    const head = syntheticRun([syntheticCase('a', samplesAround(100, 3)), syntheticCase('b', samplesAround(200, 4))]);
    expect(checkVerdict(compareResults(base, head), head)).toEqual({
      code: checkExit.good,
      reason: '2 case(s) not regressed',
    });
  });

  it('bad when a case regressed, naming it', () => {
    const head = syntheticRun([syntheticCase('a', samplesAround(150, 3)), syntheticCase('b', samplesAround(200, 4))]);
    expect(checkVerdict(compareResults(base, head), head)).toEqual({
      code: checkExit.regressed,
      reason: 'regressed: a',
    });
  });

  it('cannot tell when a digest changed, a case failed, or nothing was compared', () => {
    const digest = syntheticRun([syntheticCase('a', samplesAround(100, 3), 'beef')]);
    expect(checkVerdict(compareResults(base, digest), digest)).toEqual({
      code: checkExit.cannotTell,
      reason: 'output digest changed: a',
    });

    const { stats: _none, ...withoutStats } = syntheticCase('a', [1]);
    const failedCase = {
      ...withoutStats,
      samples: [],
      status: 'failed' as const,
      error: { name: 'Error', message: 'boom' },
    };
    const failed = syntheticRun([failedCase]);
    expect(checkVerdict(compareResults(base, failed), failed).code).toBe(checkExit.cannotTell);

    const none = syntheticRun([syntheticCase('zzz', samplesAround(100, 5))]);
    expect(checkVerdict(compareResults(base, none), none)).toEqual({
      code: checkExit.cannotTell,
      reason: 'no case was compared',
    });
  });

  it('cannot tell when a verdict is inconclusive', () => {
    // Ten samples spread over a factor of two: the interval straddles the threshold.
    const wide = (seed: number) => samplesAround(100, seed, 10).map((value, i) => value * (1 + (i % 2)));
    const noisyBase = syntheticRun([syntheticCase('a', wide(1))]);
    const noisyHead = syntheticRun([
      syntheticCase(
        'a',
        wide(2).map((value) => value * 1.05),
      ),
    ]);
    const comparison = compareResults(noisyBase, noisyHead);
    expect(comparison.cases[0]!.verdict).toBe('inconclusive');
    expect(checkVerdict(comparison, noisyHead)).toEqual({ code: checkExit.cannotTell, reason: 'inconclusive: a' });
  });

  it('good when an inconclusive interval rules out a slowdown beyond the threshold (it may only have got faster)', () => {
    const head = syntheticRun([syntheticCase('a', samplesAround(100, 3)), syntheticCase('b', samplesAround(200, 4))]);
    const comparison = compareResults(base, head);
    const t = comparison.threshold;
    const widened = (high: number) => ({
      ...comparison,
      cases: comparison.cases.map((c) =>
        c.id === 'a'
          ? { ...c, ratio: 0.985, ratioCi: [1 - 2 * t, high] as [number, number], verdict: 'inconclusive' as const }
          : c,
      ),
    });
    expect(checkVerdict(widened(1 + t / 2), head)).toEqual({
      code: checkExit.good,
      reason: `2 case(s) not regressed (1 inconclusive, but their intervals rule out a slowdown beyond the threshold: a x0.985 [${(1 - 2 * t).toFixed(3)}, ${(1 + t / 2).toFixed(3)}])`,
    });
    // Its interval reaching beyond 1 + threshold: a slowdown is still possible, so cannot tell.
    expect(checkVerdict(widened(1 + 2 * t), head)).toEqual({ code: checkExit.cannotTell, reason: 'inconclusive: a' });
  });
});
