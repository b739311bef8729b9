// Layer bisection end to end on a real git history: a temporary clone of this
// repository gets a bad commit that re-creates the SHA-1 seed regression (the
// dispatcher silently falls back to the generic block function), and bisect,
// run as a user runs it, must name sha1-dispatch and the dispatch change.
// Offline and fast: the clone and its worktrees link this repository's
// node_modules instead of running `npm ci` (--deps link). No timing
// assertion: the slowdown is ~7x at 1500 B (wasm -> generic), far outside any noise, and only the
// attribution is checked.
import { join } from 'node:path';
import { readResultFile } from '@layerbench/bench-runner/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bisectResultSchema } from '../src/bisect/result.ts';
import { cloneHistory, forceGenericSha1, type History } from './bisect-history.ts';
import { runCli } from './spawn-cli.ts';

describe('bisect on a git history with a slowed layer', () => {
  let history: History;
  let dir: string;
  let repo: string;

  beforeAll(() => {
    history = cloneHistory('layerbench-bisect-');
    ({ dir, repo } = history);
    history.commit('sha1-dispatch: fall back to generic (test regression)', () => forceGenericSha1(repo));
  });

  afterAll(() => history?.remove());

  it('names sha1-dispatch and its dispatch change to generic, and exits 1', { timeout: 300_000 }, async () => {
    const out = join(dir, 'bisect.json');
    const run = await runCli(
      ['bisect', '--repo', repo, '--deps', 'link', '--good', 'git:HEAD~1', '--bad', 'git:HEAD', '--suite', 'sha1',
        '--filter', '^sha1/1500/dispatch$', '--time', '0.6', '--rounds', '6', '--out', out, '--format', 'markdown', '--quiet'],
      { cwd: repo },
    );
    expect(run.stderr).not.toMatch(/does not build|cannot run/);
    const result = readResultFile(out, bisectResultSchema, 'layerbench/bisect');
    // Only sha1-dispatch's code differs between the commits: the others are the same layer.
    expect(result.layers).toEqual(['sha1-dispatch']);
    expect(result.variants.map((v) => [v.id, v.status])).toEqual([
      ['good', 'ok'],
      ['bad', 'ok'],
      ['good+sha1-dispatch', 'ok'],
      ['bad-sha1-dispatch', 'ok'],
    ]);
    const c = result.cases.find((x) => x.id === 'sha1/1500/dispatch')!;
    expect(c.status).toBe('ok');
    expect(c.total!.verdict).toBe('regressed');
    expect(c.attributed).toEqual(['sha1-dispatch']);
    expect(c.implementations).toMatchObject({ good: expect.not.stringMatching(/^generic$/), bad: 'generic', 'good+sha1-dispatch': 'generic' });
    const dispatch = result.changes.filter((ch) => ch.kind === 'dispatch');
    expect(dispatch.length).toBeGreaterThan(0);
    expect(dispatch.some((ch) => /^generic/.test(ch.bad) && !/^generic/.test(ch.good) && ch.causedBy.includes('sha1-dispatch'))).toBe(true);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /\*\*sha1-dispatch\*\* explains 1 case: sha1-dispatch 0\.1\.0 -> 0\.1\.0 \(commit \w{7} -> \w{7}\): dispatch \w+ -> generic \(sha1\/1500\/dispatch\)/,
    );
  });
});
