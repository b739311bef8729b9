// @layerbench/bench-runner/results: the result files. Each kind's zod schema
// is the one definition and its TypeScript type is inferred from it; reads
// validate, writes are atomic.
export {
  caseParamsSchema,
  dispatchDecisionSchema,
  layerFingerprintSchema,
  envFingerprintSchema,
  caseStatsSchema,
  caseErrorSchema,
  caseResultSchema,
  runResultSchema,
  verdictSchema,
  verdictCountsSchema,
  sampleComparisonSchema,
  caseComparisonSchema,
  fingerprintDiffSchema,
  comparisonSchema,
  calibrationEffectSchema,
  calibrationSchema,
} from './schemas.js';
export type {
  ParamValue,
  CaseParams,
  DispatchDecision,
  LayerFingerprint,
  EnvFingerprint,
  CaseStats,
  CaseError,
  CaseResult,
  RunResult,
  Verdict,
  SampleComparison,
  CaseComparison,
  FingerprintDiff,
  Comparison,
  CalibrationEffect,
  Calibration,
} from './schemas.js';
export {
  writeResultFile,
  readResultFile,
  readRunResult,
  readComparison,
  readCalibration,
  stringifyResult,
  ResultFileError,
  supportedSchemaVersions,
} from './file.js';
export type { ResultFileProblem } from './file.js';
