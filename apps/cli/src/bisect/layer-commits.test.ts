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
        // A run without a commit: nothing.
        { layer: 'sha1-dispatch', base: c.base },
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

  it('is undefined when a side has no commit', () => {
    expect(layerCommits(repo, side('aes-core', 'dir:/x'), side('aes-core', 'git:HEAD', c.moreTests))).toBeUndefined();
    expect(
      layerCommits(repo, side('aes-core', 'git:HEAD', c.moreTests), side('aes-core', 'tgz:/x.tgz')),
    ).toBeUndefined();
  });

  it("lists each side's commits since the common ancestor when the good end is not an ancestor of the bad one", () => {
    // The bad end older than the good one: the commits are all on the good side.
    expect(layerCommits(repo, side('aes-core', 'git:HEAD', c.moreTests), side('aes-core', 'git:base', c.base))).toEqual(
      {
        layer: 'aes-core',
        folder: 'packages/aes-core',
        good: c.moreTests,
        bad: c.base,
        commits: [],
        uncommitted: false,
        goodSideCommits: [{ commit: c.aes, subject: "aes-core: the slow one's" }],
      },
    );
    // A base run of main made after the head's branch left it: a commit on each side.
    const main = git('rev-parse', '--abbrev-ref', 'HEAD');
    git('checkout', '-q', '-b', 'branch', c.esp);
    try {
      const branch = commit('packages/aes-core/src/other.ts', 'export const b = 1;\n', 'aes-core: on the branch');
      const found = runLayerCommits(repo, [{ layer: 'aes-core', base: c.moreTests, head: branch }]);
      expect(found).toEqual([
        {
          layer: 'aes-core',
          folder: 'packages/aes-core',
          good: c.moreTests,
          bad: branch,
          commits: [{ commit: branch, subject: 'aes-core: on the branch' }],
          uncommitted: false,
          goodSideCommits: [{ commit: c.aes, subject: "aes-core: the slow one's" }],
        },
      ]);
      // Diverged ends leave no ancestor range for find to measure.
      expect(findHintLines(found[0]!, 'aes/aes-128/block/ct')).toEqual([]);
    } finally {
      git('checkout', '-q', main);
    }
  });

  it('says why it lists no commit when the checkout lacks one: a shallow clone, or a commit never fetched', () => {
    const missing = 'f'.repeat(40);
    expect(runLayerCommits(repo, [{ layer: 'esp', base: missing, head: c.moreTests }])).toEqual([
      {
        layer: 'esp',
        folder: 'packages/esp',
        good: missing,
        bad: c.moreTests,
        commits: [],
        uncommitted: false,
        unlisted:
          'this checkout does not hold commit ffffffffffff (a run of another repository, or of a commit not fetched here)',
      },
    ]);
    // Two commits of unrelated histories: no range to read.
    const main = git('rev-parse', '--abbrev-ref', 'HEAD');
    git('checkout', '-q', '--orphan', 'unrelated');
    try {
      const orphan = commit('packages/esp/src/index.ts', 'export const e = 9;\n', 'esp: another history');
      expect(runLayerCommits(repo, [{ layer: 'esp', base: c.moreTests, head: orphan }])[0]?.unlisted).toBe(
        `this checkout holds no common ancestor of ${c.moreTests!.slice(0, 12)} and ${orphan.slice(0, 12)} (a run of another repository, or of a commit not fetched here)`,
      );
    } finally {
      git('checkout', '-q', '-f', main);
    }
    const shallow = mkdtempSync(join(tmpdir(), 'layerbench-layer-commits-shallow-'));
    try {
      const clone = spawnSync('git', ['clone', '-q', '--depth', '1', `file://${repo}`, shallow], { encoding: 'utf8' });
      expect(clone.status, clone.stderr).toBe(0);
      const [found] = runLayerCommits(shallow, [{ layer: 'aes-core', base: c.base, head: c.moreTests }]);
      expect(found?.commits).toEqual([]);
      expect(found?.unlisted).toBe(
        `this checkout does not hold commit ${c.base!.slice(0, 12)} (it is a shallow clone: \`git fetch --unshallow\`, or in GitHub Actions \`actions/checkout\` with \`fetch-depth: 0\`)`,
      );
      expect(findHintLines(found!, 'aes/aes-128/block/ct')).toEqual([]);
    } finally {
      rmSync(shallow, { recursive: true, force: true });
    }
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
