// @layerbench/bench-runner: the measuring engine. Cases in, RunResult out;
// statistics, result files, comparisons, calibration and reporters.
export type * from './types.js';
export {
  median,
  mean,
  percentile,
  mad,
  computeStats,
  bootstrapMedianCi,
  bootstrapRatioCi,
  mannWhitneyU,
  seededRandom,
  normalVariate,
  geometricMean,
  erfc,
  normalUpperTail,
} from './stats.js';
export type { RandomSource, BootstrapOptions, MannWhitneyResult } from './stats.js';
export { runCases, runCase, measureOverhead, DigestMismatchError } from './run.js';
export type { RunCasesOptions } from './run.js';
export { collectEnv, layerFingerprint, machineId, contentHash } from './env.js';
export {
  writeResultFile,
  readResultFile,
  readRunResult,
  readComparison,
  readCalibration,
  stringifyResult,
  ResultFileError,
  supportedSchemaVersions,
} from './result-file.js';
export type { ResultFileProblem } from './result-file.js';
export { runResultSchema, comparisonSchema, envFingerprintSchema, calibrationSchema } from './schemas.js';
export { formatTable, describeEnv } from './reporters/table.js';
