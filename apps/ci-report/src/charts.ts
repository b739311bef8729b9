// The chart.js configurations of the HTML report, as plain JSON data built
// from the inputs: per-case ratio with its confidence interval (floating bars
// for the interval, points for the ratio, a legend of the verdict colours),
// the per-case layer attribution (stacked bars of each layer's part of the
// change), and throughput across message sizes (one line per implementation,
// per run and algorithm). What needs the drawn size (which ratio ticks fit,
// how case ids wrap) is decided in the page by the functions at the end of
// this file, which html.ts inlines.
import { confidenceLabel } from '@layerbench/bench-runner/stats';
import type { CaseResult } from '@layerbench/bench-runner';
import type { ReportInputs } from './inputs.js';

export interface LegendItem {
  text: string;
  fillStyle: string;
  strokeStyle: string;
  pointStyle: 'rect' | 'rectRot';
}

export interface ChartSpec {
  id: string;
  title: string;
  /** A chart.js configuration (JSON only: no functions). */
  config: Record<string, unknown>;
  /** Canvas height in px (ratio charts grow with the number of cases). */
  height: number;
  /** A ratio axis: candidate tick values, nicest first (the page keeps those whose labels fit). */
  ratioTicks?: number[];
  /** Legend entries drawn instead of one per dataset (the verdict colours). */
  legend?: LegendItem[];
  /** Case ids on the y axis: wrapped at '/' when the chart is narrow. */
  wrapCategoryLabels?: boolean;
  /**
   * Whiskers drawn over the points of a line chart: per dataset, per label,
   * [low, high] in the y axis's unit, or null where there is none.
   */
  whiskers?: ([number, number] | null)[][];
}

/** The verdict colours of the ratio charts, in legend order, with what each means. */
export const VERDICT_COLOURS: Record<string, { colour: string; meaning: string }> = {
  regressed: { colour: 'rgba(220, 53, 69, 0.55)', meaning: 'regressed (slower)' },
  improved: { colour: 'rgba(25, 135, 84, 0.55)', meaning: 'improved (faster)' },
  unchanged: { colour: 'rgba(108, 117, 125, 0.45)', meaning: 'unchanged' },
  inconclusive: { colour: 'rgba(255, 193, 7, 0.55)', meaning: 'inconclusive' },
  failed: { colour: 'rgba(0, 0, 0, 0.2)', meaning: 'failed' },
};

// Twelve distinguishable colours: a suite shows up to a dozen implementations side by side.
const PALETTE = [
  '#0d6efd',
  '#dc3545',
  '#198754',
  '#fd7e14',
  '#6f42c1',
  '#20c997',
  '#6c757d',
  '#d63384',
  '#0dcaf0',
  '#8c564b',
  '#bcbd22',
  '#000000',
];

interface RatioRow {
  label: string;
  ratio: number;
  ci: [number, number];
  verdict: string;
}

/** Room for the legend (it wraps on a phone) and the axis, plus one row per case (two lines of a wrapped id fit in a row). */
function rowsHeight(rows: number): number {
  return 130 + rows * 36;
}

/**
 * Candidate ticks of a log ratio axis from lo to hi, nicest first: 1, then
 * powers of ten, then 2 and 5, then 1.5 and 3.., then tenths, twentieths and
 * hundredths of each decade; within a level the ones nearest 1 first. The page
 * keeps, in this order, every candidate whose label does not touch one kept before.
 */
export function ratioTickCandidates(lo: number, hi: number): number[] {
  const levels: number[][] = [
    [1],
    [2, 5],
    [1.5, 3, 4, 6, 7, 8, 9],
    Array.from({ length: 89 }, (_, i) => 1.1 + i * 0.1),
    Array.from({ length: 180 }, (_, i) => 1.05 + i * 0.05),
    Array.from({ length: 900 }, (_, i) => 1.01 + i * 0.01),
  ];
  const seen = new Set<number>();
  const out: number[] = [];
  const first = Math.floor(Math.log10(lo));
  const last = Math.ceil(Math.log10(hi));
  for (const mantissas of levels) {
    const level: number[] = [];
    for (let exp = first; exp <= last; exp++) {
      for (const m of mantissas) {
        const value = +(m * 10 ** exp).toPrecision(6);
        if (value >= lo && value <= hi && !seen.has(value)) {
          seen.add(value);
          level.push(value);
        }
      }
    }
    level.sort((a, b) => Math.abs(Math.log(a)) - Math.abs(Math.log(b)) || a - b);
    out.push(...level);
  }
  return out;
}

/** A ratio as an axis label: ×1, ×0.95, ×16. */
export function formatRatioTick(value: number): string {
  return `×${+value.toPrecision(3)}`;
}

/**
 * The ticks to draw on a log axis from min to max that is `width` px wide:
 * candidates are taken nicest first and kept when their label (centred on
 * the value) stays `gap` px clear of every label kept before, and its centre
 * `spacing` px from theirs (so a wide axis is not filled with fine values).
 * Runs in the page (html.ts inlines it): no imports, no outer names.
 */
export function chooseLogTicks(
  candidates: readonly number[],
  min: number,
  max: number,
  width: number,
  labelWidth: (value: number) => number,
  gap: number,
  spacing: number,
): number[] {
  const low = Math.log(min);
  const span = Math.log(max) - low;
  const kept: { value: number; centre: number; left: number; right: number }[] = [];
  for (const value of candidates) {
    if (value < min || value > max) continue;
    const centre = ((Math.log(value) - low) / span) * width;
    const half = labelWidth(value) / 2;
    const left = centre - half;
    const right = centre + half;
    if (left < -half || right > width + half) continue;
    const clear = (other: { centre: number; left: number; right: number }) =>
      (right + gap <= other.left || left >= other.right + gap) && Math.abs(centre - other.centre) >= spacing;
    if (kept.every(clear)) kept.push({ value, centre, left, right });
  }
  return kept.map((tick) => tick.value).sort((a, b) => a - b);
}

/**
 * A case id as a y-axis label of at most `maxChars` per line: on one line
 * when it fits, else split at the '/' nearest the middle into two lines, each
 * shortened with '…' when still too long. Runs in the page.
 */
export function wrapCaseLabel(label: string, maxChars: number): string | string[] {
  if (label.length <= maxChars) return label;
  const cut = (text: string) => (text.length <= maxChars ? text : `${text.slice(0, Math.max(1, maxChars - 1))}…`);
  let split = -1;
  for (let i = 0; i < label.length; i++) {
    if (label[i] === '/' && (split === -1 || Math.abs(i - label.length / 2) < Math.abs(split - label.length / 2)))
      split = i;
  }
  if (split === -1) return cut(label);
  return [cut(label.slice(0, split + 1)), cut(label.slice(split + 1))];
}

function ratioChart(id: string, title: string, rows: RatioRow[], alpha: number, sides: string): ChartSpec {
  // A log axis: x2 slower and x0.5 (twice as fast) are the same distance from 1,
  // and a x16 regression does not squash the 3% ones. Always includes 1.
  const lo = Math.min(1, ...rows.map((r) => r.ci[0]).filter((x) => x > 0));
  const hi = Math.max(1, ...rows.map((r) => r.ci[1]));
  const min = +(lo / 1.05).toPrecision(3);
  const max = +(hi * 1.05).toPrecision(3);
  const colour = (verdict: string) => (VERDICT_COLOURS[verdict] ?? VERDICT_COLOURS.failed!).colour;
  const present = Object.keys(VERDICT_COLOURS).filter((verdict) =>
    rows.some((r) => (VERDICT_COLOURS[r.verdict] ? r.verdict : 'failed') === verdict),
  );
  const interval = `${confidenceLabel(alpha)} CI`;
  return {
    id,
    title,
    height: rowsHeight(rows.length),
    ratioTicks: ratioTickCandidates(min, max),
    wrapCategoryLabels: true,
    legend: [
      ...present.map((verdict) => ({
        text: VERDICT_COLOURS[verdict]!.meaning,
        fillStyle: colour(verdict),
        strokeStyle: colour(verdict),
        pointStyle: 'rect' as const,
      })),
      { text: 'ratio', fillStyle: '#212529', strokeStyle: '#212529', pointStyle: 'rectRot' as const },
    ],
    config: {
      type: 'bar',
      data: {
        labels: rows.map((r) => r.label),
        datasets: [
          {
            type: 'bar',
            label: `${interval} of the ratio`,
            data: rows.map((r) => r.ci),
            backgroundColor: rows.map((r) => colour(r.verdict)),
            borderSkipped: false,
            barPercentage: 0.6,
          },
          {
            type: 'line',
            label: 'ratio',
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
            min,
            max,
            ticks: { autoSkip: false, maxRotation: 0 },
            title: {
              display: true,
              text: [`${sides}, log scale (> 1 is slower)`, `bar: ${interval}, colour: verdict`],
            },
          },
          y: { ticks: { autoSkip: false } },
        },
      },
    },
  };
}

/**
 * A case's row label in the attribution chart. A layer the case does not run
 * was not swapped for it (its share is 0 because it was not measured, not
 * because it was measured and cleared), so the label says so.
 */
function attributionLabel(c: { id: string; layersNotRun?: string[] | undefined }): string {
  const notRun = c.layersNotRun ?? [];
  return notRun.length === 0 ? c.id : `${c.id} (not run: ${notRun.join(', ')})`;
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
    wrapCategoryLabels: true,
    config: {
      type: 'bar',
      data: { labels: cases.map(attributionLabel), datasets },
      options: {
        indexAxis: 'y',
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true, title: { display: true, text: "change of bad vs good, % (each layer's share)" } },
          y: { stacked: true, ticks: { autoSkip: false } },
        },
      },
    },
  };
}

/** A throughput point: MB/s, and the whisker around it. */
interface ThroughputPoint {
  mb: number;
  whisker: [number, number] | null;
}

/**
 * The spread of a case's throughput in one run, in MB/s: over a run of
 * several processes the range of their figures (each process's median of
 * its slice medians), which is what moves between runs; in a run of one
 * process the bootstrap 95% interval of its median, which says only how
 * precisely that process measured it (separate runs differ more: compare).
 * Always includes the point itself.
 */
export function throughputWhisker(
  c: Pick<CaseResult, 'stats' | 'processFigures'>,
  mb: number,
): { whisker: [number, number]; over: 'processes' | 'interval' } | null {
  const stats = c.stats;
  if (stats === undefined || !(mb > 0)) return null;
  const median = stats.median;
  const figures = c.processFigures?.median;
  const ns =
    figures !== undefined && figures.length >= 2
      ? { low: Math.min(...figures), high: Math.max(...figures), over: 'processes' as const }
      : { low: stats.ci[0], high: stats.ci[1], over: 'interval' as const };
  if (!(ns.low > 0)) return null;
  // Throughput is bytes over time: the fastest figure is the highest throughput.
  const whisker: [number, number] = [Math.min(mb, (mb * median) / ns.high), Math.max(mb, (mb * median) / ns.low)];
  return { whisker, over: ns.over };
}

function throughputCharts(inputs: ReportInputs): ChartSpec[] {
  const charts: ChartSpec[] = [];
  for (const [m, run] of inputs.runs.entries()) {
    const byAlgorithm = new Map<string, Map<string, Map<number, ThroughputPoint>>>();
    const over = new Set<'processes' | 'interval'>();
    for (const c of run.cases) {
      const size = c.params.size ?? c.params.packetBytes;
      const mb = c.stats?.mbPerSec;
      if (typeof size !== 'number' || mb === undefined || c.status !== 'ok') continue;
      const algorithm = String(c.params.algorithm ?? c.layer);
      const impl = String(c.params.impl ?? c.implementation ?? c.id);
      const lines = byAlgorithm.get(algorithm) ?? new Map<string, Map<number, ThroughputPoint>>();
      byAlgorithm.set(algorithm, lines);
      const points = lines.get(impl) ?? new Map<number, ThroughputPoint>();
      lines.set(impl, points);
      const spread = throughputWhisker(c, mb);
      if (spread !== null) over.add(spread.over);
      points.set(size, { mb, whisker: spread?.whisker ?? null });
    }
    const whiskerTitle =
      over.size === 0
        ? []
        : [
            over.has('processes')
              ? `whiskers: the range over the run's ${run.merged.processes ?? 1} processes`
              : 'whiskers: 95% interval of each median within the run (separate runs differ more: compare them)',
          ];
    for (const [algorithm, lines] of byAlgorithm) {
      const sizes = [...new Set([...lines.values()].flatMap((p) => [...p.keys()]))].sort((a, b) => a - b);
      if (sizes.length < 2) continue;
      const title = `${algorithm} throughput of ${run.label} on ${run.env.cpuModel} (node ${run.env.node})`;
      const whiskers = [...lines.values()].map((points) => sizes.map((s) => points.get(s)?.whisker ?? null));
      charts.push({
        id: `throughput-${m}-${charts.length}`,
        title,
        height: 300,
        ...(whiskers.some((line) => line.some((w) => w !== null)) ? { whiskers } : {}),
        config: {
          type: 'line',
          data: {
            labels: sizes.map((s) => `${s} B`),
            datasets: [...lines].map(([impl, points], i) => ({
              label: impl,
              data: sizes.map((s) => points.get(s)?.mb ?? null),
              borderColor: PALETTE[i % PALETTE.length],
              backgroundColor: PALETTE[i % PALETTE.length],
              spanGaps: true,
            })),
          },
          options: {
            animation: false,
            maintainAspectRatio: false,
            scales: {
              y: {
                title: { display: true, text: ['MB/s (1e6 bytes/s)', ...whiskerTitle] },
                beginAtZero: true,
              },
              x: { title: { display: true, text: 'message size' } },
            },
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
    if (rows.length)
      charts.push(
        ratioChart(
          `compare-${i}`,
          `Per-case ratio with ${confidenceLabel(data.alpha)} CI: ${file}`,
          rows,
          data.alpha,
          'head / base',
        ),
      );
  }
  for (const [i, { file, data }] of inputs.bisects.entries()) {
    const rows = data.cases
      .filter((c) => c.total)
      .map((c) => ({ label: c.id, ratio: c.total!.ratio, ci: c.total!.ci, verdict: c.total!.verdict }));
    if (rows.length)
      charts.push(
        ratioChart(
          `bisect-ratio-${i}`,
          `Bisection bad/good with ${confidenceLabel(data.options.alpha)} CI: ${file}`,
          rows,
          data.options.alpha,
          'bad / good',
        ),
      );
    if (rows.length && data.layers.length)
      charts.push(attributionChart(`bisect-layers-${i}`, `Layer attribution per case: ${file}`, data));
  }
  charts.push(...throughputCharts(inputs));
  return charts;
}
