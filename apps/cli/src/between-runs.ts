// What `compare` and `check` need beyond the two result files: the
// between-run spread of this machine (a stored `layerbench calibrate`, an
// explicit --calibration file, or the conservative default, whose summary
// says which), and which layers each case's code consists of, for the
// unchanged-code guard of `compare` and `check`.
import { defaultRunNoise, noiseForRuns, storedRunNoise, type RunNoise } from '@layerbench/bench-runner/compare';
import { calibrationDir, storedCalibrationForRuns, type CalibrationLookup } from '@layerbench/bench-runner/calibration';
import { readBetweenRunCalibration } from '@layerbench/bench-runner/results';
import type { CaseResult, RunResult } from '@layerbench/bench-runner';
import type { CommandContext } from './commands/types.js';
import { cliPackage, peersPackage } from './layer-env.js';
import { readInputFile } from './result-files.js';

/**
 * The between-run model for comparing `base` with `head`: the calibration
 * file given, else the stored one of this machine and runtime (nearest
 * --time, noted in its summary when it is not the runs'), else the
 * conservative default; its summary says which.
 */
export function chooseNoise(ctx: CommandContext, base: RunResult, head: RunResult, calibrationFile?: string): RunNoise {
  if (calibrationFile !== undefined) {
    const calibration = readInputFile(ctx, calibrationFile, readBetweenRunCalibration);
    return noiseForRuns(calibration, calibrationFile, base, head);
  }
  const stored = storedCalibration(ctx, base, head);
  return stored.found ? storedRunNoise(stored) : defaultRunNoise(stored.reason);
}

/**
 * The stored calibration that describes `base` and `head` (bench-runner's
 * storedCalibrationForRuns, in this command's calibration folder): compare
 * and check judge by it; `run --processes` tops up to its calm levels.
 */
export function storedCalibration(ctx: CommandContext, base: RunResult, head: RunResult): CalibrationLookup {
  return storedCalibrationForRuns(base, head, calibrationDir(ctx.env));
}

/** The package of each layer a case can belong to, with the layers below it. */
const layerStacks: Record<string, readonly string[]> = {
  'aes-core': ['@layerbench/aes-core'],
  cmac: ['@layerbench/cmac', '@layerbench/aes-core'],
  'sha1-dispatch': ['@layerbench/sha1-dispatch'],
  esp: ['@layerbench/esp', '@layerbench/aes-core', '@layerbench/sha1-dispatch'],
  peers: [peersPackage],
};

/**
 * The packages a case's code consists of: its layer, the layers below it and
 * the CLI (whose suites build the case); for a peer case the npm peers
 * (whose fingerprint includes each peer library's installed version).
 * bench-runner and the runtime are always checked too. Undefined for a case
 * of any other layer: the guard does not apply to it.
 */
export function caseLayers(c: Pick<CaseResult, 'layer'>): readonly string[] | undefined {
  const stack = layerPackages(c.layer);
  return stack === undefined ? undefined : [...stack, cliPackage];
}

/** The case layers whose stacks are known ('aes-core', ..., 'peers'). */
export function knownCaseLayers(): string[] {
  return Object.keys(layerStacks);
}

/** The packages of a case's layer and the layers below it (check --against compares their code), or undefined. */
export function layerPackages(layer: string): readonly string[] | undefined {
  return layerStacks[layer];
}
