// Which commits changed a layer's folder, in words: bisect's `Attributed:`
// line names them for each attributed layer, compare's report for each layer
// whose built code differs between the runs.
import type { LayerCommits } from '../results/schemas.js';
import { markdownCell } from './markdown-cell.js';

/**
 * The commits that changed the layer's folder, e.g. `1 commit changed
 * packages/aes-core: 61e54548f956 "aes-core ct: ..."` (the subject quoted: it
 * can hold the ';', ':' and ')' a line is built of), `3 commits changed
 * packages/aes-core: git log <good>..<bad> -- packages/aes-core`, why no
 * commit did, the commits on each side when the two commits' histories
 * diverged, or why none could be listed.
 */
export function describeLayerCommits(found: LayerCommits): string {
  if (found.unlisted !== undefined) return `commits not listed: ${found.unlisted}`;
  const n = found.commits.length;
  const workspace = found.uncommitted ? ' and the workspace has changes there in no commit' : '';
  const { good, bad, folder } = found;
  if (found.goodSideCommits !== undefined) {
    return `${short(good)} is not an ancestor of ${short(bad)}; since their common ancestor ${folder} was changed on ${short(bad)}'s side ${byCommits(found.commits, logOf(good, bad, folder))}${workspace}, and on ${short(good)}'s side ${byCommits(found.goodSideCommits, logOf(bad, good, folder))}`;
  }
  if (n === 0) {
    return found.uncommitted
      ? `no commit changed ${folder}; the workspace has changes there in no commit`
      : `no commit changed ${folder}: its built code differs through a shared build input`;
  }
  if (n === 1) return `1 commit changed ${folder}${workspace}: ${named(found.commits[0]!)}`;
  return `${n} commits changed ${folder}${workspace}: ${logOf(good, bad, folder)}`;
}

const short = (commit: string): string => commit.slice(0, 12);

/** One commit as the lines name it: `<id> "<subject>"` (quoted: a subject can hold the ';', ':' and ')' a line is built of). */
const named = (c: LayerCommits['commits'][number]): string => `${short(c.commit)} ${JSON.stringify(c.subject)}`;

/** The command that lists the commits from `from` to `to` that changed `folder`. */
const logOf = (from: string, to: string, folder: string): string => `git log ${short(from)}..${short(to)} -- ${folder}`;

/** `by no commit`, `by 1 commit, <id> "<subject>"` or `by 3 commits (<log>)`. */
function byCommits(commits: LayerCommits['commits'], log: string): string {
  if (commits.length === 0) return 'by no commit';
  if (commits.length === 1) return `by 1 commit, ${named(commits[0]!)}`;
  return `by ${commits.length} commits (${log})`;
}

/** The heading of the list of layerCommitsLines in a report of a comparison (in Markdown capitalised: layerCommitsMarkdown). */
export const layerCommitsHeading =
  'commits that changed the layers whose code differs (README and test files left out)';
const layerCommitsTitle = `${layerCommitsHeading[0]!.toUpperCase()}${layerCommitsHeading.slice(1)}`;

/** One line per layer, `<layer>: <describeLayerCommits>`, in the order recorded. */
export function layerCommitsLines(list: readonly LayerCommits[]): string[] {
  return list.map((found) => `${found.layer}: ${describeLayerCommits(found)}`);
}

/** The Markdown block of these layerCommitsLines: a bold title, one item each, a blank line; nothing without lines. */
export function layerCommitsMarkdown(lines: readonly string[]): string[] {
  return lines.length === 0
    ? []
    : [`**${layerCommitsTitle}:**`, '', ...lines.map((line) => `- ${markdownCell(line)}`), ''];
}
