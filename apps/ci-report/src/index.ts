// @layerbench/ci-report: layerbench result files (run, compare, bisect; from
// several machines or CI shards) to a Markdown report and a self-contained HTML report.
export { readReportInputs, mergeRuns, ReportInputError } from './inputs.js';
export type { ReportInputs, MachineRun, NamedInput } from './inputs.js';
export { formatReportMarkdown, overallVerdict, formatNs, GITHUB_COMMENT_LIMIT } from './markdown.js';
export type { Verdict } from './markdown.js';
export { formatReportHtml, chartJsSource } from './html.js';
export { buildCharts } from './charts.js';
export type { ChartSpec } from './charts.js';
