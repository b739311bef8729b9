// Layer bisection end to end on a real git history: a temporary clone of this
// repository gets a bad commit that re-creates the SHA-1 seed regression (the
// dispatcher silently falls back to the generic block function), and bisect,
// run as a user runs it, must name sha1-dispatch and the dispatch change.
// Offline and fast: the clone and its worktrees link this repository's
// node_modules instead of running `npm ci` (--deps link). No timing
// assertion: the slowdown is ~7x at 1500 B (wasm -> generic), far outside any noise, and only the
// attribution is checked.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResultFile } from '@layerbench/bench-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bisectResultSchema } from '../src/compose/bisect-result.ts';
import { findRepoRoot, linkNodeModules } from '../src/compose/sources.ts';
import { runCli } from './spawn-cli.ts';

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', ['-c', 'user.name=layerbench test', '-c', 'user.email=test@layerbench.invalid', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** The seed's bug, re-created: the dispatcher ends up on the generic block function. */
const FALLBACK_EDIT = {
  file: 'packages/sha1-dispatch/src/dispatch.ts',
  from: "const envImpl = env['LAYERBENCH_SHA1_IMPL'];",
  to: "const envImpl = env['LAYERBENCH_SHA1_IMPL'] ?? 'generic';",
};

describe('bisect on a git history with a slowed layer', () => {
  let dir: string;
  let repo: string;

  beforeAll(() => {
    const root = findRepoRoot(process.cwd());
    dir = mkdtempSync(join(tmpdir(), 'layerbench-bisect-'));
    repo = join(dir, 'repo');
    git(dir, 'clone', '--quiet', '--shared', root, repo);
    linkNodeModules(root, repo);
    const path = join(repo, FALLBACK_EDIT.file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(FALLBACK_EDIT.from)) throw new Error(`${FALLBACK_EDIT.file} no longer has the line this test edits`);
    writeFileSync(path, text.replace(FALLBACK_EDIT.from, FALLBACK_EDIT.to));
    git(repo, 'commit', '--quiet', '-am', 'sha1-dispatch: fall back to generic (test regression)');
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

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
