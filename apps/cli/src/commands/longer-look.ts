// The longer look: cases a paired comparison left inconclusive, measured
// again with longer visits (check --against does it; bisect --paired names
// the command).
import { escapeRegExp } from '../args.js';

/**
 * How much longer the longer look measures (x4: --time 0.6 becomes 2.4).
 * Measured (2026-12-04 04:50-05:05 UTC, a throwaway clone whose aes-core
 * table backend encrypts every 10th single block twice, +10%): at the
 * default --time 0.6 the paired spread between processes of
 * `aes/aes-128/block/table` (68 ns an operation; a visit of about 8 ms)
 * was 4.3-5.0%, and check --against was inconclusive at each measured
 * step of a git bisect run (x1.04-x1.11, intervals about ±10%); at --time
 * 3 the spread was 1.3% and the same change read x1.125 [1.088, 1.163].
 * With the longer look, git bisect named the regression in 3 of 3 runs.
 * A visit long enough to hold stretches of the CPU's fast state gives a
 * low percentile that is that state's.
 */
export const defaultLongerLook = 4;

/** A --time value as the longer look prints it: three significant digits (0.6 x 4 is 2.4, not 2.4000000000000004). */
export function seconds(value: number): string {
  return String(Number(value.toPrecision(3)));
}

/** A regular expression matching exactly these case ids. */
export function exactIds(ids: readonly string[]): string {
  return `^(${ids.map(escapeRegExp).join('|')})$`;
}

/**
 * The longer look's processes: twice the first look's. Some fast cases
 * spread between processes by what each copy of the code settles on, which
 * longer visits do not shrink and more processes average (measured
 * 2026-12-04 05:20 UTC, paired, harmless aes-core change:
 * `aes/aes-128/block/ct` 1.6-1.9% and `aes/aes-128/cbc-enc/16/table`
 * 2.5-3.8% at --time 0.6-2.4, intervals ±4.5% and ±8% with 6 processes,
 * ±2% and ±4% with 12). With x4 --time over twice the processes, each
 * visit is still twice as long.
 */
export function longerLookProcesses(processes: number): number {
  return 2 * processes;
}
