// What to run when two separate runs cannot tell: the cases whose ratio moved
// by more than the threshold but stayed inconclusive (the drift between
// separate runs is wider than the change), and the `layerbench bisect
// --paired` command that measures both sides in the same worker processes,
// with the commits the two runs' layers came from when each run names one.
import type { Comparison, EnvFingerprint } from '../types.js';

/** The one commit a run's code layers came from (the checkout it ran in), if they agree on one. */
export function runCommit(env: Pick<EnvFingerprint, 'layers'>): string | undefined {
  const commits = new Set(env.layers.filter((l) => l.name !== 'runtime').map((l) => l.commit));
  return commits.size === 1 ? [...commits][0] : undefined;
}

/**
 * A change separate runs (or processes of their own) could not tell: its
 * verdict inconclusive while its ratio moved by more than the threshold.
 */
export function movedButInconclusive(effect: { ratio: number; verdict: string }, threshold: number): boolean {
  return effect.verdict === 'inconclusive' && Math.abs(Math.log(effect.ratio)) > Math.log1p(threshold);
}

export interface SideBySide {
  /** The cases that moved beyond the threshold and are inconclusive, with their ratios. */
  cases: { id: string; ratio: number }[];
  /** The bisect --paired command (git:<commit> sides when both runs name one, else placeholders). */
  command: string;
  /** One sentence: how many cases, which, and why. */
  summary: string;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Undefined when no case moved beyond the threshold inconclusively, or the runs' environments differ. */
export function sideBySide(comparison: Comparison, suites: readonly string[] = []): SideBySide | undefined {
  if (comparison.incomparable?.length) return undefined;
  const moved = comparison.cases.filter((c) => movedButInconclusive(c, comparison.threshold));
  if (moved.length === 0) return undefined;
  const [good, bad] = [runCommit(comparison.base.env), runCommit(comparison.head.env)];
  const sides =
    good !== undefined && bad !== undefined && good !== bad
      ? `--good git:${good.slice(0, 12)} --bad git:${bad.slice(0, 12)}`
      : '--good git:<base commit> --bad git:<head commit>';
  const filter = moved.length <= 12 ? [`--filter '^(${moved.map((c) => escapeRegex(c.id)).join('|')})$'`] : [];
  const names = moved.slice(0, 3).map((c) => `${c.id} x${c.ratio.toFixed(3)}`);
  return {
    cases: moved.map((c) => ({ id: c.id, ratio: c.ratio })),
    command: ['layerbench bisect --paired', sides, ...suites.map((s) => `--suite ${s}`), ...filter].join(' '),
    summary: `${moved.length} case(s) moved by more than the threshold but cannot be told from the drift between separate runs (${names.join(', ')}${moved.length > 3 ? ', ...' : ''}).`,
  };
}
