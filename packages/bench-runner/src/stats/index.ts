// @layerbench/bench-runner/stats: pure statistics (nothing here reads a clock)
// and the one verdict rule every comparison uses.
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
  bootstrapQuantileRatioDraws,
  lowQuantile,
  orderStatisticIndex,
  bootstrapGeomeanRatioCi,
  bootstrapGeomeanRatioDraws,
  mannWhitneyU,
  wilcoxonSignedRank,
  seededRandom,
  normalVariate,
  geometricMean,
  erfc,
  normalUpperTail,
} from './stats.js';
export type { RandomSource, BootstrapOptions, MannWhitneyResult, SignedRankResult } from './stats.js';
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
export { processModel, pairedProcessModel, outlierRows, studentTDraws } from './process-model.js';
export type { PairedModelOptions, ProcessModel, ProcessValues } from './process-model.js';
export type { SampleComparison, Verdict } from '../results/schemas.js';
