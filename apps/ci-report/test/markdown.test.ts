// The Markdown report for fixed result files (two CI shards and a second
// machine, a comparison, a bisection) against a reviewed snapshot; merging of
// shards; the size limit; and exit 2 with a clear message for bad inputs.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFindResult, readRunResult } from '@layerbench/bench-runner/results';
import { formatReportMarkdown, GITHUB_COMMENT_LIMIT, mergeRuns, readReportInputs } from '../src/index.ts';
import { main } from '../src/report-cli.ts';
import { capture } from './capture.ts';

const fixture = (name: string) => `test/fixtures/${name}`;
const all = [
  'run-shard-1.json',
  'run-shard-2.json',
  'run-other-machine.json',
  'compare.json',
  'bisect.json',
  'find.json',
].map(fixture);

describe('readReportInputs', () => {
  it('merges the shards of one machine and keeps the other machine apart', () => {
    const inputs = readReportInputs(all);
    expect(inputs.runs.map((r) => [r.machineId, r.cases.length, r.shards])).toEqual([
      ['m-epyc-2', 12, ['1/2', '2/2']],
      ['m-xeon-4', 4, []],
    ]);
    expect(inputs.comparisons).toHaveLength(1);
    expect(inputs.bisects).toHaveLength(1);
    expect(inputs.finds).toHaveLength(1);
  });

  it('keeps the first of a case two shards both hold, and says so', () => {
    const one = readRunResult(fixture('run-shard-1.json'));
    const two = { ...one, options: { ...one.options, shard: '2/2' } };
    const [run] = mergeRuns([
      { file: 'a.json', data: one },
      { file: 'b.json', data: two },
    ]);
    expect(run!.shards).toEqual(['1/2', '2/2']);
    expect(run!.cases).toHaveLength(6);
    expect(run!.duplicates).toHaveLength(6);
  });
});

describe('formatReportMarkdown', () => {
  it('matches the reviewed snapshot', async () => {
    const text = formatReportMarkdown(readReportInputs(all));
    await expect(text).toMatchFileSnapshot('./snapshots/report.md');
  });

  it('stays under the GitHub limit by showing fewer rows, and says rows were left out', () => {
    const inputs = readReportInputs([fixture('compare.json')]);
    const cmp = inputs.comparisons[0]!.data;
    const base = cmp.cases[0]!;
    cmp.cases = Array.from({ length: 3000 }, (_, i) => ({
      ...base,
      id: `sha1/dispatch/size=${i}/with/a/long/case/name/to/fill/the/table`,
    }));
    const text = formatReportMarkdown(inputs);
    expect(text.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(text).toMatch(/_\d+ more changed cases are in the result files\._/);
  });
});

describe('layerbench-report', () => {
  it('exits 2 naming the file for a truncated result file', () => {
    const { out, io } = capture();
    expect(main([fixture('compare.json'), fixture('corrupt.json')], io)).toBe(2);
    expect(out.stderr).toMatch(/^layerbench-report: test\/fixtures\/corrupt\.json: .*(truncated|JSON)/i);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 for a file of an unknown kind, a missing file, and no file at all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    const odd = join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify({ kind: 'layerbench/calibration', schemaVersion: 1 }));
    for (const args of [[odd], [join(dir, 'missing.json')], []]) {
      const { out, io } = capture();
      expect(main(args, io)).toBe(2);
      expect(out.stderr).toMatch(/^layerbench-report: /);
    }
  });

  it('exits 2 for a bisect file that violates the schema, naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    const bad = join(dir, 'bisect.json');
    writeFileSync(bad, JSON.stringify({ kind: 'layerbench/bisect', schemaVersion: 2, createdAt: 'x', cases: 'no' }));
    const { out, io } = capture();
    expect(main([bad], io)).toBe(2);
    expect(out.stderr).toMatch(/bisect\.json/);
    expect(out.stderr).toMatch(/cases|options/);
  });

  it('prints Markdown to stdout, and exits 1 on a regression only when asked', () => {
    const { out, io } = capture();
    expect(main([fixture('compare.json')], io)).toBe(0);
    expect(out.stdout).toMatch(/^## layerbench: :red_circle: regression/);
    expect(main([fixture('compare.json'), '--fail-on-regression'], capture().io)).toBe(1);
    expect(main([fixture('run-shard-1.json'), '--fail-on-regression'], capture().io)).toBe(0);
  });

  it('never shows an incomplete bisection as green, and fails the gate on it', () => {
    // The bisection of the fixture, interrupted after one of five rounds with nothing regressed yet.
    const data = JSON.parse(readFileSync(fixture('bisect.json'), 'utf8')) as Record<string, unknown> & {
      summary: Record<string, unknown>;
    };
    data.complete = false;
    data.incomplete = { reason: 'interrupted after 1 of 5 rounds', interrupted: true, roundsDone: 1, roundsPlanned: 5 };
    data.summary = { ...data.summary, regressed: 0, unchanged: 1, notMeasured: 3, attributed: {} };
    data.cases = (data.cases as { status: string; total?: unknown }[]).map((c, i) =>
      i === 0 ? c : { ...c, status: 'not-measured', total: undefined },
    );
    const file = join(mkdtempSync(join(tmpdir(), 'layerbench-report-')), 'bisect-partial.json');
    writeFileSync(file, JSON.stringify(data));
    const { out, io } = capture();
    expect(main([file], io)).toBe(0);
    expect(out.stdout).toMatch(/^## layerbench: :warning: incomplete: no regression in what was measured/);
    expect(out.stdout).toContain('**Incomplete bisection** ');
    expect(out.stdout).toContain(
      'interrupted after 1 of 5 rounds: its numbers cover what was measured; it is not a pass.',
    );
    expect(out.stdout).toMatch(/#### :warning: layerbench bisect: Incomplete \(interrupted after 1 of 5 rounds\)/);
    expect(out.stdout).toMatch(/\| not measured \|/);
    expect(main([file, '--fail-on-regression'], capture().io)).toBe(1);
  });

  it('shows which commit a find named, with its steps, and counts its case once', () => {
    const find = readFindResult(fixture('find.json'));
    const { out, io } = capture();
    expect(main([fixture('find.json')], io)).toBe(0);
    expect(out.stdout).toMatch(/^## layerbench: :red_circle: regression/);
    expect(out.stdout).toContain('**1 case regressed, 0 improved** across 1 find.');
    expect(out.stdout).toContain('### Which commit');
    const first = find.answer.first!;
    expect(out.stdout).toContain(`first changed at **\`${first.commit.slice(0, 10)}\` ${first.subject}**`);
    // One table row per step, in order, after the whole change and its A/A control.
    const rows = out.stdout.split('\n').filter((l) => /^\| (whole|A\/A|\d+) \|/.test(l));
    expect(rows.map((r) => r.split('|')[1]!.trim())).toEqual([
      'whole',
      'A/A',
      ...find.steps.map((_, i) => String(i + 1)),
    ]);
    for (const [i, step] of find.steps.entries()) expect(rows[i + 2]).toContain(step.commit.slice(0, 10));
    expect(main([fixture('find.json'), '--fail-on-regression'], capture().io)).toBe(1);
  });

  it('never shows an interrupted find as green, and fails the gate on it', () => {
    const data = readFindResult(fixture('find.json'));
    const left = data.commits.slice(0, 3);
    const partial = {
      ...data,
      whole: { ...data.whole!, verdict: 'inconclusive' },
      steps: [],
      answer: {
        status: 'interrupted',
        candidates: left,
        message: 'INCOMPLETE: interrupted; the first changed commit is one of these',
      },
      exitCode: 3,
      complete: false,
    };
    const file = join(mkdtempSync(join(tmpdir(), 'layerbench-report-')), 'find-partial.json');
    writeFileSync(file, JSON.stringify(partial));
    const { out, io } = capture();
    expect(main([file], io)).toBe(0);
    expect(out.stdout).toMatch(/^## layerbench: :warning: incomplete: no regression in what was measured/);
    expect(out.stdout).toContain('**Incomplete find** ');
    expect(out.stdout).toContain(left.map((c) => `\`${c.commit.slice(0, 10)}\``).join(', '));
    expect(main([file, '--fail-on-regression'], capture().io)).toBe(1);
  });

  it('names the command that can tell for a case that moved beyond the threshold but stayed inconclusive', () => {
    const data = JSON.parse(readFileSync(fixture('compare.json'), 'utf8')) as {
      cases: { id: string; ratio: number; verdict: string }[];
      head: { env: { layers: { commit?: string }[] } };
    };
    // cmac/table/pl=48 read x1.16, inconclusive (a wide between-run interval); the head run at another commit.
    const moved = data.cases.find((c) => c.id === 'cmac/table/pl=48')!;
    moved.ratio = 1.16;
    for (const layer of data.head.env.layers) layer.commit = 'b'.repeat(40);
    const file = join(mkdtempSync(join(tmpdir(), 'layerbench-report-')), 'compare-moved.json');
    writeFileSync(file, JSON.stringify(data));
    const { out, io } = capture();
    expect(main([file], io)).toBe(0);
    expect(out.stdout).toContain('### What separate runs cannot tell');
    expect(out.stdout).toContain('1 case(s) moved by more than the threshold');
    expect(out.stdout).toContain(
      "layerbench bisect --paired --good git:aaaaaaa11111 --bad git:bbbbbbbbbbbb --filter '^(cmac/table/pl=48)$'",
    );
    // The fixture as it is (x1.016, within the threshold): no such section.
    const plain = capture();
    main([fixture('compare.json')], plain.io);
    expect(plain.out.stdout).not.toContain('What separate runs cannot tell');
  });

  it('names the commits compare recorded for the layers whose code differs', () => {
    const data = JSON.parse(readFileSync(fixture('compare.json'), 'utf8')) as Record<string, unknown>;
    data.layerCommits = [
      {
        layer: 'cmac',
        folder: 'packages/cmac',
        good: 'a'.repeat(40),
        bad: 'b'.repeat(40),
        commits: [{ commit: 'c'.repeat(40), subject: 'cmac: a | slower loop' }],
        uncommitted: false,
      },
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'layerbench-report-')), 'compare-commits.json');
    writeFileSync(file, JSON.stringify(data));
    const { out, io } = capture();
    expect(main([file], io)).toBe(0);
    expect(out.stdout).toContain(
      '**Commits that changed the layers whose code differs (README and test files left out):**\n\n' +
        '- cmac: 1 commit changed packages/cmac: cccccccccccc "cmac: a \\| slower loop"\n',
    );
    const plain = capture();
    main([fixture('compare.json')], plain.io);
    expect(plain.out.stdout).not.toContain('Commits that changed');
  });

  it('exits 2 for a find file that violates the schema, naming the field', () => {
    const data = JSON.parse(readFileSync(fixture('find.json'), 'utf8')) as { answer: { status: string } };
    data.answer.status = 'probably';
    const file = join(mkdtempSync(join(tmpdir(), 'layerbench-report-')), 'find-bad.json');
    writeFileSync(file, JSON.stringify(data));
    const { out, io } = capture();
    expect(main([file], io)).toBe(2);
    expect(out.stderr).toMatch(/find-bad\.json: .*answer\.status/);
  });
});
