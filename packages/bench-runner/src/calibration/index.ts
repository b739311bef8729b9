// @layerbench/bench-runner/calibration: what this machine can detect (false
// alarms in A/A, detection rate per effect size, minimum detectable effect).
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
