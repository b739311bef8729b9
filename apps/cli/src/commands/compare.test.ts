// When compare adds the one-process caveat to a regressed verdict.
import type { CaseComparison, Comparison } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { oneProcessCaveat } from './compare.js';

const verdictOf = (cases: Partial<CaseComparison>[], load = 1) =>
  ({
    cases,
    head: { createdAt: '', env: { cpuCount: 2, loadAvgStart: [load, 0, 0], loadAvgEnd: [load, 0, 0] } },
  }) as unknown as Comparison;

describe('oneProcessCaveat', () => {
  it('names regressed cases compared one process a side under x4, and only those', () => {
    const caveat = oneProcessCaveat(
      verdictOf([
        { id: 'sha1/64/unrolled', verdict: 'regressed', ratio: 1.52 },
        // The SHA-1 seed's size: beyond any per-process mode measured.
        { id: 'sha1/1500/dispatch', verdict: 'regressed', ratio: 9.6 },
        // Several processes a side: their own spread shows a mode.
        { id: 'sha1/1500/wasm', verdict: 'regressed', ratio: 1.05, processes: { base: 4, head: 4 } },
        { id: 'sha1/64/wasm', verdict: 'improved', ratio: 0.6 },
        { id: 'sha1/64/dispatch', verdict: 'inconclusive', ratio: 1.4 },
      ]),
    );
    expect(caveat).toMatch(
      /^1 regressed case\(s\) compared one process a side moved less than x4 \(sha1\/64\/unrolled x1\.52\): /,
    );
    expect(oneProcessCaveat(verdictOf([{ id: 'a', verdict: 'regressed', ratio: 4.5 }]))).toBeUndefined();
    // On a loaded machine (load 9 on 2 CPUs) the range is x4 times 4.5.
    expect(oneProcessCaveat(verdictOf([{ id: 'a', verdict: 'regressed', ratio: 4.5 }], 9))).toMatch(
      /^1 regressed case\(s\) compared one process a side moved less than x18 \(x4 times the head run's load average 9\.0 over its 2 CPU\(s\)\) \(a x4\.50\): .*, larger on a loaded machine, /,
    );
    expect(
      oneProcessCaveat(verdictOf([{ id: 'a', verdict: 'regressed', ratio: 1.1, processes: { base: 3, head: 3 } }])),
    ).toBeUndefined();
  });
});
