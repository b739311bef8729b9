// The self-contained HTML report: one file that opens without network access.
// chart.js's UMD build is read from node_modules and inlined in a <script>;
// the chart configurations are embedded as JSON and drawn on load, with the
// few decisions that need the drawn size (which ratio ticks fit, how case ids
// wrap) made in the page by functions from charts.ts. The Details section is
// the Markdown report rendered to HTML here, when the report is written
// (marked, pinned): nothing is fetched or rendered from Markdown at view time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Marked } from 'marked';
import type { Tokens } from 'marked';
import { buildCharts, chooseLogTicks, formatRatioTick, wrapCaseLabel } from './charts.js';
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
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The GitHub shortcodes the Markdown report uses, as coloured dots (a plain
 * character in a colour: emoji fonts are missing on many machines).
 */
const SHORTCODES: Record<string, string> = {
  ':red_circle:': '<span class="dot" style="color:#dc3545" title="regression">\u25CF</span>',
  ':green_circle:': '<span class="dot" style="color:#198754" title="no regression">\u25CF</span>',
  ':yellow_circle:': '<span class="dot" style="color:#e0a800" title="inconclusive">\u25CF</span>',
  ':white_circle:': '<span class="dot" style="color:#adb5bd" title="nothing measured">\u25CF</span>',
};

/**
 * The only raw HTML the Markdown report writes: the <details>/<summary>
 * around each bisection (summary text without markup). Any other HTML in the
 * Markdown (say, from a case id in a result file) is shown as text.
 */
const REPORT_HTML = /^(<details( open)?>(<summary>[^<>]*<\/summary>)?|<\/details>)\s*$/;

const markdownToHtml = new Marked({
  gfm: true,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return REPORT_HTML.test(token.text.trim()) ? token.text : escapeHtml(token.text);
    },
  },
});

/** The Markdown report as HTML: shortcodes as coloured dots, wide tables scroll inside their own box. */
export function renderMarkdown(markdown: string): string {
  const html = markdownToHtml.parse(markdown, { async: false });
  return html
    .replace(/:[a-z_]+:/g, (code) => SHORTCODES[code] ?? code)
    .replace(/<table>/g, '<div class="table-scroll"><table>')
    .replace(/<\/table>/g, '</table></div>');
}

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; color: #212529; padding: 0 16px; overflow-wrap: anywhere; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; } h3 { font-size: 15px; margin: 22px 0 4px; }
.verdict { padding: 10px 14px; border-radius: 6px; font-weight: 600; }
.verdict.bad { background: #f8d7da; } .verdict.good { background: #d1e7dd; }
.chart { position: relative; margin: 4px 0 24px; }
.chart-title { font-weight: 600; font-size: 13px; color: #495057; margin: 18px 0 0; }
.details h2, .details h3, .details h4, .details h5 { font-size: 15px; margin: 20px 0 6px; }
.details summary { cursor: pointer; font-weight: 600; margin: 10px 0; }
.details code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f8fa; padding: 1px 4px; border-radius: 3px; }
.table-scroll { overflow-x: auto; margin: 8px 0 14px; }
.details table { border-collapse: collapse; font-size: 13px; }
.details th, .details td { border: 1px solid #dee2e6; padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: normal; }
.details th { background: #f1f3f5; }
`;

/**
 * Draws every chart. chart.js needs functions for what depends on the drawn
 * size; they are defined here from charts.ts (chooseLogTicks, formatRatioTick,
 * wrapCaseLabel are self-contained) and attached to each configuration.
 */
function drawScript(): string {
  return `
(function () {
  var chooseLogTicks = ${chooseLogTicks.toString()};
  var formatRatioTick = ${formatRatioTick.toString()};
  var wrapCaseLabel = ${wrapCaseLabel.toString()};
  var specs = JSON.parse(document.getElementById('layerbench-charts').textContent);
  specs.forEach(function (spec) {
    var config = spec.config;
    var scales = config.options.scales || {};
    if (spec.ratioTicks) {
      var x = scales.x;
      x.afterBuildTicks = function (axis) {
        var ctx = axis.ctx;
        ctx.save();
        ctx.font = Chart.helpers.toFont(axis.options.ticks.font).string;
        var values = chooseLogTicks(spec.ratioTicks, axis.min, axis.max, axis.width, function (value) {
          return ctx.measureText(formatRatioTick(value)).width;
        }, 12, 64);
        ctx.restore();
        axis.ticks = values.map(function (value) { return { value: value }; });
      };
      x.ticks.callback = function (value) { return formatRatioTick(value); };
    }
    if (spec.wrapCategoryLabels) {
      scales.y.ticks.callback = function (value) {
        var maxChars = Math.max(14, Math.floor(this.chart.width * 0.42 / 7));
        return wrapCaseLabel(this.getLabelForValue(value), maxChars);
      };
    }
    if (spec.legend) {
      config.options.plugins = config.options.plugins || {};
      config.options.plugins.legend = {
        onClick: function () {},
        labels: {
          usePointStyle: true,
          generateLabels: function () {
            return spec.legend.map(function (item) {
              return { text: item.text, fillStyle: item.fillStyle, strokeStyle: item.strokeStyle, pointStyle: item.pointStyle, lineWidth: 1, hidden: false };
            });
          },
        },
      };
    }
    if (spec.whiskers) {
      // A vertical line with caps over each point that has a whisker, in its line's colour; none for a hidden line.
      config.plugins = [{
        id: 'layerbench-whiskers',
        afterDatasetsDraw: function (chart) {
          var ctx = chart.ctx;
          var y = chart.scales.y;
          spec.whiskers.forEach(function (line, d) {
            if (!chart.isDatasetVisible(d)) return;
            var meta = chart.getDatasetMeta(d);
            ctx.save();
            ctx.strokeStyle = chart.data.datasets[d].borderColor;
            ctx.lineWidth = 1;
            line.forEach(function (whisker, i) {
              var point = meta.data[i];
              if (!whisker || !point) return;
              var top = y.getPixelForValue(whisker[1]);
              var bottom = y.getPixelForValue(whisker[0]);
              ctx.beginPath();
              ctx.moveTo(point.x, top);
              ctx.lineTo(point.x, bottom);
              ctx.moveTo(point.x - 4, top);
              ctx.lineTo(point.x + 4, top);
              ctx.moveTo(point.x - 4, bottom);
              ctx.lineTo(point.x + 4, bottom);
              ctx.stroke();
            });
            ctx.restore();
          });
          chart.canvas.setAttribute('data-whiskers-drawn', String(spec.whiskers.reduce(function (n, line) {
            return n + line.filter(function (w) { return w; }).length;
          }, 0)));
        },
      }];
    }
    new Chart(document.getElementById(spec.id).getContext('2d'), config);
  });
  document.body.setAttribute('data-charts-drawn', String(specs.length));
})();
`;
}

export function formatReportHtml(inputs: ReportInputs, title = 'layerbench report'): string {
  const verdict = overallVerdict(inputs);
  const charts = buildCharts(inputs);
  const attributed = [...verdict.attributed]
    .sort((a, b) => b[1] - a[1])
    .map(([layer, n]) => {
      const why = [
        ...new Set(
          inputs.bisects.filter((b) => b.data.summary.attributed[layer]).map((b) => describeLayerChange(b.data, layer)),
        ),
      ];
      return `<li><strong>${escapeHtml(layer)}</strong> explains ${n} case${n === 1 ? '' : 's'}: ${escapeHtml(why.join('; '))}</li>`;
    });
  const unfinished = verdict.incomplete.length
    ? `; incomplete ${[...new Set(verdict.incomplete.map((i) => i.kind))].join(' and ')} (${verdict.incomplete.map((i) => i.text).join('; ')}): not a pass`
    : '';
  const headline = verdict.regressed
    ? `Regression: ${verdict.regressedCases} case${verdict.regressedCases === 1 ? '' : 's'} slower, ${verdict.improvedCases} faster${unfinished}`
    : verdict.incomplete.length
      ? `Incomplete: no regression in what was measured, ${verdict.improvedCases} case${verdict.improvedCases === 1 ? '' : 's'} faster${unfinished}`
      : `No regression: ${verdict.improvedCases} case${verdict.improvedCases === 1 ? '' : 's'} faster`;
  const chartSpecs = charts.map(({ id, config, ratioTicks, legend, wrapCategoryLabels, whiskers }) => ({
    id,
    config,
    ratioTicks,
    legend,
    wrapCategoryLabels,
    whiskers,
  }));
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
${charts
  .map(
    (c) =>
      `<p class="chart-title" id="${escapeHtml(c.id)}-title">${escapeHtml(c.title)}</p>\n<div class="chart" style="height:${c.height}px"><canvas id="${escapeHtml(c.id)}" aria-labelledby="${escapeHtml(c.id)}-title" role="img"></canvas></div>`,
  )
  .join('\n')}
<h2>Details</h2>
<div class="details">
${renderMarkdown(formatReportMarkdown(inputs))}
</div>
<script>${chartJsSource().replace(/<\/script/gi, '<\\/script')}</script>
<script type="application/json" id="layerbench-charts">${scriptJson(chartSpecs)}</script>
<script>${drawScript()}</script>
</body>
</html>
`;
}
