// Which commits between the two ends changed a layer that bisect attributed a
// regression to. bisect swaps whole layers, so its answer is "aes-core did
// it", with the layer's commit on each side; when the range holds several
// commits, the next question is which of them. Often only one of them
// touched that layer's folder, and git says so without measuring anything;
// when several did, `layerbench find` measures the commits.
import { spawnSync } from 'node:child_process';
import { escapeRegExp, shellWord } from '../args.js';
import type { LayerCommits } from '@layerbench/bench-runner/results';
import type { ResolvedLayer } from './side-sources.js';
import type { CodeLayerName } from './side-spec.js';

export type { LayerCommits };

/** A layer's folder in the repository. */
function folderOf(layer: string): string {
  return `packages/${layer}`;
}

/** The pathspec of a layer's folder without the files that cannot change what its build runs. */
function codeOf(folder: string): string[] {
  return [folder, ...['**/*.md', '**/*.test.ts', '**/test/**'].map((glob) => `:(exclude,glob)${folder}/${glob}`)];
}

function git(repoRoot: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() };
}

/**
 * The commits between the good and the bad side's checkouts of `layer` that
 * changed its folder, when both come from commits of `repoRoot` (or the bad
 * side is its workspace); undefined otherwise (a directory, a tarball).
 * When the good commit is not an ancestor of the bad one (a base run of
 * main made after the head's branch left it), the commits of each side
 * since their common ancestor; when the checkout does not hold a commit (a
 * shallow clone, as CI checkouts are by default), none, and why.
 */
export function layerCommits(
  repoRoot: string,
  good: Pick<ResolvedLayer, 'name' | 'commit'>,
  bad: Pick<ResolvedLayer, 'commit' | 'source'>,
): LayerCommits | undefined {
  if (good.commit === undefined) return undefined;
  const workspace = bad.source === 'workspace';
  const badCommit = bad.commit ?? (workspace ? git(repoRoot, ['rev-parse', 'HEAD']).out : undefined);
  if (!badCommit) return undefined;
  const folder = folderOf(good.name);
  const ends = { layer: good.name, folder, good: good.commit, bad: badCommit };
  const unlisted = (why: string): LayerCommits => {
    const shallow = git(repoRoot, ['rev-parse', '--is-shallow-repository']).out === 'true';
    const fix = shallow
      ? 'it is a shallow clone: `git fetch --unshallow`, or in GitHub Actions `actions/checkout` with `fetch-depth: 0`'
      : 'a run of another repository, or of a commit not fetched here';
    return { ...ends, commits: [], uncommitted: false, unlisted: `${why} (${fix})` };
  };
  const missing = [good.commit, badCommit].find((c) => !git(repoRoot, ['cat-file', '-e', `${c}^{commit}`]).ok);
  if (missing !== undefined) return unlisted(`this checkout does not hold commit ${missing.slice(0, 12)}`);
  const diverged = !git(repoRoot, ['merge-base', '--is-ancestor', good.commit, badCommit]).ok;
  // Without a common ancestor (a shallow history cut between them) each side's log would run to its root.
  if (diverged && !git(repoRoot, ['merge-base', good.commit, badCommit]).ok)
    return unlisted(
      `this checkout holds no common ancestor of ${good.commit.slice(0, 12)} and ${badCommit.slice(0, 12)}`,
    );
  const commits = changedIn(repoRoot, `${good.commit}..${badCommit}`, folder);
  if (commits === undefined) return undefined;
  const goodSide = diverged ? changedIn(repoRoot, `${badCommit}..${good.commit}`, folder) : undefined;
  if (diverged && goodSide === undefined) return undefined;
  const status = workspace
    ? git(repoRoot, ['status', '--porcelain', '--untracked-files=all', '--', ...codeOf(folder)])
    : { ok: true, out: '' };
  return {
    ...ends,
    commits,
    uncommitted: status.ok && status.out !== '',
    ...(goodSide === undefined ? {} : { goodSideCommits: goodSide }),
  };
}

/** The commits of `range` (git log, oldest first) that changed the code of `folder`; undefined when git fails. */
function changedIn(repoRoot: string, range: string, folder: string): LayerCommits['commits'] | undefined {
  const log = git(repoRoot, ['log', '--reverse', '--format=%H%x09%s', range, '--', ...codeOf(folder)]);
  if (!log.ok) return undefined;
  return log.out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      return { commit: line.slice(0, tab), subject: line.slice(tab + 1) };
    });
}

/** How many commits a hint lists before it says how many more there are. */
const LISTED = 8;

/**
 * When the commits leave more than one candidate for a layer the bisect
 * attributed (several commits, or none: a shared build input), the lines
 * listing them and the `layerbench find` command that names the one, over
 * `caseId`, a case the layer explains, in `repo` when given; none when one commit, or only the
 * workspace's uncommitted changes, changed its folder (the report names it).
 */
export function findHintLines(found: LayerCommits, caseId: string | undefined, repo?: string): string[] {
  const n = found.commits.length;
  // find measures the commits of one line of history, from an ancestor: none to measure when the report
  // could list no commit, or the two ends diverged.
  if (found.unlisted !== undefined || found.goodSideCommits !== undefined) return [];
  // find measures commits: worth it when several could be the one, or none of them changed the folder.
  if (caseId === undefined || n === 1 || (n === 0 && found.uncommitted)) return [];
  const short = (c: string) => c.slice(0, 12);
  const range = `${short(found.good)}..${short(found.bad)}`;
  const lines =
    n === 0
      ? [
          `${found.layer}: no commit in ${range} changed ${found.folder} (README and test files left out): its built code differs through a shared build input.`,
        ]
      : [`${found.layer}: ${n} commits in ${range} changed ${found.folder} (README and test files left out):`];
  for (const c of found.commits.slice(0, LISTED)) lines.push(`  ${short(c.commit)} ${c.subject}`);
  if (n > LISTED) lines.push(`  ... and ${n - LISTED} more (git log ${range} -- ${found.folder})`);
  if (found.uncommitted)
    lines.push(`  and the workspace has changes there in no commit (git status -- ${found.folder})`);
  lines.push(
    `To name the commit: layerbench find ${repo === undefined ? '' : `--repo ${shellWord(repo)} `}--good ${short(found.good)} --bad ${short(found.bad)} --filter ${shellWord(`^${escapeRegExp(caseId)}$`)}`,
  );
  return lines;
}

/**
 * For `compare`: each layer whose built code differs between two runs, with
 * the commits between the runs' commits (their fingerprints') that changed
 * its folder (layerCommits: each side's when they diverged, why none when
 * `repoRoot` lacks one); none for the other layers. A run records the
 * commit its checkout was at, not whether it had uncommitted changes: two
 * runs of one commit whose code differs are recorded as no commit and
 * `uncommitted`.
 */
export function runLayerCommits(
  repoRoot: string,
  changed: readonly { layer: CodeLayerName; base?: string; head?: string }[],
): LayerCommits[] {
  return changed.flatMap(({ layer, base, head }): LayerCommits[] => {
    if (base === undefined || head === undefined) return [];
    if (base === head)
      return [{ layer, folder: folderOf(layer), good: base, bad: head, commits: [], uncommitted: true }];
    const found = layerCommits(repoRoot, { name: layer, commit: base }, { commit: head, source: `git:${head}` });
    return found === undefined ? [] : [found];
  });
}
