// What to run when two separate runs cannot tell: the cases whose ratio moved
// by more than the threshold but stayed inconclusive (the drift between
// separate runs is wider than the change, or the interval is clear of no
// change but not of the threshold; the summary says which), and the `layerbench bisect
// --paired` command that measures both sides in the same worker processes,
// with the commits the two runs' layers came from when each run names one
// (or, for two runs of one commit and one build, runs of several processes).
import type { Comparison, EnvFingerprint, RunResult } from '../types.js';

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

/**
 * Of such a change, whether its interval is clear of no change (excludes 1):
 * beyond the drift between the runs, but not surely beyond the threshold.
 */
export function clearOfNoChange(effect: { ratioCi?: readonly [number, number] }): boolean {
  const ci = effect.ratioCi;
  return ci !== undefined && (ci[0] > 1 || ci[1] < 1);
}

export interface SideBySide {
  /** The cases that moved beyond the threshold and are inconclusive, with their ratios. */
  cases: { id: string; ratio: number }[];
  /**
   * The bisect --paired command (git:<commit> sides when both runs name one,
   * else placeholders); when both runs are of one commit with the same
   * built code, which bisect cannot set apart, `layerbench run --processes 4`
   * (more when the runs had more) at the runs' --time, written to a file per
   * side.
   */
  command: string;
  /** One sentence: how many cases, which, and why. */
  summary: string;
  /** What the command is for, ending in a colon: said before it. */
  lead: string;
}

/** Whether the two runs' code layers (all but the runtime) have the same built code (content hashes). */
function sameBuiltCode(base: Pick<EnvFingerprint, 'layers'>, head: Pick<EnvFingerprint, 'layers'>): boolean {
  const code = (env: Pick<EnvFingerprint, 'layers'>) =>
    new Map(env.layers.filter((l) => l.name !== 'runtime').map((l) => [l.name, l.contentHash]));
  const [b, h] = [code(base), code(head)];
  return b.size === h.size && [...b].every(([name, hash]) => hash !== undefined && h.get(name) === hash);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How the two runs were measured, for the `layerbench run` the hint names: their --time and processes. */
export interface MeasuredAs {
  timePerCase?: number;
  processes?: number;
}

/** How runs were measured, for sideBySide: the longest --time of theirs and the most processes. */
export function measuredAs(runs: readonly Pick<RunResult, 'options' | 'processes'>[]): MeasuredAs {
  if (runs.length === 0) return {};
  return {
    timePerCase: Math.max(...runs.map((run) => run.options.timePerCase)),
    processes: Math.max(...runs.map((run) => run.processes ?? 1)),
  };
}

/**
 * Undefined when no case moved beyond the threshold inconclusively, or the
 * runs' environments differ. `measured`: the runs' --time (the command
 * repeats it, so that the new runs measure what these did) and their
 * processes.
 */
export function sideBySide(
  comparison: Comparison,
  suites: readonly string[] = [],
  measured: MeasuredAs = {},
): SideBySide | undefined {
  if (comparison.incomparable?.length) return undefined;
  const moved = comparison.cases.filter((c) => movedButInconclusive(c, comparison.threshold));
  if (moved.length === 0) return undefined;
  const [good, bad] = [runCommit(comparison.base.env), runCommit(comparison.head.env)];
  const filter = moved.length <= 12 ? [`--filter '^(${moved.map((c) => escapeRegex(c.id)).join('|')})$'`] : [];
  const named = (list: typeof moved, interval: boolean) =>
    list
      .slice(0, 3)
      .map(
        (c) =>
          `${c.id} x${c.ratio.toFixed(3)}${interval ? ` [${c.ratioCi[0].toFixed(3)}, ${c.ratioCi[1].toFixed(3)}]` : ''}`,
      )
      .join(', ') + (list.length > 3 ? ', ...' : '');
  const clear = moved.filter(clearOfNoChange);
  const unclear = moved.filter((c) => !clearOfNoChange(c));
  const summary = [
    unclear.length > 0
      ? `${unclear.length} case(s) moved by more than the threshold but cannot be told from the drift between separate runs (${named(unclear, false)}).`
      : '',
    clear.length > 0
      ? `${clear.length} case(s) moved beyond the drift between separate runs (the interval excludes no change) but not surely by more than the ${(comparison.threshold * 100).toFixed(1)}% threshold (${named(clear, true)}).`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
  const cases = moved.map((c) => ({ id: c.id, ratio: c.ratio }));
  if (good !== undefined && good === bad && sameBuiltCode(comparison.base.env, comparison.head.env)) {
    // One commit, one build: bisect would find both sides identical and measure nothing.
    return {
      cases,
      command: [
        'layerbench run',
        ...suites,
        ...(measured.timePerCase === undefined ? [] : [`--time ${measured.timePerCase}`]),
        `--processes ${Math.max(4, measured.processes ?? 1)}`,
        ...filter,
        '--out <side>.json',
      ].join(' '),
      summary,
      lead: `Both runs are of commit ${good.slice(0, 12)} with the same built code, so what moved is the machine between the runs or their environment (above), which bisect, comparing code, cannot set apart. To narrow the intervals, measure each side again in several processes and compare:`,
    };
  }
  const sides =
    good !== undefined && bad !== undefined && good !== bad
      ? `--good git:${good.slice(0, 12)} --bad git:${bad.slice(0, 12)}`
      : '--good git:<base commit> --bad git:<head commit>';
  return {
    cases,
    command: ['layerbench bisect --paired', sides, ...suites.map((s) => `--suite ${s}`), ...filter].join(' '),
    summary,
    lead: 'To tell, measure both sides in the same worker processes:',
  };
}
