// `check --baseline` one process a side: a second look at the cases it would
// call regressed by less than x4. A process now and then runs a case in a mode
// of its own (x1.35-x2.9 measured on a shared machine), and one process a side
// cannot tell that from a regression: `git bisect run` would then be told a
// harmless commit is bad and name the wrong one. So check measures this
// checkout again in fresh processes and keeps the verdict only when every one
// of them, compared with the baseline as the first was, says regressed too;
// otherwise the case is inconclusive (125: git bisect skips the commit).
// Measured over 13 hours of one-process pairs (CLI README, "check options";
// scripts/second-look.mjs replays it).
import type { CaseComparison, Comparison, EnvFingerprint, Verdict } from '@layerbench/bench-runner';
import { type OneProcessRange, oneProcessRange, oneProcessRangeText, oneProcessSuspects } from './compare.js';

/** Fresh processes `check` measures a suspect case in by default (`--second-look`). */
export const defaultSecondLookProcesses = 2;

/** The second look's significance level unless check's own is looser (secondLookAlpha). */
export const secondLookLeastAlpha = 0.1;

/**
 * The significance level of each fresh process's comparison: the first
 * process already found the case slower at check's alpha (default 0.01); a
 * mode of its own is that process's alone, so each fresh process only has to
 * find it slower at this looser level. Replayed over 13 hours (CLI README):
 * no false verdict passed two such looks (0 of 148), and a real +5% near the
 * edge of what one process a side can call kept 68 of its 109 first-look
 * verdicts, 24 at alpha 0.01.
 */
export function secondLookAlpha(alpha: number): number {
  return Math.max(alpha, secondLookLeastAlpha);
}

/** One suspect case: its verdict in the first process and in each fresh one. */
export interface SecondLook {
  id: string;
  first: number;
  /** One entry per fresh process: its ratio to the baseline and verdict, or undefined when it has no figure. */
  fresh: ({ ratio: number; verdict: Verdict } | undefined)[];
  confirmed: boolean;
}

/** How check looks again: fresh processes, the range of regressed cases looked at (below which ratio, and why), alpha. */
export interface SecondLookPlan {
  processes: number;
  range: OneProcessRange;
  alpha: number;
}

/**
 * The plan from check's options: --second-look, --second-look-below (by
 * default the head run's oneProcessRange: x4, raised when it ran on a loaded
 * machine) and its alpha.
 */
export function secondLookPlan(options: {
  processes?: number;
  below?: number;
  head: EnvFingerprint;
  alpha: number;
}): SecondLookPlan {
  return {
    processes: options.processes ?? defaultSecondLookProcesses,
    range: options.below === undefined ? oneProcessRange(options.head) : { below: options.below },
    alpha: secondLookAlpha(options.alpha),
  };
}

/** The cases the second look is for: regressed, one process a side, by less than the plan's range. */
export function secondLookSuspects(comparison: Comparison, plan: SecondLookPlan): CaseComparison[] {
  return plan.processes > 0 ? oneProcessSuspects(comparison, plan.range.below) : [];
}

/**
 * The second look, from the comparisons of the baseline with each fresh
 * process that finished (of the plan's): a suspect is confirmed when every
 * planned fresh process calls it regressed. Returns the comparison with the
 * unconfirmed suspects made inconclusive, and what each suspect read.
 */
export function secondLook(
  comparison: Comparison,
  fresh: readonly Comparison[],
  plan: SecondLookPlan,
): { comparison: Comparison; looks: SecondLook[] } {
  const looks = secondLookSuspects(comparison, plan).map((suspect): SecondLook => {
    const readings = fresh.map((other) => {
      const c = other.cases.find((k) => k.id === suspect.id);
      return c === undefined ? undefined : { ratio: c.ratio, verdict: c.verdict };
    });
    return {
      id: suspect.id,
      first: suspect.ratio,
      fresh: readings,
      confirmed: readings.length === plan.processes && readings.every((r) => r?.verdict === 'regressed'),
    };
  });
  const unconfirmed = new Set(looks.filter((look) => !look.confirmed).map((look) => look.id));
  const cases = comparison.cases.map(
    (c): CaseComparison => (unconfirmed.has(c.id) ? { ...c, verdict: 'inconclusive' } : c),
  );
  return { comparison: { ...comparison, cases }, looks };
}

/** What the second look found, for stdout after the table. */
export function secondLookLines(looks: readonly SecondLook[], plan: SecondLookPlan, finished: number): string[] {
  if (looks.length === 0) return [];
  const lines = [
    `second look: ${looks.length} case(s) called regressed one process a side by less than ${oneProcessRangeText(plan.range)}, measured again in ${plan.processes} fresh process(es) of this checkout${finished < plan.processes ? ` (${finished} finished)` : ''} (a process now and then runs a case in a mode of its own); regressed only when each calls it regressed too, at alpha ${plan.alpha}:`,
  ];
  const width = Math.max(...looks.map((look) => look.id.length));
  for (const look of looks) {
    const readings = look.fresh
      .map((r) => (r === undefined ? 'no figure' : `x${r.ratio.toFixed(3)} ${r.verdict}`))
      .join(', ');
    lines.push(
      `  ${look.id.padEnd(width)}  first x${look.first.toFixed(3)}; fresh ${readings}: ${look.confirmed ? 'regressed' : 'inconclusive'}`,
    );
  }
  return lines;
}
