// @layerbench/bench-runner/reporters: human-readable forms of results (console
// tables, Markdown, the seeds' own formats, Bencher BMF, JSON) and the one
// units module and Markdown cell escaper they (and ci-report) share; the
// console table and Markdown of a bisect result (bisect.ts); which commits
// changed a layer (layer-commits.ts, for bisect's and compare's reports).
export { formatTable, describeEnv } from './table.js';
export { formatComparison, describeDiff, caseNote, formatInterval, summaryLine, basisLines } from './comparison.js';
export { formatMarkdown } from './markdown.js';
export { describeLayerCommits, layerCommitsHeading, layerCommitsLines, layerCommitsMarkdown } from './layer-commits.js';
export { formatJson } from './json.js';
export { formatNtpsec, ntpsecHeader } from './ntpsec.js';
export { formatEsptest } from './esptest.js';
export type { EsptestOptions } from './esptest.js';
export { formatSpeed } from './speed.js';
export { toBmf } from './bmf.js';
export type { Bmf, BmfMetric } from './bmf.js';
export { formatNs, formatRate, formatChange, formatP } from './units.js';
export { markdownCell } from './markdown-cell.js';
export {
  formatBisectTable,
  formatBisectMarkdown,
  describeLayerChange,
  bisectHeadline,
  bisectIcon,
  identicalCodeText,
  incompleteText,
  formatEffect,
  formatRatio,
} from './bisect.js';
export type { BisectMarkdownOptions } from './bisect.js';
export { confidenceLabel } from '../stats/verdict.js';
