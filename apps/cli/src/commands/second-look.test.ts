// check's second look at cases called regressed one process a side by less than x4 (more on a loaded machine).
import type { CaseComparison, Comparison, EnvFingerprint } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { secondLook, secondLookAlpha, secondLookLines, secondLookPlan } from './second-look.js';

/** A head run's environment as far as the range reads it: its load averages and CPU count. */
const envAt = (load: number, cpuCount = 2) =>
  ({ cpuCount, loadAvgStart: [load, 0, 0], loadAvgEnd: [load / 2, 0, 0] }) as unknown as EnvFingerprint;
const quiet = envAt(1.2);

const plan = secondLookPlan({ head: quiet, alpha: 0.01 });

const comparisonOf = (cases: Partial<CaseComparison>[], head = quiet) =>
  ({ cases, head: { createdAt: '', env: head } }) as unknown as Comparison;

const first = comparisonOf([
  // A process's mode of its own looks like this.
  { id: 'sha1/64/unrolled', verdict: 'regressed', ratio: 1.52 },
  // The same size, and real.
  { id: 'sha1/1500/unrolled', verdict: 'regressed', ratio: 1.48 },
  // Beyond any per-process mode measured: no second look.
  { id: 'sha1/1500/dispatch', verdict: 'regressed', ratio: 9.6 },
  // Several processes a side: their own spread shows a mode.
  { id: 'sha1/1500/wasm', verdict: 'regressed', ratio: 1.05, processes: { base: 4, head: 4 } },
  { id: 'sha1/64/wasm', verdict: 'unchanged', ratio: 1.01 },
]);

describe('secondLook', () => {
  it('keeps a suspect regressed only when every fresh process says so, and leaves the other cases alone', () => {
    const fresh = [
      comparisonOf([
        { id: 'sha1/64/unrolled', verdict: 'unchanged', ratio: 1.01 },
        { id: 'sha1/1500/unrolled', verdict: 'regressed', ratio: 1.47 },
      ]),
      comparisonOf([
        { id: 'sha1/64/unrolled', verdict: 'regressed', ratio: 1.5 },
        { id: 'sha1/1500/unrolled', verdict: 'regressed', ratio: 1.49 },
      ]),
    ];
    const { comparison, looks } = secondLook(first, fresh, plan);
    expect(comparison.cases.map((c) => [c.id, c.verdict])).toEqual([
      ['sha1/64/unrolled', 'inconclusive'],
      ['sha1/1500/unrolled', 'regressed'],
      ['sha1/1500/dispatch', 'regressed'],
      ['sha1/1500/wasm', 'regressed'],
      ['sha1/64/wasm', 'unchanged'],
    ]);
    // The first comparison is not changed in place.
    expect(first.cases[0]!.verdict).toBe('regressed');
    expect(looks.map((look) => [look.id, look.confirmed])).toEqual([
      ['sha1/64/unrolled', false],
      ['sha1/1500/unrolled', true],
    ]);
    const lines = secondLookLines(looks, plan, 2);
    expect(lines[0]).toMatch(
      /^second look: 2 case\(s\) called regressed one process a side by less than x4, measured again in 2 fresh process\(es\) .* at alpha 0\.1:$/,
    );
    expect(lines[1]).toBe('  sha1/64/unrolled    first x1.520; fresh x1.010 unchanged, x1.500 regressed: inconclusive');
    expect(lines[2]).toBe('  sha1/1500/unrolled  first x1.480; fresh x1.470 regressed, x1.490 regressed: regressed');
  });

  it('does not confirm on fewer fresh processes than planned, or a fresh process without the case', () => {
    const one = [comparisonOf([{ id: 'sha1/64/unrolled', verdict: 'regressed', ratio: 1.5 }])];
    expect(secondLook(first, one, plan).looks.every((look) => !look.confirmed)).toBe(true);
    expect(secondLookLines(secondLook(first, one, plan).looks, plan, 1)[0]).toContain(
      '2 fresh process(es) of this checkout (1 finished)',
    );
    const withoutCase = [comparisonOf([]), comparisonOf([])];
    const looked = secondLook(first, withoutCase, plan);
    expect(looked.looks.map((look) => look.confirmed)).toEqual([false, false]);
    expect(secondLookLines(looked.looks, plan, 2)[1]).toContain('fresh no figure, no figure: inconclusive');
  });

  it('has nothing to look at when no case is a suspect', () => {
    const none = comparisonOf([{ id: 'a', verdict: 'regressed', ratio: 4.5 }]);
    const looked = secondLook(none, [], plan);
    expect(looked.looks).toEqual([]);
    expect(looked.comparison.cases[0]!.verdict).toBe('regressed');
    expect(secondLookLines(looked.looks, plan, 2)).toEqual([]);
    // --second-look 0: none at all.
    expect(secondLook(first, [], secondLookPlan({ processes: 0, head: quiet, alpha: 0.01 })).looks).toEqual([]);
  });

  it('looks below --second-look-below when given', () => {
    const wide = secondLookPlan({ below: 10, head: envAt(30), alpha: 0.01 });
    // Given, it holds whatever the load.
    expect(wide).toEqual({ processes: 2, range: { below: 10 }, alpha: 0.1 });
    const looked = secondLook(first, [comparisonOf([]), comparisonOf([])], wide);
    // sha1/1500/dispatch (x9.6) now too; the several-process case still not.
    expect(looked.looks.map((look) => look.id)).toEqual([
      'sha1/64/unrolled',
      'sha1/1500/unrolled',
      'sha1/1500/dispatch',
    ]);
    expect(secondLookLines(looked.looks, wide, 2)[0]).toContain('by less than x10,');
  });

  it("widens the range by the head run's load average over its CPU count when above 1", () => {
    // At most one runnable process per CPU: x4.
    expect(secondLookPlan({ head: envAt(2), alpha: 0.01 }).range).toEqual({ below: 4 });
    // Load 8.9 on 2 CPUs (a clean-clone CI run read a case x5.9 slower at that load, one process a side).
    const loaded = secondLookPlan({ head: envAt(8.9), alpha: 0.01 });
    expect(loaded.range.below).toBeCloseTo(17.8, 10);
    expect(loaded.range.load).toEqual({ average: 8.9, cpus: 2 });
    // The start's load or the end's, whichever is larger.
    const atEnd = { ...envAt(1), loadAvgEnd: [6, 0, 0] } as EnvFingerprint;
    expect(secondLookPlan({ head: atEnd, alpha: 0.01 }).range.below).toBeCloseTo(12, 10);
    const looked = secondLook(first, [comparisonOf([]), comparisonOf([])], loaded);
    expect(looked.looks.map((look) => look.id)).toEqual([
      'sha1/64/unrolled',
      'sha1/1500/unrolled',
      'sha1/1500/dispatch',
    ]);
    expect(secondLookLines(looked.looks, loaded, 2)[0]).toContain(
      "by less than x17.8 (x4 times the head run's load average 8.9 over its 2 CPU(s)), measured again",
    );
  });

  it("looks again at alpha 0.1, or at check's own alpha when that is looser", () => {
    expect(secondLookAlpha(0.01)).toBe(0.1);
    expect(secondLookAlpha(0.001)).toBe(0.1);
    expect(secondLookAlpha(0.2)).toBe(0.2);
  });
});
