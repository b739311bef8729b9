// The self-contained HTML report: one file that opens without network access.
// chart.js's UMD build is read from node_modules and inlined in a <script>;
// the chart configurations are embedded as JSON and drawn on load.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildCharts } from './charts.js';
import type { ReportInputs } from './inputs.js';
import { formatReportMarkdown, overallVerdict } from './markdown.js';
import { describeLayerChange } from '@layerbench/bench-runner/reporters';

/** The chart.js UMD bundle (defines the global `Chart`). */
export function chartJsSource(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('chart.js');
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON safe inside a <script> element (no `</script>`, no `<!--`). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; color: #212529; padding: 0 16px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; }
.verdict { padding: 10px 14px; border-radius: 6px; font-weight: 600; }
.verdict.bad { background: #f8d7da; } .verdict.good { background: #d1e7dd; }
.chart { position: relative; margin: 18px 0 28px; }
pre { background: #f6f8fa; padding: 12px; overflow-x: auto; font-size: 12px; }
`;

const DRAW = `
(function () {
  var specs = JSON.parse(document.getElementById('layerbench-charts').textContent);
  specs.forEach(function (spec) {
    var canvas = document.getElementById(spec.id);
    new Chart(canvas.getContext('2d'), spec.config);
  });
  document.body.setAttribute('data-charts-drawn', String(specs.length));
})();
`;

export function formatReportHtml(inputs: ReportInputs, title = 'layerbench report'): string {
  const verdict = overallVerdict(inputs);
  const charts = buildCharts(inputs);
  const attributed = [...verdict.attributed].sort((a, b) => b[1] - a[1]).map(([layer, n]) => {
    const why = [...new Set(inputs.bisects.filter((b) => b.data.summary.attributed[layer]).map((b) => describeLayerChange(b.data, layer)))];
    return `<li><strong>${escapeHtml(layer)}</strong> explains ${n} case${n === 1 ? '' : 's'}: ${escapeHtml(why.join('; '))}</li>`;
  });
  const unfinished = verdict.incomplete.length ? `; incomplete bisection (${verdict.incomplete.join('; ')}): not a pass` : '';
  const headline = verdict.regressed
    ? `Regression: ${verdict.regressedCases} case${verdict.regressedCases === 1 ? '' : 's'} slower, ${verdict.improvedCases} faster${unfinished}`
    : verdict.incomplete.length
      ? `Incomplete: no regression in what was measured, ${verdict.improvedCases} case${verdict.improvedCases === 1 ? '' : 's'} faster${unfinished}`
      : `No regression: ${verdict.improvedCases} case${verdict.improvedCases === 1 ? '' : 's'} faster`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="verdict ${verdict.regressed || verdict.incomplete.length ? 'bad' : 'good'}">${escapeHtml(headline)}</p>
${attributed.length ? `<h2>Attributed layers</h2>\n<ul>${attributed.join('\n')}</ul>` : ''}
<h2>Charts</h2>
${charts.length ? '' : '<p>No chart: the inputs have no comparisons, bisections or sized cases.</p>'}
${charts.map((c) => `<div class="chart" style="height:${c.height}px"><canvas id="${escapeHtml(c.id)}" aria-label="${escapeHtml(c.title)}" role="img"></canvas></div>`).join('\n')}
<h2>Details</h2>
<pre>${escapeHtml(formatReportMarkdown(inputs))}</pre>
<script>${chartJsSource().replace(/<\/script/gi, '<\\/script')}</script>
<script type="application/json" id="layerbench-charts">${scriptJson(charts.map((c) => ({ id: c.id, config: c.config })))}</script>
<script>${DRAW}</script>
</body>
</html>
`;
}
