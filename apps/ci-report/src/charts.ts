// The chart.js configurations of the HTML report, as plain JSON data built
// from the inputs: per-case ratio with its confidence interval (floating bars
// for the interval, points for the ratio), the per-case layer attribution
// (stacked bars of each layer's part of the change), and throughput across
// message sizes (one line per implementation, per machine and algorithm).
import { confidenceLabel } from '@layerbench/bench-runner/stats';
import type { ReportInputs } from './inputs.js';

export interface ChartSpec {
  id: string;
  title: string;
  /** A chart.js configuration (JSON only: no functions). */
  config: Record<string, unknown>;
  /** Canvas height in px (ratio charts grow with the number of cases). */
  height: number;
}

const VERDICT_COLOURS: Record<string, string> = {
  regressed: 'rgba(220, 53, 69, 0.55)',
  improved: 'rgba(25, 135, 84, 0.55)',
  unchanged: 'rgba(108, 117, 125, 0.45)',
  inconclusive: 'rgba(255, 193, 7, 0.55)',
  failed: 'rgba(0, 0, 0, 0.2)',
};

// Twelve distinguishable colours: a suite shows up to a dozen implementations side by side.
const PALETTE = [
  '#0d6efd', '#dc3545', '#198754', '#fd7e14', '#6f42c1', '#20c997',
  '#6c757d', '#d63384', '#0dcaf0', '#8c564b', '#bcbd22', '#000000',
];

interface RatioRow {
  label: string;
  ratio: number;
  ci: [number, number];
  verdict: string;
}

/** Room for the title, legend and axis, plus one row per case (every label shown). */
function rowsHeight(rows: number): number {
  return 110 + rows * 30;
}

function ratioChart(id: string, title: string, rows: RatioRow[], alpha: number): ChartSpec {
  // A log axis: x2 slower and x0.5 (twice as fast) are the same distance from 1,
  // and a x16 regression does not squash the 3% ones. Always includes 1.
  const lo = Math.min(1, ...rows.map((r) => r.ci[0]).filter((x) => x > 0));
  const hi = Math.max(1, ...rows.map((r) => r.ci[1]));
  return {
    id,
    title,
    height: rowsHeight(rows.length),
    config: {
      type: 'bar',
      data: {
        labels: rows.map((r) => r.label),
        datasets: [
          {
            type: 'bar',
            label: `${confidenceLabel(alpha)} CI of the ratio`,
            data: rows.map((r) => r.ci),
            backgroundColor: rows.map((r) => VERDICT_COLOURS[r.verdict] ?? VERDICT_COLOURS['failed']),
            borderSkipped: false,
            barPercentage: 0.6,
          },
          {
            type: 'line',
            label: 'ratio (median)',
            data: rows.map((r) => r.ratio),
            showLine: false,
            pointRadius: 5,
            pointStyle: 'rectRot',
            backgroundColor: '#212529',
            borderColor: '#212529',
          },
        ],
      },
      options: {
        indexAxis: 'y',
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: {
            type: 'logarithmic',
            min: +(lo / 1.05).toPrecision(3),
            max: +(hi * 1.05).toPrecision(3),
            title: { display: true, text: 'head / base, log scale (> 1 is slower)' },
          },
          y: { ticks: { autoSkip: false } },
        },
        plugins: { title: { display: true, text: title } },
      },
    },
  };
}

function attributionChart(id: string, title: string, inputs: ReportInputs['bisects'][number]['data']): ChartSpec {
  const cases = inputs.cases.filter((c) => c.total);
  const pct = (r: number) => (r - 1) * 100;
  const datasets = inputs.layers.map((layer, i) => ({
    label: layer,
    data: cases.map((c) => {
      const share = c.layers.find((l) => l.layer === layer)?.share ?? 0;
      return +(share * pct(c.total!.ratio)).toFixed(3);
    }),
    backgroundColor: PALETTE[i % PALETTE.length],
    stack: 'change',
  }));
  datasets.push({
    label: 'not explained by one layer (interaction, noise)',
    data: cases.map((c) => {
      const explained = c.layers.reduce((sum, l) => sum + (l.share ?? 0), 0);
      return +((1 - explained) * pct(c.total!.ratio)).toFixed(3);
    }),
    backgroundColor: '#adb5bd',
    stack: 'change',
  });
  return {
    id,
    title,
    height: rowsHeight(cases.length),
    config: {
      type: 'bar',
      data: { labels: cases.map((c) => c.id), datasets },
      options: {
        indexAxis: 'y',
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true, title: { display: true, text: 'change of bad vs good, % (each layer\'s share)' } },
          y: { stacked: true, ticks: { autoSkip: false } },
        },
        plugins: { title: { display: true, text: title } },
      },
    },
  };
}

function throughputCharts(inputs: ReportInputs): ChartSpec[] {
  const charts: ChartSpec[] = [];
  for (const [m, run] of inputs.runs.entries()) {
    const byAlgorithm = new Map<string, Map<string, Map<number, number>>>();
    for (const c of run.cases) {
      const size = c.params.size ?? c.params.packetBytes;
      const mb = c.stats?.mbPerSec;
      if (typeof size !== 'number' || mb === undefined || c.status !== 'ok') continue;
      const algorithm = String(c.params.algorithm ?? c.layer);
      const impl = String(c.params.impl ?? c.implementation ?? c.id);
      const lines = byAlgorithm.get(algorithm) ?? new Map<string, Map<number, number>>();
      byAlgorithm.set(algorithm, lines);
      const points = lines.get(impl) ?? new Map<number, number>();
      lines.set(impl, points);
      points.set(size, mb);
    }
    for (const [algorithm, lines] of byAlgorithm) {
      const sizes = [...new Set([...lines.values()].flatMap((p) => [...p.keys()]))].sort((a, b) => a - b);
      if (sizes.length < 2) continue;
      const title = `${algorithm} throughput on ${run.env.cpuModel} (node ${run.env.node})`;
      charts.push({
        id: `throughput-${m}-${charts.length}`,
        title,
        height: 300,
        config: {
          type: 'line',
          data: {
            labels: sizes.map((s) => `${s} B`),
            datasets: [...lines].map(([impl, points], i) => ({
              label: impl,
              data: sizes.map((s) => points.get(s) ?? null),
              borderColor: PALETTE[i % PALETTE.length],
              backgroundColor: PALETTE[i % PALETTE.length],
              spanGaps: true,
            })),
          },
          options: {
            animation: false,
            maintainAspectRatio: false,
            scales: { y: { title: { display: true, text: 'MB/s (1e6 bytes/s)' }, beginAtZero: true }, x: { title: { display: true, text: 'message size' } } },
            plugins: { title: { display: true, text: title } },
          },
        },
      });
    }
  }
  return charts;
}

/** Every chart of the report, in page order. */
export function buildCharts(inputs: ReportInputs): ChartSpec[] {
  const charts: ChartSpec[] = [];
  for (const [i, { file, data }] of inputs.comparisons.entries()) {
    const rows = data.cases.map((c) => ({ label: c.id, ratio: c.ratio, ci: c.ratioCi, verdict: c.verdict }));
    if (rows.length) charts.push(ratioChart(`compare-${i}`, `Per-case ratio with ${confidenceLabel(data.alpha)} CI: ${file}`, rows, data.alpha));
  }
  for (const [i, { file, data }] of inputs.bisects.entries()) {
    const rows = data.cases
      .filter((c) => c.total)
      .map((c) => ({ label: c.id, ratio: c.total!.ratio, ci: c.total!.ci, verdict: c.total!.verdict }));
    if (rows.length) charts.push(ratioChart(`bisect-ratio-${i}`, `Bisection bad/good with ${confidenceLabel(data.options.alpha)} CI: ${file}`, rows, data.options.alpha));
    if (rows.length && data.layers.length) charts.push(attributionChart(`bisect-layers-${i}`, `Layer attribution per case: ${file}`, data));
  }
  charts.push(...throughputCharts(inputs));
  return charts;
}
