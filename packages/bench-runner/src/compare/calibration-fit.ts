// Whether a between-run calibration describes two runs, and the between-run
// model to compare them with: the calibration's, with a note where it was
// made for other runs (another machine, runtime or --time, cases it never
// measured), or the conservative default when the runs were busier than its
// processes. `layerbench compare`/`check` and `layerbench-report
// --calibration` judge by the same rule.
import type { BetweenRunCalibration, RunResult } from '../results/schemas.js';
import { defaultRunNoise, runNoiseFromCalibration, type RunNoise } from './noise.js';

/**
 * How much busier than the calibration's busiest process a run may have
 * been (1-minute load average) and still be judged by it: 25%, and at
 * least 0.5. Measured (bench-runner README, "Calm figures"): a calibration
 * of `sha1 hmac --time 0.3` made at load 1.1-3.2 judged 20 A/A pairs run at
 * load 2.9-6.9 (two busy loops and a stream of benchmark runs beside them)
 * by timing alone: 3 of 20 pairs exit 1, `sha1/1048576/generic` x1.38-1.84
 * in runs at load 4.1-5.2; without it 20 of 20 and 0 of 1280.
 */
export const calibrationLoadMargin = { ratio: 0.25, atLeast: 0.5 };

/**
 * Why a calibration does not describe two runs because they ran busier than
 * any of its processes (the spread between processes grows with the load),
 * or undefined when it does. Both sides are read at the end of their
 * measuring (endLoad), not at its start.
 */
export function loadBeyondCalibration(
  calibration: Pick<BetweenRunCalibration, 'load'>,
  base: RunResult,
  head: RunResult,
): string | undefined {
  const bounds = calibrationLoadLimit(calibration);
  if (bounds === undefined) return undefined;
  const { read, calibrated, limit } = bounds;
  const runs = Math.max(endLoad(base), endLoad(head));
  const counted = calibrated > read ? ` (taken as ${calibrated.toFixed(1)}: its own measuring process)` : '';
  return runs > limit
    ? `they ran at a load average of up to ${runs.toFixed(1)}, its processes at most ${read.toFixed(1)}${counted}; calibrate at the load the comparisons see`
    : undefined;
}

/**
 * The load a calibration describes runs up to (loadBeyondCalibration):
 * `read`, the largest of its processes' end readings; `calibrated`, that or
 * the measuring process's own load if more; `limit`, the end reading above
 * which a run is busier than it describes. Undefined for a calibration that
 * records no load.
 */
export function calibrationLoadLimit(
  calibration: Pick<BetweenRunCalibration, 'load'>,
): { read: number; calibrated: number; limit: number } | undefined {
  const read = Math.max(...calibration.load.map(([, end]) => end));
  if (!Number.isFinite(read)) return undefined;
  const calibrated = Math.max(read, measuringProcessLoad);
  const limit = Math.max(calibrated * (1 + calibrationLoadMargin.ratio), calibrated + calibrationLoadMargin.atLeast);
  return { read, calibrated, limit };
}

/**
 * The load a run's own minutes saw, as loadBeyondCalibration reads it: the
 * 1-minute load average at its end. The kernel's figure is a decaying
 * average (time constant 60 s), so the reading at a run's start is mostly
 * the minute before it (a CI job's build, the compare of the run before),
 * and counting it refused calibrations for runs that did not run busy:
 * measured (2026-12-05 20:38 UTC), a run of 12 processes read 1.65 at its
 * start, after the compares of the pair before it, and 1.10 at its end
 * (about 1.0 while it ran, by that average's decay over its 121 s), and
 * was judged with the conservative default against a calibration made at
 * 1.1. After a busy minute the end reading still holds e^(-t/60) of the
 * start's excess for a run of t seconds, so such a run is not read quieter
 * than it ran; a load that rose during the run is read at the end, as
 * before. A calibration's processes are read the same way, at their ends
 * (one started after a busy minute no longer counts as busier than it
 * was). A run of several processes is read at the end of each process that
 * ended a minute or more into it too (processLoadAvgEnds, middleLoads): a
 * busy stretch in its middle is its own as much as one at its end.
 */
export function endLoad(run: Pick<RunResult, 'env'>): number {
  return Math.max(run.env.loadAvgEnd[0] ?? 0, ...(run.env.processLoadAvgEnds ?? []));
}

/**
 * The load a calibration's processes count as at least
 * (loadBeyondCalibration): each ran one measuring process, so even on an
 * otherwise idle machine the 1-minute load average climbs towards 1 while
 * it runs, and a lower reading is that average's lag after idle minutes,
 * not a quieter machine than one measuring process makes. Measured
 * (2026-12-05, 14:47-14:49 UTC): a calibration started on an idle machine
 * read 0.29-0.94 over its 12 processes; the runs of the same quiet hour,
 * each one measuring process at a time, read 1.0-1.5, and 8 of the 16
 * base/slowed comparisons of runs of 4-6 processes were judged with the
 * conservative default (+5% found in none of those 8).
 */
export const measuringProcessLoad = 1;

/**
 * Why a calibration given by hand may not describe these runs: another
 * machine or runtime, another --time (a case's spread between processes
 * depends on it), or cases it never measured (they are judged with the
 * conservative default spread).
 */
export function calibrationMismatch(
  calibration: Pick<BetweenRunCalibration, 'env' | 'timePerCase' | 'cases'>,
  base: RunResult,
  head: RunResult,
): string[] {
  const notes: string[] = [];
  if (calibration.env.machineId !== head.env.machineId || calibration.env.node !== head.env.node)
    notes.push('it was made on another machine or runtime than these runs');
  const times = [...new Set([base.options.timePerCase, head.options.timePerCase])];
  if (times.some((t) => t !== calibration.timePerCase))
    notes.push(`it was measured at --time ${calibration.timePerCase}, these runs at --time ${times.join(' and ')}`);
  const ids = head.cases.filter((c) => base.cases.some((b) => b.id === c.id)).map((c) => c.id);
  const missing = ids.filter((id) => calibration.cases[id] === undefined).length;
  if (missing > 0) notes.push(`${missing} of the ${ids.length} common cases are not in it`);
  return notes;
}

/**
 * The between-run model for comparing `base` with `head` by this calibration
 * (read from `file`): its spreads, with the calibrationMismatch notes in the
 * summary every report prints first; or, when the runs were busier than its
 * processes (loadBeyondCalibration), the conservative default and why.
 */
export function noiseForRuns(
  calibration: BetweenRunCalibration,
  file: string,
  base: RunResult,
  head: RunResult,
): RunNoise {
  const busier = loadBeyondCalibration(calibration, base, head);
  if (busier !== undefined) return defaultRunNoise(`the calibration ${file} does not describe these runs: ${busier}`);
  return withNotes(runNoiseFromCalibration(calibration, file), calibrationMismatch(calibration, base, head));
}

/** The model with `notes` at the end of its summary's description, "(note: a; b)"; as it is without notes. */
function withNotes(noise: RunNoise, notes: readonly string[]): RunNoise {
  if (notes.length === 0) return noise;
  return {
    ...noise,
    summary: { ...noise.summary, description: `${noise.summary.description} (note: ${notes.join('; ')})` },
  };
}

/**
 * The between-run model of a stored calibration found for two runs
 * (storedCalibrationForRuns): its spreads, with the lookup's note (another
 * --time than the runs') in the summary every report prints first, as
 * noiseForRuns notes a calibration given by hand.
 */
export function storedRunNoise(stored: { calibration: BetweenRunCalibration; file: string; note?: string }): RunNoise {
  return withNotes(
    runNoiseFromCalibration(stored.calibration, stored.file),
    stored.note === undefined ? [] : [stored.note],
  );
}
