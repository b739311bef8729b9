// @layerbench/bench-runner/compare: two run results -> a Comparison (per-case
// verdicts by the verdict rule of /stats with the between-run spread of this
// machine, environment differences, warnings), and the between-run model.
export {
  compareResults,
  compareSeparateRuns,
  comparisonWarnings,
  diffFingerprints,
  environmentMismatch,
  codeUnchanged,
  enginePackage,
  peakLoad,
  recordedPackages,
} from './compare.js';
export type { CompareResultsOptions, SeparateRunsOptions } from './compare.js';
export {
  minSlices,
  figureBases,
  lowSliceQuantile,
  summaryOf,
  summarise,
  sliceFigures,
  pairFigures,
  commonBasis,
  caseFigure,
  basisOf,
  fallbacks,
  calmLevel,
  calmLevelsAgree,
  probeLevel,
  withinCalmLevel,
  calmSlices,
  calmMargin,
  calmLevelTolerance,
  calmBases,
  isCalmBasis,
} from './figures.js';
export {
  calmProcessFigures,
  minCalmProcessesPerSide,
  pooledSpread,
  poolableSpreadRatio,
  compareProcessFigures,
  figuresOfProcess,
  hasProcessFigures,
  mergeProcessRuns,
  ownSpread,
  processFiguresOn,
} from './processes.js';
export type { FigureMethod } from './figures.js';
export {
  addStateShift,
  calmBasesFor,
  defaultRunNoise,
  defaultSpread,
  defaultBasis,
  fixedRunNoise,
  runNoiseFromCalibration,
  stateMoved,
  stateSensitivity,
  stateTolerance,
  minRunShare,
} from './noise.js';
export type { RunNoise, CaseSpreadEstimate } from './noise.js';
export type { CompareOptions } from '../stats/verdict.js';
export { clearOfNoChange, measuredAs, movedButInconclusive, runCommit, sideBySide } from './side-by-side.js';
export type { MeasuredAs, SideBySide } from './side-by-side.js';
export {
  calibrationLoadLimit,
  calibrationLoadMargin,
  calibrationMismatch,
  endLoad,
  loadBeyondCalibration,
  measuringProcessLoad,
  noiseForRuns,
  storedRunNoise,
} from './calibration-fit.js';
