// Where between-run calibrations live: one file per machine, runtime and time
// per case, under $LAYERBENCH_CALIBRATION_DIR, else
// $XDG_CACHE_HOME/layerbench/calibration, else ~/.cache/layerbench/calibration.
// `layerbench calibrate` writes them; `compare`, `check` and `layerbench-report`
// look up the one that matches both runs (same machine id and Node version),
// preferring the same --time, else the nearest one, and not for runs busier
// than its processes (storedCalibrationForRuns).
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBeyondCalibration } from '../compare/calibration-fit.js';
import { readBetweenRunCalibration, ResultFileError, writeResultFile } from '../results/file.js';
import type { BetweenRunCalibration, EnvFingerprint, RunResult } from '../results/schemas.js';

/** The folder of stored calibrations (see the module comment). */
export function calibrationDir(env: Record<string, string | undefined> = process.env): string {
  const own = env.LAYERBENCH_CALIBRATION_DIR;
  if (own) return own;
  const cache = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'layerbench', 'calibration');
}

function machineKey(env: Pick<EnvFingerprint, 'machineId' | 'node'>): string {
  return `${env.machineId}-node${env.node}`;
}

/** The file name of a calibration: `<machine id>-node<version>-t<seconds>.json`. */
export function calibrationFileName(env: Pick<EnvFingerprint, 'machineId' | 'node'>, timePerCase: number): string {
  return `${machineKey(env)}-t${timePerCase}.json`;
}

/** Stores a calibration (atomically) and returns its path. */
export function saveBetweenRunCalibration(calibration: BetweenRunCalibration, dir = calibrationDir()): string {
  const file = path.join(dir, calibrationFileName(calibration.env, calibration.timePerCase));
  writeResultFile(file, calibration);
  return file;
}

export type CalibrationLookup =
  | { found: true; calibration: BetweenRunCalibration; file: string; note?: string }
  | { found: false; reason: string };

/**
 * The stored calibration for comparing `base` with `head` measured at
 * `timePerCase`: both must be from the calibration's machine and runtime.
 * An unreadable file is passed over and named in the reason.
 */
export function findBetweenRunCalibration(
  base: EnvFingerprint,
  head: EnvFingerprint,
  timePerCase: number,
  dir = calibrationDir(),
): CalibrationLookup {
  if (base.machineId !== head.machineId || base.node !== head.node) {
    return {
      found: false,
      reason: 'the two runs come from different machines or runtimes, so no one calibration describes them',
    };
  }
  const prefix = `${machineKey(base)}-t`;
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith('.json')) : [];
  const problems: string[] = [];
  const candidates: { calibration: BetweenRunCalibration; file: string }[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const calibration = readBetweenRunCalibration(file);
      if (calibration.env.machineId === base.machineId && calibration.env.node === base.node)
        candidates.push({ calibration, file });
    } catch (error) {
      if (!(error instanceof ResultFileError)) throw error;
      problems.push(error.message);
    }
  }
  if (candidates.length === 0) {
    const unreadable = problems.length > 0 ? ` (unreadable: ${problems.join('; ')})` : '';
    return {
      found: false,
      reason: `no between-run calibration for this machine (${base.machineId}) and Node ${base.node} in ${dir}${unreadable}`,
    };
  }
  const distance = (t: number) => Math.abs(Math.log(t / timePerCase));
  candidates.sort((a, b) => distance(a.calibration.timePerCase) - distance(b.calibration.timePerCase));
  const best = candidates[0]!;
  if (best.calibration.timePerCase === timePerCase) return { found: true, ...best };
  return {
    found: true,
    ...best,
    note: `calibrated at --time ${best.calibration.timePerCase}, the runs used --time ${timePerCase}`,
  };
}

/**
 * The stored calibration that describes two runs: their machine's and
 * runtime's at the nearest --time to theirs (findBetweenRunCalibration),
 * unless they ran busier than its processes (loadBeyondCalibration); else
 * why there is none. `layerbench compare`, `check` and `layerbench-report`
 * judge by it, `run --processes` tops up to its calm levels.
 */
export function storedCalibrationForRuns(base: RunResult, head: RunResult, dir = calibrationDir()): CalibrationLookup {
  const time = Math.max(base.options.timePerCase, head.options.timePerCase);
  const lookup = findBetweenRunCalibration(base.env, head.env, time, dir);
  if (!lookup.found) return lookup;
  const busier = loadBeyondCalibration(lookup.calibration, base, head);
  return busier === undefined
    ? lookup
    : { found: false, reason: `the stored calibration ${lookup.file} does not describe these runs: ${busier}` };
}
