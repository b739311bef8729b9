// The answers of `layerbench check` (both forms: --baseline and --against), in the
// exit codes `git bisect run` understands.

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
