// Which commits between the two ends changed a layer that bisect attributed a
// regression to. bisect swaps whole layers, so its answer is "aes-core did
// it", with the layer's commit on each side; when the range holds several
// commits, the next question is which of them. Most often only one of them
// touched that layer's folder, and git says so without measuring anything;
// when several did, `layerbench find` measures the commits.
import { spawnSync } from 'node:child_process';
import { escapeRegExp, shellWord } from '../args.js';
import type { ResolvedLayer } from './side-sources.js';

/** A commit that changed a layer's source. */
export interface LayerCommit {
  commit: string;
  subject: string;
}

/** The commits between the ends that changed one layer's folder. */
export interface LayerCommits {
  layer: string;
  /** The layer's folder in the repository, e.g. `packages/aes-core`. */
  folder: string;
  good: string;
  bad: string;
  /** Oldest first; README, changelog and test files left out (they do not change the built code). */
  commits: LayerCommit[];
  /** The bad side is the workspace and the folder has changes in no commit. */
  uncommitted: boolean;
}

// Files in a layer's folder that cannot change what its build runs.
const NOT_CODE = [':(exclude,glob)**/*.md', ':(exclude,glob)**/*.test.ts', ':(exclude,glob)**/test/**'];

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
export function layerCommits(repoRoot: string, good: ResolvedLayer, bad: ResolvedLayer): LayerCommits | undefined {
  if (good.commit === undefined) return undefined;
  const workspace = bad.source === 'workspace';
  const badCommit = bad.commit ?? (workspace ? git(repoRoot, ['rev-parse', 'HEAD']).out : undefined);
  if (!badCommit) return undefined;
  if (!git(repoRoot, ['merge-base', '--is-ancestor', good.commit, badCommit]).ok) return undefined;
  const folder = `packages/${good.name}`;
  const log = git(repoRoot, [
    'log',
    '--reverse',
    '--format=%H%x09%s',
    `${good.commit}..${badCommit}`,
    '--',
    folder,
    ...NOT_CODE.map((p) => p.replace(')', `)${folder}/`)),
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
    ? git(repoRoot, [
        'status',
        '--porcelain',
        '--untracked-files=all',
        '--',
        folder,
        ...NOT_CODE.map((p) => p.replace(')', `)${folder}/`)),
      ])
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
 * The lines saying which commits changed an attributed layer, and, when that
 * leaves more than one candidate, the `layerbench find` command that names
 * the one (over `caseId`, a case the layer explains).
 */
export function layerCommitsText(found: LayerCommits, caseId: string | undefined): string[] {
  const short = (c: string) => c.slice(0, 12);
  const range = `${short(found.good)}..${short(found.bad)}`;
  const n = found.commits.length;
  const status = `git status -- ${found.folder}`;
  const lines: string[] = [];
  if (n === 0) {
    lines.push(
      found.uncommitted
        ? `${found.layer}: no commit in ${range} changed ${found.folder}; the workspace has changes there in no commit (${status})`
        : `${found.layer}: no commit in ${range} changed ${found.folder} (README and test files left out): its built code differs through a shared build input`,
    );
  } else {
    lines.push(
      `${found.layer}: ${n === 1 ? '1 commit' : `${n} commits`} in ${range} changed ${found.folder} (README and test files left out):`,
    );
    for (const c of found.commits.slice(0, LISTED)) lines.push(`  ${short(c.commit)} ${c.subject}`);
    if (n > LISTED) lines.push(`  ... and ${n - LISTED} more (git log ${range} -- ${found.folder})`);
    if (found.uncommitted) lines.push(`  and the workspace has changes there in no commit (${status})`);
  }
  // find measures commits: worth it when several could be the one, or none of them changed the folder.
  if (caseId !== undefined && (n >= 2 || (n === 0 && !found.uncommitted))) {
    const filter = shellWord(`^${escapeRegExp(caseId)}$`);
    lines.push(
      `  To name the commit: layerbench find --good ${short(found.good)} --bad ${short(found.bad)} --filter ${filter}`,
    );
  }
  return lines;
}
