// An unpaired bisect whose case moved beyond the threshold but stayed
// inconclusive names the same command with --paired.
import type { BisectResult } from '@layerbench/bench-runner/results';
import { describe, expect, it } from 'vitest';
import { emptyBisectCase } from '../src/bisect/run.ts';
import { argWords } from '../src/args.ts';
import { hintWords, longerVisitsHint, pairedHint } from '../src/commands/bisect.ts';

function resultWith(totals: [string, number, 'inconclusive' | 'unchanged' | 'regressed'][]): BisectResult {
  const cases = totals.map(([id, ratio, verdict]) => ({
    ...emptyBisectCase({ id, layer: 'sha1-dispatch', params: {} }),
    status: 'ok' as const,
    total: { ratio, ci: [ratio * 0.9, ratio * 1.1] as [number, number], pValue: 0.1, verdict },
  }));
  return { options: { threshold: 0.03 }, cases } as unknown as BisectResult;
}

describe('pairedHint', () => {
  it('names the cases that moved and repeats the command with --paired, quoted for a shell', () => {
    const hint = pairedHint(
      resultWith([
        ['sha1/1500/wasm', 1.062, 'inconclusive'],
        ['sha1/64/wasm', 1.01, 'inconclusive'],
        ['sha1/1500/node', 1.2, 'regressed'],
      ]),
      ['--good', 'git:HEAD~1', '--suite', 'sha1', '--filter', '^sha1/(64|1500)/', '--time', '1'],
    );
    expect(hint).toContain('1 case(s) moved by more than the threshold');
    expect(hint).toContain('(sha1/1500/wasm x1.062)');
    expect(hint).toContain(
      "  layerbench bisect --paired --good git:HEAD~1 --suite sha1 --filter '^sha1/(64|1500)/' --time 1",
    );
  });

  it('says nothing when no inconclusive case moved beyond the threshold', () => {
    expect(
      pairedHint(
        resultWith([
          ['a', 1.02, 'inconclusive'],
          ['b', 1.5, 'regressed'],
        ]),
        [],
      ),
    ).toBeUndefined();
  });
});

describe('longerVisitsHint', () => {
  it('names the cases that moved in a paired bisect and the command for them alone at 4x --time', () => {
    const hint = longerVisitsHint(
      resultWith([
        ['aes/aes-128/block/table', 1.109, 'inconclusive'],
        ['aes/aes-128/cbc-enc/1024/table', 0.999, 'inconclusive'],
      ]),
      ['--paired', '--good', 'git:abc', '--suite', 'aes', '--filter=^aes/', '--time', '0.6', '--processes', '5'],
      0.6,
      5,
    );
    expect(hint).toContain('1 case(s) moved by more than the threshold but are inconclusive compared within processes');
    expect(hint).toContain('(aes/aes-128/block/table x1.109)');
    expect(hint).toContain(
      "  layerbench bisect --paired --good git:abc --suite aes --filter '^(aes/aes-128/block/table)$' --time 2.4 --processes 10",
    );
    expect(longerVisitsHint(resultWith([['a', 1.01, 'inconclusive']]), [], 0.6, 6)).toBeUndefined();
  });
});

describe('a hinted command never overwrites the result file of the bisect that printed it', () => {
  const moved = resultWith([['sha1/1500/wasm', 1.062, 'inconclusive']]);

  it('points --out at a file beside it, in both hints and both spellings', () => {
    expect(pairedHint(moved, ['--suite', 'sha1', '--out', '/tmp/r/bisect.json'])).toContain(
      '  layerbench bisect --paired --suite sha1 --out /tmp/r/bisect.paired.json',
    );
    expect(longerVisitsHint(moved, ['--paired', '--out=run.JSON', '--suite', 'sha1'], 0.6, 6)).toContain(
      '  layerbench bisect --paired --out run.longer.json --suite sha1 --filter',
    );
    expect(argWords(hintWords(['--out', 'result'], 'longer', []))).toEqual(['--out', 'result.longer.json']);
    expect(argWords(hintWords(['--good', 'git:HEAD~1', '--bad', 'workspace'], 'longer', []))).toEqual([
      '--good',
      'git:HEAD~1',
      '--bad',
      'workspace',
    ]);
  });
});

describe('a hinted command is built from the parsed options, not by scanning the raw arguments', () => {
  const moved = resultWith([['sha1/1500/wasm', 1.062, 'inconclusive']]);

  it('keeps a value that looks like a flag as the value it was, and drops only the options the hint sets', () => {
    // A filter whose text is literally '--out', and an --out file named like a flag: the raw-argument
    // scan took the first for the --out option and the second's value for a --time to drop.
    const hint = longerVisitsHint(
      moved,
      ['--paired', '--filter=--out', '--out', 'x.json', '--repo=--time', '--time', '0.6', '--quiet'],
      0.6,
      6,
    );
    expect(hint).toContain(
      "  layerbench bisect --paired --out x.longer.json --repo=--time --quiet --filter '^(sha1/1500/wasm)$' --time 2.4 --processes 12",
    );
    expect(pairedHint(moved, ['--separate', '--repo', 'paired', '--out=--weird'])).toContain(
      '  layerbench bisect --paired --repo paired --out=--weird.paired.json',
    );
  });
});
