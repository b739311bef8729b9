// The commits that changed an attributed layer between bisect's ends, read from a real throwaway repository.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHintLines, layerCommits, runLayerCommits, type LayerCommits } from './layer-commits.js';
import type { ResolvedLayer } from './side-sources.js';

describe('layerCommits', () => {
  let repo: string;
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const commit = (path: string, text: string, subject: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
    git('add', path);
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', subject);
    return git('rev-parse', 'HEAD');
  };
  const side = (name: 'aes-core' | 'esp', source: string, commit?: string): ResolvedLayer => ({
    name,
    packageName: `@layerbench/${name}`,
    dir: join(repo, 'packages', name),
    source,
    ...(commit === undefined ? {} : { commit }),
  });
  const c: Record<string, string> = {};

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'layerbench-layer-commits-'));
    git('init', '-q');
    c.base = commit('packages/aes-core/src/index.ts', 'export const a = 1;\n', 'base');
    c.esp = commit('packages/esp/src/index.ts', 'export const e = 1;\n', 'esp: a harmless export');
    c.aes = commit('packages/aes-core/src/index.ts', 'export const a = 2;\n', "aes-core: the slow one's");
    c.readme = commit('packages/aes-core/README.md', 'docs\n', 'aes-core: README');
    c.tests = commit('packages/aes-core/src/index.test.ts', 'test\n', 'aes-core: a test');
    c.moreTests = commit('packages/aes-core/test/more.ts', 'test\n', 'aes-core: a test folder');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('lists the commits that changed the layer folder, oldest first, README and test files left out', () => {
    const found = layerCommits(repo, side('aes-core', 'git:base', c.base), side('aes-core', 'git:HEAD', c.moreTests));
    expect(found).toMatchObject({ layer: 'aes-core', folder: 'packages/aes-core', good: c.base, bad: c.moreTests });
    expect(found?.commits).toEqual([{ commit: c.aes, subject: "aes-core: the slow one's" }]);
    expect(found?.uncommitted).toBe(false);
    const esp = layerCommits(repo, side('esp', 'git:base', c.base), side('esp', 'git:HEAD', c.moreTests));
    expect(esp?.commits.map((x) => x.commit)).toEqual([c.esp]);
  });

  it('takes the workspace as HEAD and says when the folder has changes in no commit', () => {
    const good = side('aes-core', 'git:base', c.base);
    expect(layerCommits(repo, good, side('aes-core', 'workspace'))).toMatchObject({
      bad: c.moreTests,
      uncommitted: false,
    });
    writeFileSync(join(repo, 'packages/aes-core/src/index.ts'), 'export const a = 3;\n');
    writeFileSync(join(repo, 'packages/aes-core/README.md'), 'more docs\n');
    try {
      expect(layerCommits(repo, good, side('aes-core', 'workspace'))?.uncommitted).toBe(true);
      // A README edit alone is not a change of the code.
      git('checkout', '--', 'packages/aes-core/src/index.ts');
      expect(layerCommits(repo, good, side('aes-core', 'workspace'))?.uncommitted).toBe(false);
    } finally {
      git('checkout', '--', 'packages');
    }
  });

  it("records, for compare, the commits between two runs' commits for each layer whose code differs", () => {
    expect(
      runLayerCommits(repo, [
        { layer: 'aes-core', base: c.base, head: c.moreTests },
        { layer: 'esp', base: c.aes, head: c.moreTests },
        { layer: 'cmac', base: c.base, head: c.base },
        // A run without a commit, and a base that is not an ancestor of the head: nothing.
        { layer: 'sha1-dispatch', base: c.base },
        { layer: 'bench-runner', base: c.moreTests, head: c.base },
      ]),
    ).toEqual([
      {
        layer: 'aes-core',
        folder: 'packages/aes-core',
        good: c.base,
        bad: c.moreTests,
        commits: [{ commit: c.aes, subject: "aes-core: the slow one's" }],
        uncommitted: false,
      },
      { layer: 'esp', folder: 'packages/esp', good: c.aes, bad: c.moreTests, commits: [], uncommitted: false },
      { layer: 'cmac', folder: 'packages/cmac', good: c.base, bad: c.base, commits: [], uncommitted: true },
    ]);
  });

  it('is undefined when a side has no commit, or the good end is not an ancestor of the bad one', () => {
    expect(layerCommits(repo, side('aes-core', 'dir:/x'), side('aes-core', 'git:HEAD', c.moreTests))).toBeUndefined();
    expect(
      layerCommits(repo, side('aes-core', 'git:HEAD', c.moreTests), side('aes-core', 'tgz:/x.tgz')),
    ).toBeUndefined();
    expect(
      layerCommits(repo, side('aes-core', 'git:HEAD', c.moreTests), side('aes-core', 'git:base', c.base)),
    ).toBeUndefined();
  });
});

describe('findHintLines', () => {
  const good = 'a'.repeat(40);
  const bad = 'b'.repeat(40);
  const found = (commits: number, uncommitted = false): LayerCommits => ({
    layer: 'aes-core',
    folder: 'packages/aes-core',
    good,
    bad,
    commits: Array.from({ length: commits }, (_, i) => ({ commit: String(i).repeat(40), subject: `change ${i}` })),
    uncommitted,
  });
  const caseId = 'cmac/aes-128/pl=48/preloaded/ct';
  const find =
    "To name the commit: layerbench find --good aaaaaaaaaaaa --bad bbbbbbbbbbbb --filter '^cmac/aes-128/pl=48/preloaded/ct$'";

  it('says nothing when one commit changed the folder (the report names it), or only the workspace did', () => {
    expect(findHintLines(found(1), caseId)).toEqual([]);
    expect(findHintLines(found(1, true), caseId)).toEqual([]);
    expect(findHintLines(found(0, true), caseId)).toEqual([]);
  });

  it('lists several, at most eight, and gives the find command for a case the layer explains', () => {
    const lines = findHintLines(found(10), caseId);
    expect(lines[0]).toBe(
      'aes-core: 10 commits in aaaaaaaaaaaa..bbbbbbbbbbbb changed packages/aes-core (README and test files left out):',
    );
    expect(lines.filter((line) => /^ {2}\d{12} change \d$/.test(line))).toHaveLength(8);
    expect(lines).toContain('  ... and 2 more (git log aaaaaaaaaaaa..bbbbbbbbbbbb -- packages/aes-core)');
    expect(lines.at(-1)).toBe(find);
    expect(findHintLines(found(2, true), caseId)).toContain(
      '  and the workspace has changes there in no commit (git status -- packages/aes-core)',
    );
  });

  it('when no commit changed the folder: a shared build input, and find', () => {
    const lines = findHintLines(found(0), caseId);
    expect(lines[0]).toContain('its built code differs through a shared build input');
    expect(lines.at(-1)).toBe(find);
  });

  it('quotes a case id a shell would read otherwise, escaped as a regular expression; no case, no command', () => {
    expect(findHintLines(found(2), 'esp/seal/pl=1400/ct+wasm/split').at(-1)).toContain(
      "--filter '^esp/seal/pl=1400/ct\\+wasm/split$'",
    );
    expect(findHintLines(found(2), undefined)).toEqual([]);
    expect(findHintLines(found(2), caseId, '/work/my repo').at(-1)).toBe(
      "To name the commit: layerbench find --repo '/work/my repo' --good aaaaaaaaaaaa --bad bbbbbbbbbbbb --filter '^cmac/aes-128/pl=48/preloaded/ct$'",
    );
  });
});
