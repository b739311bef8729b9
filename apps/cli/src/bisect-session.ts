// Inside `git bisect run`, the session already knows the range's bad end: git
// writes it to BISECT_LOG when it is marked (`# bad: [<commit>] <subject>`,
// or the session's own term for it, from BISECT_TERMS). `check --against
// <good>` takes it as --bad when none is named, so that a `git bisect run`
// step measures the two ends once and then only the cases that regressed
// between them, instead of every case the range touches at every step
// (140 cases a step over a range that touched aes-core and esp: 29 min).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { escapeRegExp } from './args.js';

/** What to name when the session's bad end is not wanted. */
export const eachStepHint = '--each-step: every step against --against alone';

/** The bad end of the git bisect session under way in a checkout. */
export interface BisectSessionEnd {
  /** The commit first marked bad (or with the session's term for bad): the far end of the range. */
  commit: string;
  /** The session's word for bad ('bad' unless `git bisect start --term-new`). */
  term: string;
}

/**
 * The first commit marked bad in BISECT_LOG, the bad end the session began
 * with, or undefined when `cwd` is in no git checkout, no session is under
 * way (no BISECT_START) or none has been marked bad yet.
 */
export function bisectSessionBad(cwd: string): BisectSessionEnd | undefined {
  const paths = spawnSync(
    'git',
    ['rev-parse', '--git-path', 'BISECT_START', '--git-path', 'BISECT_LOG', '--git-path', 'BISECT_TERMS'],
    { cwd, encoding: 'utf8' },
  );
  if (paths.status !== 0) return undefined;
  const [start, log, terms] = paths.stdout
    .trim()
    .split('\n')
    .map((path) => resolve(cwd, path));
  if (start === undefined || log === undefined || !existsSync(start) || !existsSync(log)) return undefined;
  const term =
    (terms !== undefined && existsSync(terms) ? readFileSync(terms, 'utf8').split('\n')[0]?.trim() : '') || 'bad';
  const marked = new RegExp(`^# ${escapeRegExp(term)}: \\[([0-9a-f]{40}|[0-9a-f]{64})\\]`, 'm').exec(
    readFileSync(log, 'utf8'),
  );
  return marked === null ? undefined : { commit: marked[1]!, term };
}
