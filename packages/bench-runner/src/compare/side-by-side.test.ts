import { describe, expect, it } from 'vitest';
import type { Comparison } from '../types.js';
import { measuredAs, runCommit, sideBySide } from './side-by-side.js';

const env = (commit?: string) => ({
  layers: [
    { name: '@layerbench/sha1-dispatch', version: '0.1.0', contentHash: 'e'.repeat(64), ...(commit ? { commit } : {}) },
    { name: 'runtime', version: 'v20.20.2' },
  ],
});

function comparison(cases: [string, number, string][], base?: string, head?: string): Comparison {
  // Each side its own fingerprint, so that a test may change one.
  return {
    threshold: 0.03,
    base: { env: env(base) },
    head: { env: env(head) },
    cases: cases.map(([id, ratio, verdict]) => ({ id, ratio, verdict })),
  } as unknown as Comparison;
}

describe('sideBySide', () => {
  it('names the inconclusive cases that moved beyond the threshold and the paired bisect of the two commits', () => {
    const hint = sideBySide(
      comparison(
        [
          ['sha1/1500/wasm', 1.081, 'inconclusive'],
          ['sha1/64/wasm', 0.85, 'inconclusive'],
          ['sha1/64/node', 1.01, 'inconclusive'],
          ['sha1/64/dispatch', 4.5, 'regressed'],
        ],
        'a'.repeat(40),
        'b'.repeat(40),
      ),
      ['sha1'],
    );
    expect(hint?.cases.map((c) => c.id)).toEqual(['sha1/1500/wasm', 'sha1/64/wasm']);
    expect(hint?.command).toBe(
      `layerbench bisect --paired --good git:${'a'.repeat(12)} --bad git:${'b'.repeat(12)} --suite sha1 --filter '^(sha1/1500/wasm|sha1/64/wasm)$'`,
    );
    expect(hint?.summary).toMatch(
      /^2 case\(s\) moved by more than the threshold .*\(sha1\/1500\/wasm x1\.081, sha1\/64\/wasm x0\.850\)/,
    );
  });

  it('says apart the cases whose interval is clear of no change but not of the threshold', () => {
    // As measured (2026-12-06 02:30-03:15 UTC, 8-12 processes a side under a busy loop): +5% read x1.047 [1.013, 1.084].
    const c = comparison([
      ['sha1/1500/wasm', 1.047, 'inconclusive'],
      ['sha1/64/wasm', 1.06, 'inconclusive'],
      ['sha1/64/unrolled', 0.95, 'inconclusive'],
    ]);
    (c.cases[0] as { ratioCi: [number, number] }).ratioCi = [1.013, 1.084];
    (c.cases[1] as { ratioCi: [number, number] }).ratioCi = [0.98, 1.15];
    (c.cases[2] as { ratioCi: [number, number] }).ratioCi = [0.91, 0.991];
    const hint = sideBySide(c);
    expect(hint?.cases.map((x) => x.id)).toEqual(['sha1/1500/wasm', 'sha1/64/wasm', 'sha1/64/unrolled']);
    expect(hint?.summary).toBe(
      '1 case(s) moved by more than the threshold but cannot be told from the drift between separate runs (sha1/64/wasm x1.060). ' +
        '2 case(s) moved beyond the drift between separate runs (the interval excludes no change) but not surely by more than the 3.0% threshold (sha1/1500/wasm x1.047 [1.013, 1.084], sha1/64/unrolled x0.950 [0.910, 0.991]).',
    );
    // Only such cases: one sentence.
    const only = comparison([['sha1/1500/wasm', 1.047, 'inconclusive']]);
    (only.cases[0] as { ratioCi: [number, number] }).ratioCi = [1.013, 1.084];
    expect(sideBySide(only)?.summary).toMatch(/^1 case\(s\) moved beyond the drift .*\[1\.013, 1\.084\]\)\.$/);
  });

  it('uses placeholders when a run names no single commit, or both name the same one with different builds', () => {
    const noCommit = sideBySide(comparison([['a', 1.2, 'inconclusive']], undefined, 'b'.repeat(40)));
    expect(noCommit?.command).toContain('--good git:<base commit> --bad git:<head commit>');
    expect(noCommit?.lead).toBe('To tell, measure both sides in the same worker processes:');
    // One commit, but the head's sha1-dispatch was built from other sources (an uncommitted edit).
    const edited = comparison([['a', 1.2, 'inconclusive']], 'c'.repeat(40), 'c'.repeat(40));
    edited.head.env.layers[0]!.contentHash = 'f'.repeat(64);
    expect(sideBySide(edited)?.command).toContain('--good git:<base commit>');
  });

  it('asks for runs of several processes, not a bisect, when both runs are of one commit and one build', () => {
    const hint = sideBySide(comparison([['sha1/1500/wasm', 1.05, 'inconclusive']], 'c'.repeat(40), 'c'.repeat(40)), [
      'sha1',
    ]);
    expect(hint?.command).toBe("layerbench run sha1 --processes 4 --filter '^(sha1/1500/wasm)$' --out <side>.json");
    // The runs' --time is repeated, and runs of more processes are not asked for fewer.
    const measured = sideBySide(
      comparison([['sha1/1500/wasm', 1.05, 'inconclusive']], 'c'.repeat(40), 'c'.repeat(40)),
      ['sha1'],
      { timePerCase: 0.3, processes: 6 },
    );
    expect(measured?.command).toBe(
      "layerbench run sha1 --time 0.3 --processes 6 --filter '^(sha1/1500/wasm)$' --out <side>.json",
    );
    expect(hint?.lead).toMatch(
      /^Both runs are of commit c{12} with the same built code, so what moved is the machine between the runs or their environment \(above\), which bisect, comparing code, cannot set apart\. To narrow the intervals, measure each side again in several processes and compare:$/,
    );
    // A layer without a content hash is not known to be the same build.
    const unknown = comparison([['a', 1.2, 'inconclusive']], 'c'.repeat(40), 'c'.repeat(40));
    delete unknown.base.env.layers[0]!.contentHash;
    expect(sideBySide(unknown)?.command).toContain('layerbench bisect --paired');
  });

  it('says nothing between different environments or when nothing moved', () => {
    const other = {
      ...comparison([['a', 1.5, 'inconclusive']], 'a'.repeat(40), 'b'.repeat(40)),
      incomparable: ['node'],
    };
    expect(sideBySide(other as Comparison)).toBeUndefined();
    expect(sideBySide(comparison([['a', 1.02, 'inconclusive']]))).toBeUndefined();
  });

  it('measuredAs: the longest --time and the most processes of the runs; nothing for no run', () => {
    expect(measuredAs([{ options: { timePerCase: 0.3 }, processes: 6 }, { options: { timePerCase: 1 } }])).toEqual({
      timePerCase: 1,
      processes: 6,
    });
    expect(measuredAs([])).toEqual({});
  });

  it('runCommit: the one commit of the code layers, the runtime aside', () => {
    expect(runCommit(env('f'.repeat(40)))).toBe('f'.repeat(40));
    expect(
      runCommit({ layers: [...env('a').layers, { name: '@layerbench/cmac', version: '0.1.0', commit: 'b' }] }),
    ).toBeUndefined();
  });
});
