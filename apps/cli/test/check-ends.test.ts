// `check --against <good> --bad <spec>`: a git bisect step judged between the
// two ends of the range. The regression to find (the cases that regressed
// between the ends), each step's reading of a case against the midpoint of its
// own change, the answer, the kept measurement of the ends, refs that move
// under git bisect, and bad input.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BisectCase } from '@layerbench/bench-runner/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyBisectCase } from '../src/bisect/run.ts';
import { findRepoRoot } from '../src/bisect/side-sources.ts';
import {
  cacheEnds,
  endLike,
  endsCacheFile,
  endsVerdict,
  movingRef,
  readCachedEnds,
  symptomsOf,
  type EndsKey,
  type StepReading,
} from '../src/commands/check-ends.ts';
import { heavyTestTimeout, runCli } from './spawn-cli.ts';
import { syntheticBisect } from './synthetic-results.ts';

function measured(
  id: string,
  ratio: number,
  ci: [number, number],
  verdict: BisectCase['total'] extends infer T ? (T extends { verdict: infer V } ? V : never) : never,
  layer = 'sha1-dispatch',
): BisectCase {
  return {
    ...emptyBisectCase({ id, layer, params: {} }),
    total: { ratio, ci, pValue: 0.001, verdict },
  };
}

const ends = syntheticBisect;

describe('the regression to find', () => {
  it('is the cases that regressed between the ends, each with the midpoint of its change', () => {
    const s = symptomsOf(
      ends([
        measured('sha1/64/wasm', 1.44, [1.3, 1.6], 'regressed'),
        measured('sha1/1500/wasm', 1.069, [1.035, 1.105], 'regressed'),
        measured('sha1/64/unrolled', 1.05, [0.8, 1.3], 'inconclusive'),
        measured('sha1/1500/dispatch', 1.0, [0.99, 1.01], 'unchanged'),
      ]),
    );
    expect(s.map((y) => y.id)).toEqual(['sha1/64/wasm', 'sha1/1500/wasm']);
    // Slower beyond the threshold and excluding no change, though inconclusive: a symptom too (a +10% regression, measured).
    const near = symptomsOf(ends([measured('aes/aes-128/block/table', 1.091, [1.03, 1.152], 'inconclusive')]));
    expect(near.map((y) => y.id)).toEqual(['aes/aes-128/block/table']);
    // Excluding no change but within the threshold, or beyond it but not excluding no change: not.
    expect(symptomsOf(ends([measured('a', 1.02, [1.005, 1.035], 'inconclusive')]))).toEqual([]);
    expect(symptomsOf(ends([measured('a', 1.06, [0.99, 1.13], 'inconclusive')]))).toEqual([]);
    expect(s[0]!.midpoint).toBeCloseTo(1.2, 10);
    expect(s[1]!.midpoint).toBeCloseTo(Math.sqrt(1.069), 10);
  });

  it('a failed case is no symptom, whatever its figures', () => {
    const c = { ...measured('sha1/64/wasm', 2, [1.5, 2.5], 'regressed'), status: 'failed' as const };
    expect(symptomsOf(ends([c]))).toEqual([]);
  });
});

describe("a step's reading of a case against the midpoint", () => {
  const mid = { ci: [1.25, 1.35] as [number, number], midpoint: Math.sqrt(1.3) }; // x1.3 [1.25, 1.35]: midpoint x1.140
  it('bad beyond it, good below it', () => {
    expect(endLike(measured('a', 1.28, [1.2, 1.36], 'regressed'), mid)).toBe('bad');
    // A harmless commit in the regressed layer: x1.04 [0.96, 1.12] is inconclusive at the 3% threshold, and clearly the good end's.
    expect(endLike(measured('a', 1.04, [0.96, 1.12], 'inconclusive'), mid)).toBe('good');
  });
  it('across it: bad when it excludes the good end and reaches the bad one, good the other way round, else open', () => {
    // The regression commit, measured: x1.132 [1.071, 1.195] against a bad end of x1.153 [1.053, 1.256] (midpoint x1.074).
    const end = { ci: [1.053, 1.256] as [number, number], midpoint: Math.sqrt(1.153) };
    expect(endLike(measured('a', 1.132, [1.071, 1.195], 'regressed'), end)).toBe('bad');
    expect(endLike(measured('a', 0.99, [0.94, 1.04], 'inconclusive'), end)).toBe('good');
    // Below the midpoint's reach on neither side, but up to the least the bad end may be: not good yet.
    expect(endLike(measured('a', 1.0, [0.92, 1.1], 'inconclusive'), end)).toBe('open');
    // Apart from both ends (a partial change), or reaching both: open.
    expect(endLike(measured('a', 1.14, [1.05, 1.23], 'regressed'), mid)).toBe('open');
    expect(endLike(measured('a', 1.14, [0.95, 1.35], 'inconclusive'), mid)).toBe('open');
  });
  it('open when its A/A control moved, and then no symptom of the ends either', () => {
    const c = {
      ...measured('a', 1.0, [0.99, 1.01], 'unchanged'),
      control: { ratio: 0.907, ci: [0.88, 0.936] as [number, number], pValue: 0.0002, verdict: 'improved' as const },
    };
    expect(endLike(c, mid)).toBe('open');
    expect(
      symptomsOf(ends([{ ...c, total: { ratio: 1.3, ci: [1.2, 1.4], pValue: 0.001, verdict: 'regressed' } }])),
    ).toEqual([]);
  });
  it('open when not measured, failed, or its output digest changed', () => {
    expect(endLike(undefined, mid)).toBe('open');
    expect(endLike({ ...measured('a', 1.3, [1.25, 1.35], 'regressed'), status: 'failed' }, mid)).toBe('open');
    expect(endLike({ ...measured('a', 1.0, [0.99, 1.01], 'unchanged'), digestChanged: true }, mid)).toBe('open');
  });
});

describe('the answer of a step', () => {
  const symptom = (id: string, ratio: number) => ({
    id,
    ratio,
    ci: [ratio * 0.97, ratio * 1.03] as [number, number],
    midpoint: Math.sqrt(ratio),
  });
  const reading = (id: string, ratio: number, like: StepReading['like'], by: StepReading['by']): StepReading => ({
    symptom: symptom(id, ratio),
    like,
    by,
  });
  it('bad when any case is like the bad end, naming it and its midpoint', () => {
    const v = endsVerdict(
      [
        reading('sha1/64/wasm', 1.44, 'good', measured('sha1/64/wasm', 1.01, [0.95, 1.07], 'inconclusive')),
        reading('sha1/1500/wasm', 1.069, 'bad', measured('sha1/1500/wasm', 1.07, [1.05, 1.09], 'regressed')),
      ],
      true,
    );
    expect(v.code).toBe(1);
    expect(v.reason).toBe('like the bad end: sha1/1500/wasm x1.070 [1.050, 1.090] (midpoint x1.034)');
  });
  it("good when every case is like the good end, by measurement or by the good end's code", () => {
    const v = endsVerdict(
      [
        reading('sha1/64/wasm', 1.44, 'good', measured('sha1/64/wasm', 1.01, [0.95, 1.07], 'inconclusive')),
        reading('cmac/x', 1.3, 'good', 'good end'),
      ],
      true,
    );
    expect(v.code).toBe(0);
    expect(v.reason).toBe(
      "like the good end: sha1/64/wasm x1.010 [0.950, 1.070] (midpoint x1.200), cmac/x (the good end's code)",
    );
  });
  it("bad by the bad end's code without measuring", () => {
    expect(endsVerdict([reading('cmac/x', 1.3, 'bad', 'bad end')], true)).toEqual({
      code: 1,
      reason: "like the bad end: cmac/x (the bad end's code)",
    });
  });
  it('cannot tell when a case is open and none is bad', () => {
    const v = endsVerdict(
      [
        reading('a', 1.44, 'good', 'good end'),
        reading('b', 1.3, 'open', measured('b', 1.14, [1.05, 1.23], 'regressed')),
        reading('c', 1.3, 'open', undefined),
      ],
      false,
    );
    expect(v.code).toBe(125);
    expect(v.reason).toBe('incomplete: b x1.140 [1.050, 1.230] (midpoint x1.140), c (not measured; midpoint x1.140)');
  });

  describe('an open case beside a case of its layer that reads good', () => {
    // The measured step of 2026-12-04 17:21 UTC: a harmless cmac commit, the ends +7.5% to +32%.
    const cmac = (id: string, ratio: number, ci: [number, number]) => measured(id, ratio, ci, 'inconclusive', 'cmac');
    const preloaded = reading(
      'cmac/preloaded/table',
      1.323,
      'good',
      cmac('cmac/preloaded/table', 0.987, [0.928, 1.051]),
    );
    const noisy = (ratio: number, layer = 'cmac'): StepReading =>
      reading(
        'cmac/oneshot/table',
        1.175,
        'open',
        measured('cmac/oneshot/table', ratio, [0.89, 1.131], 'inconclusive', layer),
      );

    it('good when it leans good (below its midpoint), naming it apart', () => {
      const v = endsVerdict([preloaded, noisy(1.007)], true);
      expect(v.code).toBe(0);
      expect(v.reason).toBe(
        'like the good end: cmac/preloaded/table x0.987 [0.928, 1.051] (midpoint x1.150); leaning good beside a case of their layer that reads good: cmac/oneshot/table x1.007 [0.890, 1.131] (midpoint x1.084)',
      );
    });

    it('cannot tell when it leans bad (at or beyond its midpoint): the layer may have regressed in part', () => {
      expect(endsVerdict([preloaded, noisy(1.09)], true).code).toBe(125);
      expect(endsVerdict([preloaded, noisy(Math.sqrt(1.175))], true).code).toBe(125);
    });

    it("cannot tell when the case that reads good is another layer's, or good only by the good end's code", () => {
      expect(endsVerdict([preloaded, noisy(1.007, 'aes-core')], true).code).toBe(125);
      expect(endsVerdict([reading('cmac/ct', 1.2, 'good', 'good end'), noisy(1.007)], true).code).toBe(125);
    });

    it('cannot tell when the step is incomplete, the open case is not measured, or its A/A control moved', () => {
      expect(endsVerdict([preloaded, noisy(1.007)], false).code).toBe(125);
      expect(endsVerdict([preloaded, reading('cmac/oneshot/table', 1.175, 'open', undefined)], true).code).toBe(125);
      const moved = noisy(1.007);
      const c = moved.by as BisectCase;
      c.control = { ratio: 0.9, ci: [0.88, 0.93], pValue: 0.001, verdict: 'improved' };
      expect(endsVerdict([preloaded, moved], true).code).toBe(125);
      const digest = noisy(1.007);
      (digest.by as BisectCase).digestChanged = true;
      expect(endsVerdict([preloaded, digest], true).code).toBe(125);
    });

    it('synthetic steps (the measured ends and spreads, one process in ten 3x wider): at a commit with the regression never good; at a harmless one mostly good instead of cannot tell', () => {
      // The four cases' ends and 99% half-widths (log) of the cmac clone; a normal draw per case and step.
      const ends: [string, number, number][] = [
        ['oneshot/table', 1.175, 0.12],
        ['oneshot/ct', 1.075, 0.03],
        ['preloaded/table', 1.323, 0.05],
        ['preloaded/ct', 1.118, 0.035],
      ];
      let state = 12345;
      const uniform = () => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state / 2147483648;
      };
      const normal = () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
      const step = (changed: (i: number) => boolean): StepReading[] =>
        ends.map(([id, ratio, width], i) => {
          const half = width * (uniform() < 0.1 ? 3 : 1);
          const at = (changed(i) ? Math.log(ratio) : 0) + (normal() * half) / 2.576;
          const symptom = {
            id,
            ratio,
            ci: [ratio * 0.97, ratio * 1.03] as [number, number],
            midpoint: Math.sqrt(ratio),
          };
          const c = measured(id, Math.exp(at), [Math.exp(at - half), Math.exp(at + half)], 'inconclusive', 'cmac');
          return { symptom, like: endLike(c, symptom), by: c };
        });
      const count = (changed: (i: number) => boolean) => {
        const n = { 0: 0, 1: 0, 125: 0 } as Record<number, number>;
        for (let k = 0; k < 2000; k++) n[endsVerdict(step(changed), true).code]!++;
        return n;
      };
      const regressed = count(() => true);
      expect(regressed[0]).toBe(0);
      expect(regressed[1]).toBeGreaterThan(1990);
      const harmless = count(() => false);
      // Without the rule (good only when all four read good) about 17% of these steps were good.
      expect(harmless[0]).toBeGreaterThan(1700);
      expect(harmless[1]).toBeLessThan(40);
      // A regression in two commits, the noisiest case alone in the first: at that commit the rule may call it
      // good (git bisect then names the second, also a regression); bounded here, documented in the README.
      const partial = count((i) => i === 0);
      expect(partial[0]).toBeLessThan(200);
      expect(partial[1]).toBeGreaterThan(1300);
    });

    it('still bad when any case is like the bad end', () => {
      const bad = reading('cmac/dup/table', 1.2, 'bad', cmac('cmac/dup/table', 1.2, [1.15, 1.25]));
      expect(endsVerdict([preloaded, noisy(1.007), bad], true).code).toBe(1);
    });
  });
});

describe('the kept measurement of the ends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'layerbench-check-ends-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const key: EndsKey = {
    good: { 'aes-core': 'a1', runtime: 'r' },
    bad: { 'aes-core': 'a2', runtime: 'r' },
    cli: 'c1',
    suites: ['aes'],
    filter: undefined,
    time: 0.6,
    processes: 6,
    threshold: 0.03,
    alpha: 0.01,
  };
  it('one file per code of both ends and options', () => {
    expect(endsCacheFile(dir, key)).toBe(endsCacheFile(dir, { ...key }));
    expect(endsCacheFile(dir, key)).not.toBe(endsCacheFile(dir, { ...key, bad: { 'aes-core': 'a3', runtime: 'r' } }));
    expect(endsCacheFile(dir, key)).not.toBe(endsCacheFile(dir, { ...key, time: 2.4 }));
    // Another CLI may define the cases otherwise: the ends are measured again.
    expect(endsCacheFile(dir, key)).not.toBe(endsCacheFile(dir, { ...key, cli: 'c2' }));
  });
  it('keeps a complete measurement and reads it back; an incomplete one is not kept; a corrupt one is a problem, not a crash', () => {
    const file = endsCacheFile(dir, key);
    expect(readCachedEnds(file)).toEqual({});
    cacheEnds(file, ends([measured('a', 1.3, [1.2, 1.4], 'regressed')], false));
    expect(readCachedEnds(file)).toEqual({});
    const complete = ends([measured('a', 1.3, [1.2, 1.4], 'regressed')]);
    cacheEnds(file, complete);
    expect(symptomsOf(readCachedEnds(file).result!)).toEqual(symptomsOf(complete));
    writeFileSync(file, '{"kind": "layerbench/bisect", "schemaVersion": 2, "cases": [');
    const r = readCachedEnds(file);
    expect(r.result).toBeUndefined();
    expect(r.problem).toMatch(/truncated|corrupt|JSON/i);
  });
});

describe('refs that git bisect moves', () => {
  it.each([
    ['HEAD', true],
    ['HEAD~1', true],
    ['HEAD^', true],
    ['@', true],
    ['BISECT_HEAD', true],
    ['main', false],
    ['v1.0', false],
    ['0496d57', false],
    ['HEADLINE', false],
  ])('%s: %s', (ref, moves) => {
    expect(movingRef(ref)).toBe(moves);
  });
});

describe('check --against <good> --bad <spec>, measured', () => {
  const root = findRepoRoot(process.cwd());
  const dir = mkdtempSync(join(tmpdir(), 'layerbench-check-ends-run-'));
  const kept: string[] = [];
  /** A copy of sha1-dispatch's built package; `edit` changes one of its files. */
  const copy = (name: string, file: string, edit: (text: string) => string): string => {
    const to = join(dir, name);
    mkdirSync(to);
    const from = join(root, 'packages', 'sha1-dispatch');
    cpSync(join(from, 'package.json'), join(to, 'package.json'));
    cpSync(join(from, 'dist'), join(to, 'dist'), { recursive: true });
    const path = join(to, 'dist', file);
    const text = readFileSync(path, 'utf8');
    const edited = edit(text);
    expect(edited).not.toBe(text);
    writeFileSync(path, edited);
    return to;
  };
  let good: string;
  let bad: string;
  beforeAll(() => {
    // The good end: this checkout's code with a harmless export (a code of its own each run: nothing kept from before).
    good = copy('good', 'index.js', (t) => `${t}\nexport const harmless = '${process.pid}-${Date.now()}';\n`);
    // The bad end: the dispatcher falls back to the generic block function (the SHA-1 seed, about x4 at 64 bytes).
    bad = copy('bad', 'dispatch.js', (t) =>
      t.replace('const envImpl = env.LAYERBENCH_SHA1_IMPL;', "const envImpl = env.LAYERBENCH_SHA1_IMPL ?? 'generic';"),
    );
    appendFileSync(join(bad, 'dist', 'index.js'), `\nexport const harmless = '${process.pid}-${Date.now()}';\n`);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const file of kept) rmSync(file, { force: true });
  });

  it(
    'measures the ends once, finds the regression, judges this checkout like the good end; the next step reuses the ends',
    async () => {
      const quick = ['--filter', '^sha1/64/(dispatch|unrolled)$', '--time', '0.3', '--processes', '3', '--quiet'];
      const args = [
        'check',
        '--against',
        `sha1-dispatch=dir:${good}`,
        '--bad',
        `sha1-dispatch=dir:${bad}`,
        'sha1',
        ...quick,
      ];
      const first = await runCli(args);
      const file = /kept in (\S+) for the other steps/.exec(first.stdout)?.[1];
      expect(file, first.stdout + first.stderr).toBeDefined();
      kept.push(file!);
      expect(existsSync(file!)).toBe(true);
      // The regression to find is the dispatch case (about x4 on a quiet machine; x2.62 [2.47, 2.78] once in CI
      // with the other packages' tests beside it, 2026-12-06: how much it reads is the machine's, not asserted
      // here); unrolled runs the same code at both ends' speed.
      expect(first.stdout).toMatch(
        /the regression to find: sha1\/64\/dispatch x\d+\.\d+ \[[\d., ]+\] \(midpoint x\d+\.\d+\)\n/,
      );
      expect(first.stdout).not.toMatch(/the regression to find: .*sha1\/64\/unrolled/);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^check: good \(exit 0\): like the good end: sha1\/64\/dispatch x[01]\.\d+ /m);
      const second = await runCli(args);
      expect(second.stdout).toContain(`check: the two ends as measured at `);
      expect(second.stdout).toContain(`(kept in ${file})`);
      expect(second.stdout).not.toMatch(/measuring the two ends/);
      expect(second.code).toBe(0);
    },
    heavyTestTimeout,
  );
});
