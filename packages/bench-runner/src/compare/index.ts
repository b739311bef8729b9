// @layerbench/bench-runner/compare: two run results -> a Comparison (per-case
// verdicts by the verdict rule of /stats, environment differences, warnings).
export { compareResults, comparisonWarnings, diffFingerprints, minSlices } from './compare.js';
export type { CompareOptions } from '../stats/verdict.js';
