// The HTML report opened in headless Chromium (playwright-core, the Debian
// chromium binary): every chart is drawn (chart.js instances exist and their
// canvases are not blank), nothing is fetched from the network, no console
// error; a screenshot goes to test-artifacts/ for a person to look at.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumProgram } from '#vectors';
import { buildCharts, formatReportHtml, readReportInputs } from '../src/index.ts';

const chromiumBinary = chromiumProgram();
const fixture = (name: string) => `test/fixtures/${name}`;
const files = ['run-shard-1.json', 'run-shard-2.json', 'run-other-machine.json', 'compare.json', 'bisect.json'].map(fixture);

describe.skipIf(chromiumBinary.skip)('HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumBinary.require(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws every chart without network access or console errors', async () => {
    const inputs = readReportInputs(files);
    const expected = buildCharts(inputs);
    // ratio + CI for the comparison and the bisection, the attribution bars, throughput lines per machine.
    expect(expected.map((c) => c.id)).toEqual(['compare-0', 'bisect-ratio-0', 'bisect-layers-0', 'throughput-0-0', 'throughput-1-1']);
    const dir = mkdtempSync(join(tmpdir(), 'report-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, formatReportHtml(inputs, 'layerbench report (fixtures)'));

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
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

    const drawn = await page.evaluate(() => {
      const w = window as unknown as { Chart: { instances: Record<string, { canvas: HTMLCanvasElement; data: { datasets: unknown[] } }> } };
      return Object.values(w.Chart.instances).map((chart) => {
        const canvas = chart.canvas;
        const ctx = canvas.getContext('2d')!;
        const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let painted = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++;
        return { id: canvas.id, datasets: chart.data.datasets.length, painted, size: canvas.width * canvas.height };
      });
    });
    expect(drawn.map((d) => d.id).sort()).toEqual(expected.map((c) => c.id).sort());
    for (const d of drawn) {
      expect(d.datasets, d.id).toBeGreaterThan(0);
      // Axes, labels and bars cover far more than a blank canvas's 0 painted pixels.
      expect(d.painted / d.size, d.id).toBeGreaterThan(0.01);
    }
    expect(problems).toEqual([]);

    const artifacts = join(process.cwd(), 'test-artifacts');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'report.png'), fullPage: true });
    await page.close();
  });
});
