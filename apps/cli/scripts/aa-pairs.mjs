// Separate-run A/A pairs, as the issue-13 target states them: N + 1 runs of
// identical code, one after the other, each `layerbench run <suites> --time t`
// in a fresh process, every second run with a busy process competing for the
// CPU (`node -e 'for(;;){}'`, started just before the run, killed after it);
// then each consecutive pair (one quiet run, one busy run) compared with
// `layerbench compare`, without a calibration (an empty calibration folder:
// compare's conservative default) and, with --calibration, with that file;
// each both as a user runs it (identical code is unchanged by definition:
// compare's unchanged-code guard) and with --judge-identical-code (timing
// alone: the statistical false-alarm rate of the between-run model).
//
//   npm run build && node apps/cli/scripts/aa-pairs.mjs --pairs 20 --dir /tmp/aa \
//       [--time 0.3] [--suite sha1 --suite hmac] [--calibration cal.json] [--compare-only] \
//       [--processes k] [--threshold t]
//
// --processes k: each run is `run --processes k` (topped up as run does by
// default, with the calibration stored for this machine: set
// LAYERBENCH_CALIBRATION_DIR to choose it); --threshold t: compare's noise
// threshold (default compare's own).
//
// Prints one line per pair (exit code and cases called regressed/improved of
// each compare, the load average at the start and end of both runs) and the
// totals; writes <dir>/summary.json. --compare-only re-compares the run files
// already in --dir (e.g. with another calibration) without measuring again.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, '..', 'dist', 'main.js');

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '20' },
    time: { type: 'string', default: '0.3' },
    suite: { type: 'string', multiple: true, default: ['sha1', 'hmac'] },
    dir: { type: 'string' },
    calibration: { type: 'string' },
    'compare-only': { type: 'boolean', default: false },
    processes: { type: 'string' },
    threshold: { type: 'string' },
  },
});
if (values.dir === undefined) throw new Error('--dir <folder> is required (the run files and summary.json go there)');
const dir = resolve(values.dir);
mkdirSync(dir, { recursive: true });
const pairs = Number(values.pairs);
const runFile = (i) => join(dir, `r${i + 1}.json`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

function measureRun(i, busy) {
  return new Promise((done, fail) => {
    const competitor = busy ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : undefined;
    const child = spawn(
      process.execPath,
      [
        main,
        'run',
        ...values.suite,
        '--time',
        values.time,
        ...(values.processes === undefined ? [] : ['--processes', values.processes]),
        '--out',
        runFile(i),
        '--quiet',
        '--format',
        'json',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', fail);
    child.on('close', (code) => {
      competitor?.kill('SIGKILL');
      if (code !== 0) fail(new Error(`run ${i + 1} exited ${code}`));
      else done();
    });
  });
}

if (!values['compare-only']) {
  for (let i = 0; i <= pairs; i++) {
    const busy = i % 2 === 1;
    const started = Date.now();
    await measureRun(i, busy);
    process.stderr.write(
      `run ${i + 1}/${pairs + 1}${busy ? ' (busy competitor)' : ''}: ${((Date.now() - started) / 1000).toFixed(0)} s, load ${loadavg().join(' ')}\n`,
    );
  }
}

const emptyCalibrationDir = mkdtempSync(join(tmpdir(), 'layerbench-no-calibration-'));
function compare(a, b, calibration, judgeIdenticalCode) {
  const args = [main, 'compare', runFile(a), runFile(b), '--format', 'json'];
  if (calibration !== undefined) args.push('--calibration', resolve(calibration));
  if (judgeIdenticalCode) args.push('--judge-identical-code');
  if (values.threshold !== undefined) args.push('--threshold', values.threshold);
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    env: { ...process.env, LAYERBENCH_CALIBRATION_DIR: emptyCalibrationDir },
    maxBuffer: 256 * 1024 * 1024,
  });
  const cmp = JSON.parse(r.stdout);
  const flagged = cmp.cases.filter((c) => c.verdict === 'regressed' || c.verdict === 'improved');
  return {
    exit: r.status,
    compared: cmp.cases.length,
    regressed: cmp.summary.regressed,
    improved: cmp.summary.improved,
    flagged: flagged.map((c) => `${c.id} ${c.verdict} x${c.ratio.toFixed(3)}`),
    // Cases judged on the calm figures of several processes a side.
    calm: cmp.cases.filter((c) => c.method === 'calm-relative').length,
    method: cmp.method ?? cmp.noise?.basis,
    noise: cmp.noise?.description,
  };
}

const calibrations = [['no calibration', undefined]];
if (values.calibration !== undefined) calibrations.push([`calibration ${values.calibration}`, values.calibration]);
const modes = calibrations.flatMap(([label, file]) => [
  [`${label}, as compare runs by default`, file, false],
  [`${label}, --judge-identical-code (timing alone)`, file, true],
]);

const runs = [];
for (let i = 0; i <= pairs; i++) {
  if (!existsSync(runFile(i))) throw new Error(`${runFile(i)} is missing`);
  const run = JSON.parse(readFileSync(runFile(i), 'utf8'));
  runs.push({
    file: runFile(i),
    busy: i % 2 === 1,
    processes: run.processes ?? 1,
    load: [run.env.loadAvgStart[0], run.env.loadAvgEnd[0]],
  });
}
const summary = {
  time: Number(values.time),
  suites: values.suite,
  ...(values.processes === undefined ? {} : { processes: Number(values.processes) }),
  ...(values.threshold === undefined ? {} : { threshold: Number(values.threshold) }),
  runs,
  modes: {},
};
for (const [name, calibration, judgeIdenticalCode] of modes) {
  const rows = [];
  for (let i = 0; i < pairs; i++)
    rows.push({ pair: `r${i + 1} r${i + 2}`, ...compare(i, i + 1, calibration, judgeIdenticalCode) });
  const ok = rows.filter((r) => r.exit === 0).length;
  const cases = rows.reduce((n, r) => n + r.compared, 0);
  const flagged = rows.reduce((n, r) => n + r.regressed + r.improved, 0);
  summary.modes[name] = { pairs: rows.length, exit0: ok, cases, flagged, rows };
  console.log(`\n== ${name}${rows[0]?.noise ? `\n   ${rows[0].noise}` : ''}`);
  console.log('pair        exit  flagged/compared  calm  load (first run start,end; second run start,end)');
  for (const [i, r] of rows.entries()) {
    const l = [...runs[i].load, ...runs[i + 1].load].map((v) => v.toFixed(1));
    console.log(
      `${r.pair.padEnd(10)}  ${String(r.exit).padStart(4)}  ${`${r.regressed + r.improved}/${r.compared}`.padStart(16)}  ${String(r.calm).padStart(4)}  ${l.join(' ')}${r.flagged.length ? `  ${r.flagged.join(', ')}` : ''}`,
    );
  }
  console.log(
    `${ok} of ${rows.length} pairs exit 0; ${flagged} of ${cases} case comparisons (${((100 * flagged) / cases).toFixed(2)}%) called regressed or improved`,
  );
}
writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
rmSync(emptyCalibrationDir, { recursive: true, force: true });
