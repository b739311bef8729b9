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
  bootstrapMedianDraws,
  bootstrapRatioCi,
  bootstrapRatioDraws,
  bootstrapGeomeanRatioDraws,
  mannWhitneyU,
  seededRandom,
  normalVariate,
  geometricMean,
  erfc,
  normalUpperTail,
  bootstrapGeomeanRatioCi,
  wilcoxonSignedRank,
} from './stats.js';
export type { RandomSource, BootstrapOptions, MannWhitneyResult, SignedRankResult } from './stats.js';
export { runCases, runCase, measureOverhead, consecutiveMedians, defaultSlices, DigestMismatchError } from './run.js';
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
export { measureMemory, ensureExposedGc, forcedGc } from './memory.js';
export type { MeasureMemoryOptions } from './memory.js';
export { compareResults, comparisonWarnings, diffFingerprints, minSlices } from './compare.js';
export {
  compareSamples,
  compareRounds,
  checkCompareOptions,
  verdictOf,
  decideRatio,
  bootstrapIterations,
  confidenceLabel,
  pFloorIndependent,
  pFloorPaired,
  defaultThreshold,
  defaultAlpha,
} from './verdict.js';
export type { CompareOptions, RatioDecision, DecideOptions } from './verdict.js';
export { runInterleaved, defaultRounds } from './interleaved.js';
export type { InterleavedOptions } from './interleaved.js';
export {
  calibrate,
  calibrationWork,
  minimumDetectableEffect,
  summarizeEffect,
  wilsonInterval,
  timedSampleSource,
  defaultEffects,
  requiredPower,
} from './calibrate.js';
export type { CalibrateOptions, CalibrationSampleSource } from './calibrate.js';
export { formatComparison } from './reporters/comparison.js';
export { formatMarkdown } from './reporters/markdown.js';
export { formatJson } from './reporters/json.js';
export { formatNtpsec, ntpsecHeader } from './reporters/ntpsec.js';
export { formatEsptest } from './reporters/esptest.js';
export type { EsptestOptions } from './reporters/esptest.js';
export { formatSpeed } from './reporters/speed.js';
export { toBmf } from './reporters/bmf.js';
export type { Bmf, BmfMetric } from './reporters/bmf.js';
