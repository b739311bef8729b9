// The answers of `layerbench check` (both forms: --baseline and --against), in the
// exit codes `git bisect run` understands.
import type { BisectCase } from '@layerbench/bench-runner/results';

export const checkExit = {
  good: 0,
  regressed: 1,
  cannotTell: 125,
  /** Above 127: git bisect run stops instead of marking the commit bad. */
  badInput: 128,
} as const;

export interface CheckVerdict {
  code: number;
  reason: string;
}

/**
 * Whether a case's interval of head/base rules out a slowdown beyond the
 * threshold: its high end is at most 1 + threshold. check answers git
 * bisect's one question, "did this commit make it slower?", and such a case
 * answers no whatever its verdict: inconclusive only because it may have got
 * faster by more than the threshold (the interval reaches below 1 - threshold)
 * is not a reason to skip the commit. A case slower by the threshold or more
 * lands there with probability at most alpha / 2 (one end of the interval).
 * Measured (2026-12-03 23:45 UTC, `check --against` over a harmless aes-core
 * commit): esp stitched x0.985 [0.966, 1.006] at threshold 0.03 was
 * inconclusive, and git bisect was left with three commits that could be first.
 */
export function slowdownRuledOut(ci: readonly [number, number], threshold: number): boolean {
  return ci[1] <= 1 + threshold;
}

/** The reason's note on inconclusive cases counted as not regressed (empty when there are none). */
export function ruledOutNote(cases: readonly { id: string; ratio: number; ci: readonly [number, number] }[]): string {
  if (cases.length === 0) return '';
  const shown = cases.map((c) => `${c.id} x${c.ratio.toFixed(3)} [${c.ci[0].toFixed(3)}, ${c.ci[1].toFixed(3)}]`);
  return ` (${cases.length} inconclusive, but their intervals rule out a slowdown beyond the threshold: ${shown.join(', ')})`;
}

/**
 * Whether a case's A/A control moved: two copies of the good stack in the
 * same processes differed significantly, so the good copy this checkout is
 * compared with may itself sit off, and no verdict about the case stands.
 * Measured (2026-12-04 14:20 UTC, a git bisect run over a +10% aes-core
 * regression): at the regression commit `aes/aes-128/block/table` read
 * x1.010 [0.991, 1.030] "unchanged" with its control x0.907 [0.880, 0.936],
 * check answered good, and git bisect named a harmless commit after it.
 */
export function controlMoved(c: BisectCase): boolean {
  return c.control?.verdict === 'regressed' || c.control?.verdict === 'improved';
}
