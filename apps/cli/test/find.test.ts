// `layerbench find` on a real history: after the good commit come a neutral
// commit, one that does not build, a neutral one, the regression (the SHA-1
// dispatcher forced to generic) and another neutral one. find must skip the
// broken commit, name the regression, and print the path it took. Worktrees
// link this repository's node_modules (--deps link); no timing assertion.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneHistory, forceGenericSha1, type History } from './bisect-history.ts';
import { runCli } from './spawn-cli.ts';

describe('find', () => {
  let history: History;
  let repo: string;
  const commits: Record<string, string> = {};

  beforeAll(() => {
    history = cloneHistory('layerbench-find-');
    repo = history.repo;
    commits['good'] = history.git('rev-parse', 'HEAD');
    const commit = (name: string, edit: () => void) => (commits[name] = history.commit(name, edit));
    const esp = join(repo, 'packages/esp/src/index.ts');
    const espText = readFileSync(esp, 'utf8');
    commit('neutral one', () => appendFileSync(join(repo, 'packages/aes-core/src/index.ts'), '\n// neutral one\n'));
    commit('does not build', () => appendFileSync(esp, "\nexport const broken: number = 'not a number';\n"));
    commit('neutral two (fixes the build)', () => writeFileSync(esp, espText));
    commit('the regression', () => forceGenericSha1(repo));
    commit('neutral three', () => appendFileSync(join(repo, 'packages/aes-core/src/index.ts'), '// neutral three\n'));
  });

  afterAll(() => history?.remove());

  it('skips the commit that does not build and names the regression', { timeout: 300_000 }, async () => {
    const run = await runCli(
      ['find', '--repo', repo, '--deps', 'link', '--good', commits['good']!, '--bad', 'HEAD', '--suite', 'sha1',
        '--filter', '^sha1/1500/dispatch$', '--time', '0.6', '--rounds', '6', '--quiet'],
      { cwd: repo },
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const short = (name: string) => commits[name]!.slice(0, 10);
    expect(run.stdout).toMatch(new RegExp(`skip ${short('does not build')}  \\(2/5\\) does not build`));
    expect(run.stdout).toMatch(new RegExp(`first commit where sha1/1500/dispatch changed \\(regressed, x[\\d.]+ overall\\): ${short('the regression')} the regression`));
    // The path: the bad end first, then each midpoint it measured.
    const path = run.stdout.split('\n').filter((l) => /^ {2}(bad|good|skip) /.test(l)).map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '));
    expect(path[0]).toBe(`bad ${short('neutral three')}`);
    expect(path).toContain(`skip ${short('does not build')}`);
    expect(path).toContain(`bad ${short('the regression')}`);
    expect(path).not.toContain(`bad ${short('neutral two (fixes the build)')}`);
  });
});
