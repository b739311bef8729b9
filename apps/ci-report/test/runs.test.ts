// Shards of one run and two runs to compare are never confused: run files
// merge only when they are distinct shards (--shard k/n) with the same run
// identity; two runs of one machine stay two runs (both in the throughput
// charts); --base and --head name the runs to compare and the report compares
// them; ambiguous inputs are refused with one line, exit 2. And outputs are
// checked before anything is read: a folder or a missing folder is exit 2.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@layerbench/bench-runner';
import { calibrationFileName } from '@layerbench/bench-runner/calibration';
import { computeStats } from '@layerbench/bench-runner/stats';
import { buildCharts, readReportInputs, ReportInputError, throughputWhisker } from '../src/index.ts';
import { main } from '../src/report-cli.ts';
import { capture } from './capture.ts';

const fixture = (name: string) => `test/fixtures/${name}`;

describe('runs: shards merged, separate runs kept apart', () => {
  it('merges the two shards of one run (same identity, 1/2 and 2/2)', () => {
    const { runs } = readReportInputs([fixture('run-shard-1.json'), fixture('run-shard-2.json')]);
    expect(runs.map((r) => [r.machineId, r.shards, r.cases.length])).toEqual([['m-epyc-2', ['1/2', '2/2'], 12]]);
  });

  it('keeps a base and a head run of the same machine apart, and charts both', () => {
    const inputs = readReportInputs([fixture('run-base.json'), fixture('run-head.json')]);
    expect(inputs.runs.map((r) => [r.machineId, r.label, r.cases.length])).toEqual([
      ['m-epyc-2', 'test/fixtures/run-base.json', 12],
      ['m-epyc-2', 'test/fixtures/run-head.json', 12],
    ]);
    const throughput = buildCharts(inputs).filter((c) => c.id.startsWith('throughput-'));
    expect(throughput.map((c) => c.title)).toEqual([
      'SHA-1 throughput of test/fixtures/run-base.json on AMD EPYC 7B13 (node v20.20.2)',
      'SHA-1 throughput of test/fixtures/run-head.json on AMD EPYC 7B13 (node v20.20.2)',
    ]);
    // The head's unrolled line is its own numbers (35% slower), not the base's.
    const unrolled = (i: number) =>
      (throughput[i]!.config as { data: { datasets: { label: string; data: number[] }[] } }).data.datasets.find(
        (d) => d.label === 'unrolled',
      )!.data;
    expect(unrolled(1)[0]! / unrolled(0)[0]!).toBeCloseTo(1 / 1.35, 3);
    // Every point has a whisker around it: these runs are of one process, so its median's 95% interval.
    for (const chart of throughput) {
      const datasets = (chart.config as { data: { datasets: { data: (number | null)[] }[] } }).data.datasets;
      expect(chart.whiskers).toHaveLength(datasets.length);
      for (const [i, d] of datasets.entries()) {
        for (const [j, mb] of d.data.entries()) {
          const whisker = chart.whiskers![i]![j];
          if (mb === null) {
            expect(whisker).toBeNull();
            continue;
          }
          expect(whisker![0]).toBeLessThanOrEqual(mb);
          expect(whisker![1]).toBeGreaterThanOrEqual(mb);
          expect(whisker![1]).toBeGreaterThan(whisker![0]);
        }
      }
      const yTitle = (chart.config as { options: { scales: { y: { title: { text: string[] } } } } }).options.scales.y
        .title.text;
      expect(yTitle[1]).toMatch(/^whiskers: 95% interval of each median within the run/);
    }
  });

  it('whiskers: the range over the processes of a run of several, the 95% interval of the median of one', () => {
    const stats = { ...computeStats([90, 100, 110, 100, 95, 105], 1000) };
    // 1000 bytes in a median of 100 ns: 10000 MB/s. Processes at 80-125 ns: 8000-12500 MB/s.
    expect(throughputWhisker({ stats, processFigures: { median: [80, 100, 125] } }, 10000)).toEqual({
      whisker: [8000, 12500],
      over: 'processes',
    });
    const one = throughputWhisker({ stats }, 10000)!;
    expect(one.over).toBe('interval');
    expect(one.whisker[0]).toBeCloseTo((10000 * stats.median) / stats.ci[1], 6);
    expect(one.whisker[1]).toBeCloseTo((10000 * stats.median) / stats.ci[0], 6);
    // A range that leaves the point out is widened to it; nothing to show, no whisker.
    expect(throughputWhisker({ stats, processFigures: { median: [110, 120] } }, 10000)!.whisker).toEqual([
      (10000 * 100) / 120,
      10000,
    ]);
    expect(throughputWhisker({ processFigures: {} }, 10000)).toBeNull();
  });

  it('says in the Markdown that two runs of one machine can be compared with --base/--head', () => {
    const { out, io } = capture();
    expect(main([fixture('run-base.json'), fixture('run-head.json')], io)).toBe(0);
    expect(out.stdout).toContain('give them as `--base` and `--head`');
  });

  it('refuses the same shard of one run twice', () => {
    expect(() => readReportInputs([fixture('run-shard-1.json'), fixture('run-shard-1.json')])).toThrow(
      ReportInputError,
    );
    const { out, io } = capture();
    expect(main([fixture('run-shard-1.json'), fixture('run-shard-1.json')], io)).toBe(2);
    expect(out.stderr).toMatch(
      /^layerbench-report: test\/fixtures\/run-shard-1\.json and test\/fixtures\/run-shard-1\.json are both shard 1\/2 of the same run/,
    );
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('--base and --head', () => {
  it('compares the two runs: a comparison with the head slower where it is', () => {
    const inputs = readReportInputs([], { base: [fixture('run-base.json')], head: [fixture('run-head.json')] });
    expect(inputs.runs.map((r) => r.label)).toEqual(['base', 'head']);
    expect(inputs.comparisons).toHaveLength(1);
    const cmp = inputs.comparisons[0]!;
    expect(cmp.file).toBe('base (test/fixtures/run-base.json) -> head (test/fixtures/run-head.json)');
    for (const c of cmp.data.cases) {
      if (c.id.includes('unrolled')) expect(c.ratio, c.id).toBeCloseTo(1.35, 2);
      else expect(c.ratio, c.id).toBeCloseTo(1, 6);
    }
    expect(cmp.data.fingerprintDiffs.length).toBeGreaterThan(0);
    expect(buildCharts(inputs).map((c) => c.id)).toEqual(['compare-0', 'throughput-0-0', 'throughput-1-1']);
  });

  it('takes the shards of one run as --base', () => {
    const inputs = readReportInputs([], {
      base: [fixture('run-shard-1.json'), fixture('run-shard-2.json')],
      head: [fixture('run-head.json')],
    });
    expect(inputs.runs[0]).toMatchObject({ label: 'base', shards: ['1/2', '2/2'] });
    expect(inputs.runs[0]!.cases).toHaveLength(12);
  });

  it('refuses what is not one run, one side without the other, and a file given twice', () => {
    const cases: [string[], RegExp][] = [
      [
        ['--base', fixture('run-base.json'), '--base', fixture('run-head.json'), '--head', fixture('run-shard-1.json')],
        /--base .*: these are 2 different runs, not the shards of one/,
      ],
      [['--head', fixture('run-head.json')], /--head needs --base too/],
      [
        [fixture('run-base.json'), '--base', fixture('run-base.json'), '--head', fixture('run-head.json')],
        /run-base\.json is given both as a file and with --base/,
      ],
      [
        ['--base', fixture('compare.json'), '--head', fixture('run-head.json')],
        /--base test\/fixtures\/compare\.json: expected a layerbench\/run file, got layerbench\/compare/,
      ],
    ];
    for (const [args, message] of cases) {
      const { out, io } = capture();
      expect(main(args, io), args.join(' ')).toBe(2);
      expect(out.stderr).toMatch(message);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it("the comparison it made is in the report (its verdicts are the engine's: without a calibrated spread, separate runs are inconclusive)", () => {
    const { out, io } = capture();
    expect(
      main(['--base', fixture('run-base.json'), '--head', fixture('run-head.json'), '--fail-on-regression'], io),
    ).toBe(0);
    expect(out.stdout).toMatch(/across 1 comparison, 2 runs \(24 cases\)/);
  });
});

describe('--calibration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-calibration-'));
  const base = JSON.parse(readFileSync(fixture('run-base.json'), 'utf8')) as RunResult;
  /** A between-run calibration of the fixtures' machine and --time: every case 1% between processes. */
  const calibrationAt = (load: [number, number][]): string => {
    const calibration = {
      kind: 'layerbench/between-runs',
      schemaVersion: 1,
      createdAt: '2026-12-05T11:00:00.000Z',
      env: base.env,
      suites: ['sha1'],
      timePerCase: base.options.timePerCase,
      processes: 8,
      load,
      threshold: 0.02,
      alpha: 0.01,
      basis: 'fastest-low',
      pooled: { 'fastest-low': { p50: 0.01, p90: 0.01 } },
      floor: { quantile: 0, sigma: 0 },
      cases: Object.fromEntries(
        base.cases.map((c) => [
          c.id,
          { n: 8, medianNs: c.stats?.median ?? c.samples[0], sigma: { 'fastest-low': 0.01 } },
        ]),
      ),
      falseAlarms: { flagged: 0, compared: 336, pairsFlagged: 0, pairs: 28 },
      detection: [],
    };
    const file = join(dir, `calibration-${load.length}.json`);
    writeFileSync(file, JSON.stringify(calibration));
    return file;
  };
  const args = (calibration: string, head = fixture('run-head.json')) => [
    ...['--base', fixture('run-base.json'), '--head', head, '--calibration', calibration, '--fail-on-regression'],
  ];

  it('judges base against head by it, as compare does, and says so: the x1.35 cases regressed', () => {
    const calibration = calibrationAt([[1.0, 1.2]]);
    const { out, io } = capture();
    expect(main(args(calibration), io), out.stderr).toBe(1);
    expect(out.stdout).toMatch(/^## layerbench: :red_circle: regression/);
    expect(out.stdout).toMatch(/^\| `sha1\/unrolled\/size=64` \|.*\| \*\*regressed\*\* \|/m);
    expect(out.stdout).toContain('### Between-run spread');
    expect(out.stdout).toContain(
      `- between-run spread measured by \`layerbench calibrate\` on this machine (8 processes at --time 0.25, 2026-12-05T11:00:00.000Z, ${calibration})`,
    );
    // Without it, and none stored for the runs' machine: the conservative default, and the report says why.
    const without = capture();
    expect(main(args(calibration).slice(0, 4), without.io)).toBe(0);
    expect(without.out.stdout).toMatch(
      /- no --calibration given to layerbench-report, and no between-run calibration for this machine \(.+\) and Node .+ in .*report-no-calibration-.*: assuming the conservative default/,
    );
  });

  it("without --calibration, looks up the one stored for the runs' machine and runtime, as compare does", () => {
    const store = mkdtempSync(join(tmpdir(), 'report-stored-'));
    const stored = join(store, calibrationFileName(base.env, base.options.timePerCase));
    copyFileSync(calibrationAt([[1.0, 1.2]]), stored);
    const { out, io } = capture();
    const argv = args('').slice(0, 4).concat('--fail-on-regression');
    expect(main(argv, io, { LAYERBENCH_CALIBRATION_DIR: store }), out.stderr).toBe(1);
    expect(out.stdout).toMatch(/^\| `sha1\/unrolled\/size=64` \|.*\| \*\*regressed\*\* \|/m);
    expect(out.stdout).toContain(`(8 processes at --time 0.25, 2026-12-05T11:00:00.000Z, ${stored})`);
    // Not for runs busier than its processes, as compare says of a stored one.
    const head = JSON.parse(readFileSync(fixture('run-head.json'), 'utf8')) as RunResult;
    head.env.loadAvgEnd = [2.6, 2, 1];
    const busyHead = join(dir, 'head-busy-stored.json');
    writeFileSync(busyHead, JSON.stringify(head));
    const busy = capture();
    expect(
      main(['--base', fixture('run-base.json'), '--head', busyHead], busy.io, { LAYERBENCH_CALIBRATION_DIR: store }),
    ).toBe(0);
    expect(busy.out.stdout).toContain(
      `- no --calibration given to layerbench-report, and the stored calibration ${stored} does not describe these runs: they ran at a load average of up to 2.6, its processes at most 1.2`,
    );
    // --calibration wins over the stored one; a stored one of another machine is passed over.
    const other = JSON.parse(readFileSync(stored, 'utf8'));
    other.env.machineId = 'another-machine';
    const elsewhere = mkdtempSync(join(tmpdir(), 'report-stored-'));
    writeFileSync(join(elsewhere, calibrationFileName(other.env, 0.25)), JSON.stringify(other));
    const passed = capture();
    expect(main(argv, passed.io, { LAYERBENCH_CALIBRATION_DIR: elsewhere })).toBe(0);
    expect(passed.out.stdout).toContain(
      '- no --calibration given to layerbench-report, and no between-run calibration for this machine (',
    );
    // The nearest --time there is judges, and the report says it is not the runs' (as compare does).
    const atOneSecond = mkdtempSync(join(tmpdir(), 'report-stored-'));
    const longer = JSON.parse(readFileSync(stored, 'utf8'));
    longer.timePerCase = 1;
    writeFileSync(join(atOneSecond, calibrationFileName(longer.env, 1)), JSON.stringify(longer));
    const nearest = capture();
    expect(main(argv, nearest.io, { LAYERBENCH_CALIBRATION_DIR: atOneSecond })).toBe(1);
    expect(nearest.out.stdout).toContain('(note: calibrated at --time 1, the runs used --time 0.25)');
  });

  it('not for runs busier than its processes: the conservative default, and why', () => {
    const head = JSON.parse(readFileSync(fixture('run-head.json'), 'utf8')) as RunResult;
    head.env.loadAvgEnd = [2.6, 2, 1];
    const headFile = join(dir, 'head-busy.json');
    writeFileSync(headFile, JSON.stringify(head));
    const calibration = calibrationAt([
      [0.2, 0.3],
      [0.3, 0.4],
    ]);
    const { out, io } = capture();
    expect(main(args(calibration, headFile), io)).toBe(0);
    expect(out.stdout).toContain(
      `- the calibration ${calibration} does not describe these runs: they ran at a load average of up to 2.6, its processes at most 0.4 (taken as 1.0: its own measuring process); calibrate at the load the comparisons see`,
    );
  });

  it('exits 2 for a calibration that is not one, or without --base and --head', () => {
    for (const [argv, message] of [
      [args(fixture('run-base.json')), /^layerbench-report: --calibration .*run-base\.json/],
      [args(fixture('corrupt.json')), /^layerbench-report: --calibration .*corrupt\.json/],
      [
        [fixture('compare.json'), '--calibration', fixture('run-base.json')],
        /--calibration goes with --base and --head/,
      ],
      [[...args(fixture('run-base.json')), '--calibration', fixture('run-base.json')], /--calibration is given twice/],
    ] as const) {
      const { out, io } = capture();
      expect(main(argv, io), argv.join(' ')).toBe(2);
      expect(out.stderr).toMatch(message);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('--base and --head of identical code', () => {
  // The base run again, one case three times slower (a process in a mode of its own): as a run of the same
  // build, or with sha1-dispatch's built code changed.
  const dir = mkdtempSync(join(tmpdir(), 'report-aa-'));
  const base = JSON.parse(readFileSync(fixture('run-base.json'), 'utf8')) as RunResult;
  // The engine's own fingerprint, as every real run has it (the guard needs it on both sides).
  base.env.layers.push({ name: '@layerbench/bench-runner', version: '0.1.0', contentHash: '12'.repeat(32) });
  const baseFile = join(dir, 'base.json');
  writeFileSync(baseFile, JSON.stringify(base));
  const slowed = (contentHash?: string): string => {
    const head = structuredClone(base);
    head.createdAt = '2026-12-05T13:00:00.000Z';
    const c = head.cases.find((x) => x.id === 'sha1/unrolled/size=1024')!;
    c.samples = c.samples.map((v) => v * 3);
    c.stats = computeStats(c.samples, c.bytesPerOp);
    if (contentHash !== undefined)
      head.env.layers.find((l) => l.name === '@layerbench/sha1-dispatch')!.contentHash = contentHash;
    const file = join(dir, `head-${contentHash ?? 'same'}.json`);
    writeFileSync(file, JSON.stringify(head));
    return file;
  };

  it('calls every case of an A/A pair unchanged, whatever a process did, and --fail-on-regression passes', () => {
    const same = slowed();
    const inputs = readReportInputs([], { base: [baseFile], head: [same] });
    const moved = inputs.comparisons[0]!.data.cases.find((c) => c.id === 'sha1/unrolled/size=1024')!;
    expect(moved.ratio).toBeCloseTo(3, 1);
    expect(moved).toMatchObject({ verdict: 'unchanged', codeUnchanged: true, suppressedVerdict: 'regressed' });
    expect(inputs.comparisons[0]!.data.cases.every((c) => c.verdict === 'unchanged')).toBe(true);
    const { io } = capture();
    expect(main(['--base', baseFile, '--head', same, '--fail-on-regression'], io)).toBe(0);
  });

  it('judges by timing once any package differs: the x3 case regressed, exit 1 with --fail-on-regression', () => {
    const changed = slowed('ef'.repeat(32));
    const inputs = readReportInputs([], { base: [baseFile], head: [changed] });
    const moved = inputs.comparisons[0]!.data.cases.find((c) => c.id === 'sha1/unrolled/size=1024')!;
    expect(moved.verdict).toBe('regressed');
    expect(moved.codeUnchanged).toBeUndefined();
    const { io } = capture();
    expect(main(['--base', baseFile, '--head', changed, '--fail-on-regression'], io)).toBe(1);
  });

  it('with files that record the packages each case runs, a change elsewhere leaves the case unchanged, as compare does', () => {
    // As `layerbench run` writes them: every case records its packages; the env names one more package (cmac).
    const recording = (cmacHash: string, sha1Hash?: string): RunResult => {
      const r = structuredClone(base);
      r.env.layers.push({ name: '@layerbench/cmac', version: '0.1.0', contentHash: cmacHash });
      if (sha1Hash !== undefined)
        r.env.layers.find((l) => l.name === '@layerbench/sha1-dispatch')!.contentHash = sha1Hash;
      for (const c of r.cases) c.packages = ['@layerbench/sha1-dispatch'];
      return r;
    };
    const write = (name: string, r: RunResult) => {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(r));
      return file;
    };
    const recordedBase = write('recorded-base.json', recording('aa'.repeat(32)));
    const slowedHead = (r: RunResult) => {
      r.createdAt = '2026-12-05T13:00:00.000Z';
      const c = r.cases.find((x) => x.id === 'sha1/unrolled/size=1024')!;
      c.samples = c.samples.map((v) => v * 3);
      c.stats = computeStats(c.samples, c.bytesPerOp);
      return r;
    };
    const cmacOnly = write('recorded-cmac.json', slowedHead(recording('bb'.repeat(32))));
    const moved = (head: string) =>
      readReportInputs([], { base: [recordedBase], head: [head] }).comparisons[0]!.data.cases.find(
        (c) => c.id === 'sha1/unrolled/size=1024',
      )!;
    expect(moved(cmacOnly)).toMatchObject({
      verdict: 'unchanged',
      codeUnchanged: true,
      suppressedVerdict: 'regressed',
    });
    const { io } = capture();
    expect(main(['--base', recordedBase, '--head', cmacOnly, '--fail-on-regression'], io)).toBe(0);
    // The case's own package changed: judged by its timings.
    const sha1Too = write('recorded-sha1.json', slowedHead(recording('bb'.repeat(32), 'ef'.repeat(32))));
    expect(moved(sha1Too).verdict).toBe('regressed');
    // The same cmac-only change without the record: every case judged by its timings (the fallback).
    const unrecorded = (r: RunResult) => {
      for (const c of r.cases) delete c.packages;
      return r;
    };
    const oldBase = write('unrecorded-base.json', unrecorded(recording('aa'.repeat(32))));
    const oldHead = write('unrecorded-cmac.json', unrecorded(slowedHead(recording('bb'.repeat(32)))));
    const old = readReportInputs([], { base: [oldBase], head: [oldHead] }).comparisons[0]!.data.cases.find(
      (c) => c.id === 'sha1/unrolled/size=1024',
    )!;
    expect(old.verdict).toBe('regressed');
  });
});

describe('output paths are checked before anything is read or rendered', () => {
  it('exits 2 with one line for a missing folder or a folder, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-out-'));
    mkdirSync(join(dir, 'a-folder'));
    const cases: [string[], RegExp][] = [
      [
        ['--markdown', join(dir, 'missing', 'r.md')],
        /^layerbench-report: cannot write .*missing\/r\.md: folder .*missing does not exist$/,
      ],
      [
        ['--html', join(dir, 'a-folder')],
        /^layerbench-report: cannot write .*a-folder: it is a folder; give a file name$/,
      ],
      // An unreadable input is not even read when the output cannot be written.
      [['--markdown', join(dir, 'missing', 'r.md'), '--html', join(dir, 'ok.html')], /folder .*missing does not exist/],
    ];
    for (const [args, message] of cases) {
      const { out, io } = capture();
      expect(main([join(dir, 'no-such-input.json'), ...args], io), args.join(' ')).toBe(2);
      expect(out.stderr.trim()).toMatch(message);
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(join(dir, 'ok.html'))).toBe(false);
  });

  it('writes both reports when the paths are good', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-out-'));
    const { io } = capture();
    expect(main([fixture('compare.json'), '--markdown', join(dir, 'r.md'), '--html', join(dir, 'r.html')], io)).toBe(0);
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toMatch(/^## layerbench: /);
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });
});

describe('the attribution chart of a bisection', () => {
  it('names the layers a case does not run in its row label, and gives them no share', () => {
    const bisect = JSON.parse(readFileSync(fixture('bisect.json'), 'utf8'));
    for (const c of bisect.cases) {
      if (!c.id.startsWith('sha1/')) continue;
      c.layersNotRun = ['esp'];
      c.layers = c.layers.filter((l: { layer: string }) => l.layer !== 'esp');
    }
    const dir = mkdtempSync(join(tmpdir(), 'lb-report-notrun-'));
    const file = join(dir, 'bisect.json');
    writeFileSync(file, JSON.stringify(bisect));
    const chart = buildCharts(readReportInputs([file])).find((c) => c.id === 'bisect-layers-0')!;
    const data = chart.config.data as { labels: string[]; datasets: { label: string; data: number[] }[] };
    const measured = bisect.cases.filter((c: { total?: unknown }) => c.total);
    expect(data.labels).toEqual(
      measured.map((c: { id: string }) => (c.id.startsWith('sha1/') ? `${c.id} (not run: esp)` : c.id)),
    );
    const esp = data.datasets.find((d) => d.label === 'esp')!;
    measured.forEach((c: { id: string }, i: number) => {
      if (c.id.startsWith('sha1/')) expect(esp.data[i], c.id).toBe(0);
    });
    expect(data.labels.some((l) => !l.includes('not run'))).toBe(true);
  });
});
