// What `compare` and `check` need beyond the two result files: the
// between-run spread of this machine (a stored `layerbench calibrate`, an
// explicit --calibration file, or the conservative default — and a line that
// says which), and which layers each case's code consists of, for the
// unchanged-code guard of `compare` and `check`.
import {
  defaultRunNoise,
  noiseForRuns,
  runNoiseFromCalibration,
  type RunNoise,
} from '@layerbench/bench-runner/compare';
import { calibrationDir, storedCalibrationForRuns, type CalibrationLookup } from '@layerbench/bench-runner/calibration';
import { readBetweenRunCalibration } from '@layerbench/bench-runner/results';
import type { CaseResult, RunResult } from '@layerbench/bench-runner';
import type { CommandContext } from './commands/types.js';
import { cliPackage, peersPackage } from './layer-env.js';
import { readInputFile } from './result-files.js';

export interface ChosenNoise {
  noise: RunNoise;
  /** Said before the verdicts: where the between-run spread came from. */
  line: string;
}

/**
 * The between-run model for comparing `base` with `head`: the calibration
 * file given, else the stored one of this machine and runtime (nearest
 * --time), else the conservative default.
 */
export function chooseNoise(
  ctx: CommandContext,
  base: RunResult,
  head: RunResult,
  calibrationFile?: string,
): ChosenNoise {
  if (calibrationFile !== undefined) {
    const calibration = readInputFile(ctx, calibrationFile, readBetweenRunCalibration);
    const noise = noiseForRuns(calibration, calibrationFile, base, head);
    return { noise, line: `noise: ${noise.summary.description}` };
  }
  const stored = storedCalibration(ctx, base, head);
  if (!stored.found) return defaultNoise(stored.reason);
  const noise = runNoiseFromCalibration(stored.calibration, stored.file);
  return { noise, line: `noise: ${noise.summary.description}${stored.note ? ` (${stored.note})` : ''}` };
}

/**
 * The stored calibration that describes `base` and `head` (bench-runner's
 * storedCalibrationForRuns, in this command's calibration folder): compare
 * and check judge by it; `run --processes` tops up to its calm levels.
 */
export function storedCalibration(ctx: CommandContext, base: RunResult, head: RunResult): CalibrationLookup {
  return storedCalibrationForRuns(base, head, calibrationDir(ctx.env));
}

function defaultNoise(why: string): ChosenNoise {
  const noise = defaultRunNoise(why);
  return { noise, line: `noise: ${noise.summary.description}` };
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
