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
 * side is its workspace) and the good one is an ancestor of the bad one;
 * undefined otherwise (a directory, a tarball, unrelated commits).
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
  if (!git(repoRoot, ['merge-base', '--is-ancestor', good.commit, badCommit]).ok) return undefined;
  const folder = folderOf(good.name);
  const log = git(repoRoot, [
    'log',
    '--reverse',
    '--format=%H%x09%s',
    `${good.commit}..${badCommit}`,
    '--',
    ...codeOf(folder),
  ]);
  if (!log.ok) return undefined;
  const commits = log.out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      return { commit: line.slice(0, tab), subject: line.slice(tab + 1) };
    });
  const status = workspace
    ? git(repoRoot, ['status', '--porcelain', '--untracked-files=all', '--', ...codeOf(folder)])
    : { ok: true, out: '' };
  return {
    layer: good.name,
    folder,
    good: good.commit,
    bad: badCommit,
    commits,
    uncommitted: status.ok && status.out !== '',
  };
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
 * its folder, when `repoRoot` holds both and the base's is an ancestor of
 * the head's (layerCommits); none for the other layers. A run records the
 * commit its checkout was at, not whether it had uncommitted changes: two
 * runs of one commit whose code differs are recorded as no commit and
 * `uncommitted`.
 */
export function runLayerCommits(
  repoRoot: string,
  changed: readonly { layer: CodeLayerName; base?: string; head?: string }[],
): LayerCommits[] {
  return changed.flatMap(({ layer, base, head }) => {
    if (base === undefined || head === undefined) return [];
    if (base === head)
      return [{ layer, folder: folderOf(layer), good: base, bad: head, commits: [], uncommitted: true }];
    return layerCommits(repoRoot, { name: layer, commit: base }, { commit: head, source: `git:${head}` }) ?? [];
  });
}
