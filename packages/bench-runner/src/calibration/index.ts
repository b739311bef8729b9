// @layerbench/bench-runner/calibration: what this machine can detect. The
// between-run calibration (calibrateBetweenRuns, from K runs in fresh
// processes) describes `compare` and `check`; calibrate() describes
// interleaved measurements in one process (runInterleaved, bisect).
export {
  calibrate,
  calibrationWork,
  minimumDetectableEffect,
  summarizeEffect,
  wilsonInterval,
  timedSampleSource,
  defaultEffects,
  requiredPower,
  CalibrationInterruptedError,
} from './calibrate.js';
export type { CalibrateOptions, CalibrationSampleSource } from './calibrate.js';
export {
  calibrateBetweenRuns,
  calibrateBetweenRunsAsync,
  crossValidationPairs,
  defaultCrossValidationPairs,
  inRunOrder,
  scaledRun,
  defaultDetectionEffects,
  minCalibrationRuns,
  minNeighbourPairs,
  neighbourSigmaOf,
  sittingGapFactor,
  sittingsOf,
  severalProcessesOutlook,
  targetCaseFalseAlarms,
  targetPairFalseAlarms,
  withinFalseAlarmTargets,
  type SeveralProcessesOutlook,
} from './between-runs.js';
export type { BetweenRunAsyncOptions, BetweenRunOptions } from './between-runs.js';
export {
  calibrationDir,
  calibrationFileName,
  saveBetweenRunCalibration,
  findBetweenRunCalibration,
  storedCalibrationForRuns,
} from './store.js';
export type { CalibrationLookup } from './store.js';
