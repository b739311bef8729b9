// The HTML report opened in headless Chromium (playwright-core, the Debian
// chromium binary), at a desktop and a phone width: every chart is drawn,
// no two tick labels of an axis overlap (their boxes from chart.js's label
// items and the canvas's text metrics), the ratio charts have a legend of the
// verdict colours, the Details section is rendered HTML (tables, headings; no
// Markdown source), the page does not scroll sideways on a phone, nothing is
// fetched and no console error appears. Screenshots go to test-artifacts/ for
// a person to look at. Without chromium the tests are skipped with one line
// (under CI=true they fail): see vectors/programs.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumProgram } from '#vectors';
import { buildCharts, formatReportHtml, readReportInputs } from '../src/index.ts';

const chromiumBinary = chromiumProgram();
const fixture = (name: string) => `test/fixtures/${name}`;
const files = ['run-shard-1.json', 'run-shard-2.json', 'run-other-machine.json', 'compare.json', 'bisect.json'].map(
  fixture,
);
const widths = [
  { name: 'desktop', viewport: { width: 1200, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

interface DrawnChart {
  id: string;
  datasets: number;
  painted: number;
  size: number;
  legend: string[];
  axes: { id: string; labels: string[]; overlaps: string[] }[];
}

/** In the page: what each chart drew, and which tick labels of an axis overlap. */
function inspectCharts(): DrawnChart[] {
  type Box = { label: string; left: number; right: number; top: number; bottom: number };
  type LabelItem = {
    label: string | string[];
    font: { string: string; lineHeight: number };
    textOffset: number;
    options: { translation: [number, number]; textAlign: string; textBaseline: string };
  };
  type Scale = { id: string; getLabelItems(): LabelItem[] };
  type ChartInstance = {
    canvas: HTMLCanvasElement;
    data: { datasets: unknown[] };
    legend?: { legendItems?: { text: string }[] };
    scales: Record<string, Scale>;
  };
  const w = window as unknown as { Chart: { instances: Record<string, ChartInstance> } };
  return Object.values(w.Chart.instances).map((chart) => {
    const canvas = chart.canvas;
    const ctx = canvas.getContext('2d')!;
    const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++;
    const axes = Object.values(chart.scales).map((scale) => {
      const boxes: Box[] = scale.getLabelItems().map((item) => {
        const lines = Array.isArray(item.label) ? item.label : [item.label];
        ctx.save();
        ctx.font = item.font.string;
        const width = Math.max(...lines.map((line) => ctx.measureText(line).width));
        ctx.restore();
        const height = lines.length * item.font.lineHeight;
        const [x, y] = item.options.translation;
        const left =
          item.options.textAlign === 'center' ? x - width / 2 : item.options.textAlign === 'right' ? x - width : x;
        const firstLine = y + item.textOffset;
        const top = item.options.textBaseline === 'middle' ? firstLine - item.font.lineHeight / 2 : firstLine;
        return { label: lines.join(' '), left, right: left + width, top, bottom: top + height };
      });
      const overlaps: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!;
          const b = boxes[j]!;
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            overlaps.push(`'${a.label}' / '${b.label}'`);
        }
      }
      return { id: scale.id, labels: boxes.map((box) => box.label), overlaps };
    });
    return {
      id: canvas.id,
      datasets: chart.data.datasets.length,
      painted,
      size: canvas.width * canvas.height,
      legend: (chart.legend?.legendItems ?? []).map((item) => item.text),
      axes,
    };
  });
}

describe.skipIf(chromiumBinary.skip)('HTML report in Chromium', () => {
  let browser: Browser;
  let file: string;
  const inputs = readReportInputs(files);
  const expected = buildCharts(inputs);

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumBinary.require(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'report-html-'));
    file = join(dir, 'report.html');
    writeFileSync(file, formatReportHtml(inputs, 'layerbench report (fixtures)'));
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      problems.push(`network request: ${url}`);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-charts-drawn]');
    return { page, problems };
  }

  it('has the charts of the fixtures: ratio + CI for the comparison and the bisection, the attribution, throughput per run', () => {
    expect(expected.map((c) => c.id)).toEqual([
      'compare-0',
      'bisect-ratio-0',
      'bisect-layers-0',
      'throughput-0-0',
      'throughput-1-1',
    ]);
  });

  it.each(widths)(
    'at $name width: every chart drawn and legible, Details rendered, no network, no console error',
    async ({ name, viewport }) => {
      const { page, problems } = await open(viewport);
      const drawn = await page.evaluate(inspectCharts);
      expect(drawn.map((d) => d.id).sort()).toEqual(expected.map((c) => c.id).sort());
      for (const d of drawn) {
        expect(d.datasets, d.id).toBeGreaterThan(0);
        // Axes, labels and bars cover far more than a blank canvas's 0 painted pixels.
        expect(d.painted / d.size, d.id).toBeGreaterThan(0.01);
        for (const axis of d.axes) {
          expect(axis.labels.length, `${d.id} ${axis.id}: tick labels`).toBeGreaterThan(1);
          expect(axis.overlaps, `${d.id} ${axis.id}: overlapping tick labels`).toEqual([]);
        }
        expect(d.legend.length, `${d.id}: legend`).toBeGreaterThan(0);
      }
      // The verdict colours are in the legend of each ratio chart.
      const compare = drawn.find((d) => d.id === 'compare-0')!;
      expect(compare.legend).toEqual(
        expect.arrayContaining(['regressed (slower)', 'improved (faster)', 'unchanged', 'ratio']),
      );
      expect(drawn.find((d) => d.id === 'bisect-ratio-0')!.legend).toEqual(
        expect.arrayContaining(['regressed (slower)', 'unchanged']),
      );
      // Each throughput point carries its whisker (the fixtures' runs are of one process: its median's interval).
      const whiskers = await page.evaluate(() =>
        [...document.querySelectorAll('canvas[id^="throughput-"]')].map((c) => c.getAttribute('data-whiskers-drawn')),
      );
      expect(whiskers).toEqual(
        expected
          .filter((c) => c.id.startsWith('throughput-'))
          .map((c) => String(c.whiskers!.flat().filter((w) => w !== null).length)),
      );
      expect(whiskers.every((n) => Number(n) > 0)).toBe(true);
      if (name === 'desktop') {
        // The compare fixture's intervals reach below x0.93: the log axis labels values below 1 too.
        const ticks = compare.axes.find((a) => a.id === 'x')!.labels.map((l) => Number(l.replace('×', '')));
        expect(
          ticks.some((t) => t < 1),
          `ticks ${ticks.join(' ')}`,
        ).toBe(true);
        expect(ticks).toContain(1);
      }

      const details = await page.evaluate(() => {
        const section = document.querySelector('.details')!;
        return {
          tables: section.querySelectorAll('table').length,
          headings: [...section.querySelectorAll('h2, h3, h4, h5')].map((h) => h.textContent),
          pre: section.querySelectorAll('pre').length,
          text: section.textContent ?? '',
          summaries: section.querySelectorAll('details > summary').length,
        };
      });
      expect(details.tables).toBeGreaterThanOrEqual(4);
      expect(details.headings).toEqual(expect.arrayContaining(['Regressed and improved cases', 'Runs']));
      expect(details.pre).toBe(0);
      expect(details.summaries).toBe(1);
      expect(details.text).not.toMatch(/\|---|^#+ |:red_circle:/m);

      const overflow = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
      }));
      expect(overflow.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(overflow.viewport);
      expect(problems).toEqual([]);

      const artifacts = join(process.cwd(), 'test-artifacts');
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, `report-${name}.png`), fullPage: true });
      await page.close();
    },
  );
});
