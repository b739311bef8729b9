// `layerbench check --against <spec>`: the git bisect run step measured side by
// side with another stack in the same worker processes (bisect --paired). Its
// answer from a bisect result (regressed, cannot tell, good; the identical-code
// guard), its bad input (128, which stops git bisect), and two real runs: a
// checkout whose code is identical to the spec's (good, nothing measured) and
// one whose SHA-1 dispatcher is x4 faster than the spec's (good: improved is not
// regressed; the cmac cases, whose code is the same, are not judged).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BisectCase, BisectResult } from '@layerbench/bench-runner/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyBisectCase } from '../src/bisect/run.ts';
import { findRepoRoot } from '../src/bisect/side-sources.ts';
import type { SideIdentity } from '../src/bisect/variants.ts';
import {
  caseCodeIdentical,
  decidedBeforeLongerLook,
  pairedCheckVerdict,
  undecidedCases,
  withLongerLook,
} from '../src/commands/check-against.ts';
import { exactIds } from '../src/commands/longer-look.ts';
import { heavyTestTimeout, runCli } from './spawn-cli.ts';

function bisectCase(
  id: string,
  layer: string,
  verdict: 'regressed' | 'improved' | 'unchanged' | 'inconclusive',
): BisectCase {
  return { ...emptyBisectCase({ id, layer, params: {} }), total: { ratio: 1, ci: [0.9, 1.1], pValue: 0.5, verdict } };
}

function result(cases: BisectCase[], complete = true): BisectResult {
  return { cases, complete, options: { threshold: 0.03 } } as unknown as BisectResult;
}

const never = () => false;

describe('decidedBeforeLongerLook', () => {
  it('a regressed case whose code differs decides the step: no longer look for the open ones', () => {
    const open = bisectCase('esp/x/stitched', 'esp', 'inconclusive');
    const r = result([bisectCase('esp/x/split', 'esp', 'regressed'), open]);
    expect(undecidedCases(r, never)).toEqual([open]);
    expect(decidedBeforeLongerLook(r, never)).toBe('regressed: esp/x/split decides this step (bad)');
  });

  it('otherwise the open cases get their longer look', () => {
    expect(decidedBeforeLongerLook(result([bisectCase('a', 'esp', 'inconclusive')]), never)).toBeUndefined();
    // A regressed case whose code is identical on both sides decides nothing.
    const r = result([bisectCase('cmac/x', 'cmac', 'regressed'), bisectCase('a', 'esp', 'inconclusive')]);
    expect(decidedBeforeLongerLook(r, (c) => c.layer === 'cmac')).toBeUndefined();
  });
});

describe('pairedCheckVerdict', () => {
  it('bad when a case whose code differs regressed, naming it', () => {
    const r = result([
      bisectCase('sha1/64/dispatch', 'sha1-dispatch', 'regressed'),
      bisectCase('b', 'cmac', 'unchanged'),
    ]);
    expect(pairedCheckVerdict(r, never)).toEqual({ code: 1, reason: 'regressed: sha1/64/dispatch' });
  });

  it('a case whose code is identical on both sides is not judged, whatever its timings said', () => {
    const r = result([bisectCase('cmac/x', 'cmac', 'regressed'), bisectCase('sha1/x', 'sha1-dispatch', 'unchanged')]);
    expect(pairedCheckVerdict(r, (c) => c.layer === 'cmac')).toEqual({
      code: 0,
      reason: '1 case(s) not regressed, 1 with identical code',
    });
  });

  it('cannot tell when a judged case is inconclusive, failed, changed its digest, or nothing was compared', () => {
    expect(pairedCheckVerdict(result([bisectCase('a', 'cmac', 'inconclusive')]), never)).toEqual({
      code: 125,
      reason: 'inconclusive: a',
    });
    expect(pairedCheckVerdict(result([bisectCase('a', 'cmac', 'unchanged')], false), never).code).toBe(0);
    const failed = { ...bisectCase('a', 'cmac', 'unchanged'), status: 'failed' } as BisectCase;
    expect(pairedCheckVerdict(result([failed]), never)).toEqual({ code: 125, reason: 'failed: a' });
    const changed = { ...bisectCase('a', 'cmac', 'unchanged'), digestChanged: true } as BisectCase;
    expect(pairedCheckVerdict(result([changed]), never).code).toBe(125);
    const notMeasured = { ...bisectCase('a', 'cmac', 'unchanged'), status: 'not-measured', total: undefined };
    expect(pairedCheckVerdict(result([notMeasured as unknown as BisectCase], false), never)).toEqual({
      code: 125,
      reason: 'incomplete: a',
    });
    expect(pairedCheckVerdict(result([]), never)).toEqual({ code: 125, reason: 'no case was compared' });
  });

  it('cases not measured because their code is identical count as such; all of them: good, nothing measured', () => {
    const some = { ...result([bisectCase('cmac/x', 'cmac', 'unchanged')]), identicalCode: ['sha1/a', 'sha1/b'] };
    expect(pairedCheckVerdict(some, never)).toEqual({
      code: 0,
      reason: '1 case(s) not regressed, 2 with identical code',
    });
    const all = { ...result([]), identicalCode: ['sha1/a', 'sha1/b'] };
    expect(pairedCheckVerdict(all, never)).toEqual({
      code: 0,
      reason:
        'the code of all 2 selected case(s) is identical on both sides (their layer, the layers below it, the engine, the runtime): nothing measured',
    });
    // Interrupted before anything was measured is not good.
    expect(pairedCheckVerdict({ ...all, complete: false }, never).code).toBe(125);
    // A regression beside them is still bad.
    const bad = { ...result([bisectCase('cmac/x', 'cmac', 'regressed')]), identicalCode: ['sha1/a'] };
    expect(pairedCheckVerdict(bad, never)).toEqual({ code: 1, reason: 'regressed: cmac/x' });
  });

  it('good when an inconclusive case only may have got faster: its interval rules out a slowdown beyond the threshold', () => {
    // Measured over a harmless aes-core commit: esp stitched x0.985 [0.966, 1.006] at threshold 0.03.
    const faster = bisectCase('esp/x', 'esp', 'inconclusive');
    faster.total = { ratio: 0.985, ci: [0.966, 1.006], pValue: 0.04, verdict: 'inconclusive' };
    expect(pairedCheckVerdict(result([faster, bisectCase('esp/y', 'esp', 'unchanged')]), never)).toEqual({
      code: 0,
      reason:
        '2 case(s) not regressed (1 inconclusive, but their intervals rule out a slowdown beyond the threshold: esp/x x0.985 [0.966, 1.006])',
    });
    // x1.023 [0.951, 1.100] (the commit before it): a slowdown beyond 3% is not ruled out.
    const open = bisectCase('esp/x', 'esp', 'inconclusive');
    open.total = { ratio: 1.023, ci: [0.951, 1.1], pValue: 0.4, verdict: 'inconclusive' };
    expect(pairedCheckVerdict(result([open]), never)).toEqual({ code: 125, reason: 'inconclusive: esp/x' });
  });
});

describe('a case whose A/A control moved', () => {
  // Measured at a +10% aes-core regression commit: the case x1.010 [0.991, 1.030], its control x0.907 [0.880, 0.936].
  const moved = (verdict: 'regressed' | 'unchanged'): BisectCase => ({
    ...bisectCase('aes/aes-128/block/table', 'aes-core', verdict),
    control: { ratio: 0.907, ci: [0.88, 0.936], pValue: 0.0002, verdict: 'improved' },
  });

  it('is never good, nor bad: cannot tell, naming the control', () => {
    expect(pairedCheckVerdict(result([moved('unchanged'), bisectCase('b', 'aes-core', 'unchanged')]), never)).toEqual({
      code: 125,
      reason: 'the A/A control moved: aes/aes-128/block/table (A/A x0.907)',
    });
    expect(pairedCheckVerdict(result([moved('regressed')]), never).code).toBe(125);
    // Another case that regressed with a steady control still makes the commit bad.
    expect(pairedCheckVerdict(result([moved('unchanged'), bisectCase('c', 'aes-core', 'regressed')]), never)).toEqual({
      code: 1,
      reason: 'regressed: c',
    });
  });

  it('gets the longer look, whatever its verdict', () => {
    const r = result([moved('unchanged'), bisectCase('b', 'aes-core', 'unchanged')]);
    expect(undecidedCases(r, never).map((c) => c.id)).toEqual(['aes/aes-128/block/table']);
  });
});

describe('the longer look at cases left inconclusive', () => {
  type Verdict = NonNullable<BisectCase['total']>['verdict'];
  const withTotal = (c: BisectCase, ratio: number, ci: [number, number], verdict: Verdict): BisectCase => ({
    ...c,
    total: { ratio, ci, pValue: 0.5, verdict },
  });
  it('takes the judged, measured, inconclusive cases a slowdown is still possible for, and no other', () => {
    const open = withTotal(
      bisectCase('aes/aes-128/block/table', 'aes-core', 'inconclusive'),
      1.096,
      [0.993, 1.209],
      'inconclusive',
    );
    const faster = withTotal(bisectCase('aes/x', 'aes-core', 'inconclusive'), 0.985, [0.966, 1.006], 'inconclusive');
    const same = bisectCase('cmac/y', 'cmac', 'inconclusive');
    const failed = { ...bisectCase('aes/f', 'aes-core', 'inconclusive'), status: 'failed' } as BisectCase;
    const digest = { ...bisectCase('aes/d', 'aes-core', 'inconclusive'), digestChanged: true } as BisectCase;
    const regressed = bisectCase('aes/r', 'aes-core', 'regressed');
    const r = result([open, faster, same, failed, digest, regressed]);
    expect(undecidedCases(r, (c) => c.layer === 'cmac').map((c) => c.id)).toEqual(['aes/aes-128/block/table']);
  });

  it('selects exactly the ids named, whatever regular-expression characters they hold', () => {
    const re = new RegExp(
      exactIds([
        'aes/aes-128/block/table',
        'cmac/aes-128/pl=48/preloaded/table',
        'esp/seal/pl=1400/table+wasm/stitched',
      ]),
    );
    expect(re.test('aes/aes-128/block/table')).toBe(true);
    expect(re.test('esp/seal/pl=1400/table+wasm/stitched')).toBe(true);
    expect(re.test('esp/seal/pl=1400/tablewasm/stitched')).toBe(false);
    expect(re.test('aes/aes-128/block/table2')).toBe(false);
    expect(re.test('xaes/aes-128/block/table')).toBe(false);
  });

  it("judges a case the longer look measured by the longer look's figures, the others by the first's", () => {
    const first = result([
      withTotal(bisectCase('a', 'aes-core', 'inconclusive'), 1.096, [0.993, 1.209], 'inconclusive'),
      withTotal(bisectCase('b', 'aes-core', 'inconclusive'), 1.05, [0.95, 1.15], 'inconclusive'),
      bisectCase('c', 'aes-core', 'unchanged'),
    ]);
    const longer = result([
      withTotal(bisectCase('a', 'aes-core', 'regressed'), 1.125, [1.088, 1.163], 'regressed'),
      { ...bisectCase('b', 'aes-core', 'unchanged'), status: 'failed' } as BisectCase,
    ]);
    const merged = withLongerLook(first, longer);
    expect(merged.cases.map((c) => [c.id, c.total?.verdict])).toEqual([
      ['a', 'regressed'],
      ['b', 'inconclusive'],
      ['c', 'unchanged'],
    ]);
    expect(pairedCheckVerdict(merged, never)).toEqual({ code: 1, reason: 'regressed: a' });
    // The summary counts the merged cases, not the first look's.
    expect(merged.summary).toMatchObject({ regressed: 1, inconclusive: 1, unchanged: 1 });
    expect(withLongerLook(first, result(longer.cases, false)).complete).toBe(false);
  });
});

describe('caseCodeIdentical', () => {
  const identity = (code: Record<string, string>): SideIdentity =>
    ({
      spec: 'x',
      layers: {},
      code: {
        'aes-core': 'a',
        cmac: 'c',
        'sha1-dispatch': 's',
        esp: 'e',
        'bench-runner': 'b',
        runtime: 'r',
        ...code,
      },
    }) as unknown as SideIdentity;
  it('compares the layer, the layers below it, the engine and the runtime', () => {
    const good = identity({});
    expect(caseCodeIdentical('cmac', good, identity({ 'sha1-dispatch': 'S' }))).toBe(true);
    expect(caseCodeIdentical('cmac', good, identity({ 'aes-core': 'A' }))).toBe(false);
    expect(caseCodeIdentical('esp', good, identity({ 'sha1-dispatch': 'S' }))).toBe(false);
    expect(caseCodeIdentical('sha1-dispatch', good, identity({ 'bench-runner': 'B' }))).toBe(false);
    expect(caseCodeIdentical('peers', good, good)).toBe(false);
  });
});

describe('check --against: bad input exits 128 with one line', () => {
  it.each([
    [['check'], /--baseline <file> or --against <spec> is required/],
    [['check', '--baseline', 'x.json', '--against', 'workspace'], /--baseline and --against exclude each other/],
    [['check', '--against', 'svn:1'], /--against: unknown source 'svn:1'/],
    [['check', '--against', 'workspace', '--calibration', 'c.json'], /--calibration belongs to --baseline/],
    [['check', '--against', 'workspace', '--extra-processes', '2'], /--extra-processes belongs to --baseline/],
    [['check', '--against', 'workspace', 'nosuchsuite'], /nosuchsuite/],
    [['check', '--baseline', 'x.json', '--longer-look', '2'], /--longer-look belongs to --against/],
    [['check', '--against', 'workspace', '--longer-look', '0'], /--longer-look/],
    [['check', '--baseline', 'x.json', '--bad', 'git:main'], /--bad belongs to --against/],
    [['check', '--against', 'git:v1', '--bad', 'git:HEAD'], /--bad git:HEAD moves as git bisect checks commits out/],
    [['check', '--against', 'git:v1', '--bad', 'sha1-dispatch=git:HEAD~2'], /--bad git:HEAD~2 moves/],
    [['check', '--against', 'git:v1', '--bad', 'workspace'], /--bad workspace is this checkout/],
    [['check', '--against', 'git:v1', '--bad', 'svn:1'], /--bad: unknown source 'svn:1'/],
    [['check', '--against', 'git:v1', '--bad', 'git:main', '--each-step'], /--each-step and --bad exclude each other/],
    [['check', '--baseline', 'x.json', '--each-step'], /--each-step belongs to --against/],
    [
      ['check', '--baseline', 'x.json', '--second-look-below', '0.5'],
      /--second-look-below must be a ratio above 1 \(checkout over baseline, e\.g\. 4\), got '0\.5'/,
    ],
  ])('%j', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(128);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('check --against, measured', () => {
  const root = findRepoRoot(process.cwd());
  let dir: string;
  let generic: string;

  beforeAll(() => {
    // A copy of sha1-dispatch whose dispatcher falls back to the generic block function (the SHA-1 seed).
    dir = mkdtempSync(join(tmpdir(), 'layerbench-check-against-'));
    generic = join(dir, 'sha1-dispatch');
    mkdirSync(generic);
    const source = join(root, 'packages', 'sha1-dispatch');
    cpSync(join(source, 'package.json'), join(generic, 'package.json'));
    cpSync(join(source, 'dist'), join(generic, 'dist'), { recursive: true });
    const file = join(generic, 'dist', 'dispatch.js');
    const text = readFileSync(file, 'utf8');
    const seeded = text.replace(
      'const envImpl = env.LAYERBENCH_SHA1_IMPL;',
      "const envImpl = env.LAYERBENCH_SHA1_IMPL ?? 'generic';",
    );
    expect(seeded).not.toBe(text);
    writeFileSync(file, seeded);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('good without measuring when no layer differs from the spec', async () => {
    const run = await runCli(['check', '--against', 'workspace', 'sha1', '--filter', '^sha1/64/unrolled$', '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/every layer's code is identical to workspace's/);
  });

  it(
    'measures both stacks in the same processes: a dispatcher x4 faster than the spec is improved, not regressed',
    async () => {
      const run = await runCli([
        'check',
        '--against',
        `sha1-dispatch=dir:${generic}`,
        'sha1',
        '--filter',
        '^sha1/64/(dispatch|unrolled)$',
        '--time',
        '0.3',
        '--processes',
        '3',
        '--quiet',
      ]);
      expect(run.stdout).toMatch(/3 processes, each hosting every variant \(paired/);
      expect(run.stdout).toMatch(/sha1\/64\/dispatch\s+x0\.\d+ \[[\d., ]+\]\s+improved/);
      // unrolled runs the same code on both sides: never regressed; dispatch improved: not bad.
      expect(run.stdout).not.toMatch(/sha1\/64\/unrolled\s+x[\d.]+ \[[\d., ]+\]\s+regressed/);
      expect([0, 125]).toContain(run.code);
      expect(run.stdout).toMatch(/^check: (good|cannot tell) \(exit (0|125)\)/m);
    },
    heavyTestTimeout,
  );
});
