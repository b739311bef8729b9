// The bisect result's reader and its console table and Markdown: the A/A
// column beside every total, a layer reproduced one way only marked as such,
// and an incomplete bisect never shown as a pass.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBisectResult, type BisectCase, type BisectEffect, type BisectResult } from '../results/index.js';
import { bisectIcon, formatBisectMarkdown, formatBisectTable, identicalCodeText } from './bisect.js';

const effect = (ratio: number, half: number, verdict: BisectEffect['verdict']): BisectEffect => ({
  ratio,
  ci: [ratio - half, ratio + half],
  pValue: verdict === 'regressed' ? 0.0002 : 0.4,
  verdict,
});

function bisectCase(id: string, over: Partial<BisectCase> = {}): BisectCase {
  return {
    id,
    layer: 'cmac',
    params: {},
    status: 'ok',
    total: effect(1.2, 0.03, 'regressed'),
    control: effect(1.004, 0.02, 'inconclusive'),
    layers: [
      {
        layer: 'aes-core',
        swapIn: effect(1.19, 0.03, 'regressed'),
        swapOut: effect(1.21, 0.03, 'regressed'),
        share: 1.0,
        reproduced: 'both',
        explains: true,
      },
      {
        layer: 'cmac',
        swapIn: effect(1.062, 0.01, 'regressed'),
        swapOut: effect(1.007, 0.01, 'unchanged'),
        share: 0.19,
        reproduced: 'in',
        explains: false,
      },
    ],
    attributed: ['aes-core'],
    oneWay: ['cmac'],
    notes: [
      'cmac reproduces the change only when swapped in (x1.062 [1.052, 1.072]), not when swapped out (x1.007 [0.997, 1.017]): not attributed',
    ],
    medians: { good: 240, bad: 288 },
    processes: { good: 3, bad: 3, control: 3 },
    ...over,
  };
}

function result(over: Partial<BisectResult> = {}): BisectResult {
  return {
    kind: 'layerbench/bisect',
    schemaVersion: 2,
    createdAt: '2026-12-01T00:00:00.000Z',
    options: {
      suites: ['cmac'],
      timePerCase: 0.6,
      rounds: 4,
      processes: 3,
      visitPercentile: 10,
      threshold: 0.03,
      alpha: 0.01,
      peers: false,
    },
    machine: { cpuModel: 'test', cpuCount: 2, os: 'linux' },
    good: { spec: 'git:aaaa', layers: [] },
    bad: { spec: 'git:bbbb', layers: [] },
    layers: ['aes-core', 'cmac'],
    changes: [],
    variants: [],
    cases: [bisectCase('cmac/aes-128/pl=48/preloaded/table')],
    summary: {
      regressed: 1,
      improved: 0,
      unchanged: 0,
      inconclusive: 0,
      failed: 0,
      notMeasured: 0,
      controlMoved: 0,
      attributed: { 'aes-core': 1 },
    },
    complete: true,
    ...over,
  };
}

describe('bisect reports', () => {
  it('name the commits that changed an attributed layer between the ends, and read them back', () => {
    const layerCommits = (commits: number, uncommitted = false) => [
      {
        layer: 'aes-core',
        folder: 'packages/aes-core',
        good: 'a'.repeat(40),
        bad: 'b'.repeat(40),
        commits: Array.from({ length: commits }, (_, i) => ({ commit: String(i).repeat(40), subject: `change ${i}` })),
        uncommitted,
      },
    ];
    const one = result({ layerCommits: layerCommits(1) });
    expect(formatBisectTable(one)).toContain(
      'Attributed:\n  aes-core ? -> ? (1 commit changed packages/aes-core: 000000000000 "change 0")',
    );
    expect(formatBisectMarkdown(one)).toContain(
      '- **aes-core** explains 1 case: aes-core ? -> ? (1 commit changed packages/aes-core: 000000000000 "change 0")',
    );
    expect(formatBisectTable(result({ layerCommits: layerCommits(3, true) }))).toContain(
      '(3 commits changed packages/aes-core and the workspace has changes there in no commit: git log aaaaaaaaaaaa..bbbbbbbbbbbb -- packages/aes-core)',
    );
    expect(formatBisectTable(result({ layerCommits: layerCommits(0) }))).toContain(
      '(no commit changed packages/aes-core: its built code differs through a shared build input)',
    );
    expect(formatBisectTable(result())).toContain('Attributed:\n  aes-core ? -> ?\n');
    const dir = mkdtempSync(join(tmpdir(), 'layerbench-bisect-commits-'));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(one));
    expect(readBisectResult(join(dir, 'b.json')).layerCommits).toEqual(layerCommits(1));
  });

  it('show the A/A control beside each total, and a one-way layer as such', () => {
    const table = formatBisectTable(result());
    expect(table).toMatch(
      /^Regression: 1 of 1 cases regressed, 0 improved, 0 unchanged, 0 inconclusive; explained by aes-core \(1 case\)/,
    );
    expect(table).toMatch(/case +bad\/good +verdict +A\/A +aes-core +cmac +explained by/);
    expect(table).toMatch(
      /x1\.200 \[1\.170, 1\.230\] +regressed +x1\.004 \[0\.984, 1\.024\] +in x1\.190 out x1\.210 100% \* +in x1\.062 out x1\.007 19% \(in only\) +aes-core/,
    );
    const markdown = formatBisectMarkdown(result());
    expect(markdown).toContain(
      '| case | bad/good [99% CI] | verdict | A/A [99% CI] | aes-core in / out | cmac in / out | explained by |',
    );
    expect(markdown).toMatch(/^### :red_circle: layerbench bisect: Regression/);
    expect(markdown).toContain('- cmac/aes-128/pl=48/preloaded/table: cmac reproduces the change only when swapped in');
  });

  it('show a swapped layer a case does not run as such, explained in the legend, and read it back', () => {
    const sha1 = bisectCase('sha1/64/dispatch', {
      layer: 'sha1-dispatch',
      total: effect(1.001, 0.02, 'unchanged'),
      layers: [],
      layersNotRun: ['aes-core', 'cmac'],
      attributed: [],
      oneWay: [],
      notes: [],
    });
    const r = result({ cases: [bisectCase('cmac/aes-128/pl=48/preloaded/table'), sha1] });
    const table = formatBisectTable(r);
    expect(table).toMatch(
      /\nsha1\/64\/dispatch +x1\.001 \[0\.981, 1\.021\] +unchanged +x1\.004 \[0\.984, 1\.024\] +not run +not run +-/,
    );
    expect(table).toContain("not run = the case does not run that layer's code (its swaps were not measured for it)");
    expect(formatBisectMarkdown(r)).toContain(
      '| `sha1/64/dispatch` | x1.001 [0.981, 1.021] | unchanged | x1.004 [0.984, 1.024] | not run | not run | - |',
    );
    // Without such a case the legend does not mention it.
    expect(formatBisectTable(result())).not.toContain('not run');
    const dir = mkdtempSync(join(tmpdir(), 'layerbench-bisect-not-run-'));
    const file = join(dir, 'r.json');
    writeFileSync(file, JSON.stringify(r));
    expect(readBisectResult(file).cases[1]!.layersNotRun).toEqual(['aes-core', 'cmac']);
  });

  it('name the cases not measured because their code is identical on both sides, in the headline and a line', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `sha1/${i}/dispatch`);
    const r = result({ identicalCode: ids });
    const table = formatBisectTable(r);
    expect(table.split('\n')[0]).toContain('10 with identical code on both sides (not measured)');
    expect(table).toContain(
      'not measured: 10 case(s) whose code (their layer, the layers below it, the engine, the runtime) is identical on both sides, so they cannot have changed: sha1/0/dispatch, sha1/1/dispatch, sha1/2/dispatch, sha1/3/dispatch, sha1/4/dispatch, sha1/5/dispatch, sha1/6/dispatch, sha1/7/dispatch and 2 more',
    );
    expect(formatBisectMarkdown(r)).toContain('_Not measured: 10 case(s) whose code');
    expect(identicalCodeText(result())).toBeUndefined();
    expect(formatBisectTable(result())).not.toContain('identical');
    const dir = mkdtempSync(join(tmpdir(), 'layerbench-bisect-identical-'));
    const file = join(dir, 'r.json');
    writeFileSync(file, JSON.stringify(r));
    expect(readBisectResult(file).identicalCode).toEqual(ids);
  });

  it('say which layers differ when none was swapped (check --against compares whole stacks)', () => {
    const side = (spec: string, aesHash: string) => ({
      spec,
      layers: [
        { name: '@layerbench/aes-core', version: '0.1.0', contentHash: aesHash },
        { name: '@layerbench/cmac', version: '0.1.0', contentHash: 'c1' },
      ],
    });
    const whole = result({ layers: [], good: side('git:aaaa', 'a1'), bad: side('workspace', 'a2') });
    expect(formatBisectTable(whole)).toContain(
      'swapped layers: none (the whole stacks compared; their code differs in aes-core)',
    );
    expect(formatBisectMarkdown(whole)).toContain('swapped layers: none (the whole stacks compared');
    const same = result({ layers: [], good: side('git:aaaa', 'a1'), bad: side('workspace', 'a1') });
    expect(formatBisectTable(same)).toContain('swapped layers: none (the sides are identical)');
    expect(formatBisectTable(result())).toContain('swapped layers: aes-core, cmac');
  });

  it('never show an incomplete bisect as a pass: a banner, "not measured" cases, :warning:', () => {
    const partial = result({
      complete: false,
      incomplete: { reason: 'interrupted after 1 of 4 rounds', interrupted: true, roundsDone: 1, roundsPlanned: 4 },
      cases: [
        bisectCase('a', { total: effect(1.001, 0.02, 'unchanged'), attributed: [], oneWay: [], notes: [] }),
        bisectCase('b', {
          status: 'not-measured',
          total: undefined,
          control: undefined,
          layers: [],
          attributed: [],
          oneWay: [],
          notes: [],
          problem: 'the all-good stack has no values: the bisect stopped before it was measured',
        }),
      ],
      summary: {
        regressed: 0,
        improved: 0,
        unchanged: 1,
        inconclusive: 0,
        failed: 0,
        notMeasured: 1,
        controlMoved: 0,
        attributed: {},
      },
    });
    expect(bisectIcon(partial)).toBe(':warning:');
    const table = formatBisectTable(partial);
    expect(table.split('\n')[0]).toBe(
      'Incomplete (interrupted after 1 of 4 rounds): 0 of 2 cases regressed, 0 improved, 1 unchanged, 0 inconclusive, 1 not measured',
    );
    expect(table).toContain('INCOMPLETE: interrupted after 1 of 4 rounds.');
    expect(table).toMatch(/\nb +n\/a +not measured/);
    const markdown = formatBisectMarkdown(partial);
    expect(markdown).toMatch(/^### :warning: layerbench bisect: Incomplete/);
    expect(markdown).toContain('**INCOMPLETE: interrupted after 1 of 4 rounds.');
    // A regression found before the interruption is still red, and still says it is incomplete.
    const red = result({
      complete: false,
      incomplete: { reason: 'interrupted after 2 of 4 rounds', interrupted: true, roundsDone: 2, roundsPlanned: 4 },
    });
    expect(bisectIcon(red)).toBe(':red_circle:');
    expect(formatBisectTable(red).split('\n')[0]).toMatch(
      /^Regression \(incomplete: interrupted after 2 of 4 rounds\)/,
    );
  });

  it('reads a bisect file, and refuses the schema-1 files of one process per variant by name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layerbench-bisect-file-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(result()));
    expect(readBisectResult(good).cases[0]!.control!.ratio).toBe(1.004);
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...result(), schemaVersion: 1 }));
    expect(() => readBisectResult(old)).toThrow(/unknown schemaVersion 1 \(this version reads 2\)/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ ...result(), complete: 'yes' }));
    expect(() => readBisectResult(broken)).toThrow(/complete/);
  });
});

describe('the notes of a bisect', () => {
  const leftOut = 'paired: process 2 of 6 left out: a stuck JIT outcome';
  const many = result({
    cases: [
      bisectCase('c1', { notes: [leftOut] }),
      bisectCase('c2', { notes: [leftOut, 'its own note'] }),
      bisectCase('c3', { notes: [] }),
      bisectCase('c4', { notes: [leftOut] }),
      bisectCase('c5', { notes: ['paired: process 5 of 6 left out: a stuck JIT outcome'] }),
    ],
  });

  it('give a note said of several cases once, naming every one of them; other notes stay per case', () => {
    const table = formatBisectTable(many);
    const notes = table.slice(table.indexOf('Notes:')).split('\n').slice(1);
    expect(notes).toEqual([
      `  3 cases: ${leftOut}: c1, c2, c4`,
      '  c2: its own note',
      '  c5: paired: process 5 of 6 left out: a stuck JIT outcome',
    ]);
    expect(formatBisectMarkdown(many)).toContain(`- 3 cases: ${leftOut}: c1, c2, c4\n`);
  });

  it('keep a note said of two cases as two lines', () => {
    const two = result({ cases: [bisectCase('c1', { notes: [leftOut] }), bisectCase('c2', { notes: [leftOut] })] });
    const table = formatBisectTable(two);
    expect(table).toContain(`  c1: ${leftOut}\n  c2: ${leftOut}`);
  });
});
