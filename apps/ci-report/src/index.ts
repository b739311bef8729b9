// @layerbench/ci-report: layerbench result files (run, compare, bisect; from
// several machines or CI shards) to a Markdown report and a self-contained HTML report.
export { readReportInputs, mergeRuns, runIdentity, ReportInputError } from './inputs.js';
export type { ReportInputs, ReportInputOptions, MachineRun, NamedInput } from './inputs.js';
export { formatReportMarkdown, overallVerdict, GITHUB_COMMENT_LIMIT } from './markdown.js';
export type { Verdict } from './markdown.js';
export { formatReportHtml, chartJsSource, renderMarkdown } from './html.js';
export {
  buildCharts,
  chooseLogTicks,
  formatRatioTick,
  ratioTickCandidates,
  throughputWhisker,
  wrapCaseLabel,
  VERDICT_COLOURS,
} from './charts.js';
export type { ChartSpec, LegendItem } from './charts.js';
