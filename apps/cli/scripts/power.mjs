// What separate-run `compare` detects (issue 13's power targets), in fresh
// processes one after the other, --pairs times:
//   base  = the cases as they are (scripts/slowed-run.mjs --every 0: the counting wrapper only)
//   slow  = the same, one case with exactly 1/--every more operations (--every 20: +5%)
//   seed  = `layerbench run` with LAYERBENCH_SHA1_IMPL=generic (the SHA-1 seed's regression)
// then `layerbench compare base slow` and `compare base seed`, without a
// calibration (an empty calibration folder) and, with --calibration, with it.
//
//   npm run build
//   npx layerbench calibrate sha1 --filter '^sha1/(64|1500)/(dispatch|unrolled|wasm)$' --time 1 --out cal.json
//   node apps/cli/scripts/power.mjs --dir /tmp/power --pairs 3 --calibration cal.json
//   node apps/cli/scripts/power.mjs --dir /tmp/power --pairs 3 --processes 5   (each side 5 processes)
//   node apps/cli/scripts/power.mjs --dir /tmp/power --pairs 4 --processes 4 --extra 2 --busy-before 45 --calibration cal.json
//     (before every run, one busy loop per CPU for 45 s: the runs start while the 1-minute load
//      average still remembers a busy minute, as a CI run does after its build)
//
// Prints per pair and comparison the exit code, the cases called regressed or
// improved with their ratios, and the load average; writes <dir>/summary.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, '..', 'dist', 'main.js');
const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    pairs: { type: 'string', default: '3' },
    time: { type: 'string', default: '1' },
    case: { type: 'string', default: 'sha1/1500/wasm' },
    every: { type: 'string', default: '20' },
    filter: { type: 'string', default: '^sha1/(64|1500)/(dispatch|unrolled|wasm)$' },
    calibration: { type: 'string' },
    processes: { type: 'string', default: '1' },
    // With --processes k: up to this many more processes while a case has fewer than k in the CPU's fast
    // state, as `layerbench run --extra-processes` (default here 0: exactly k).
    extra: { type: 'string', default: '0' },
    // Seconds of one busy loop per CPU before every run (0: none).
    'busy-before': { type: 'string', default: '0' },
  },
});
const processes = Number(values.processes);
const extra = Number(values.extra);
const { calmStatesOf, shortOfFastState } = await import('../dist/fresh-processes.js');
const { mergeProcessRuns } = await import('@layerbench/bench-runner/compare');
const { readRunResult, writeResultFile } = await import('@layerbench/bench-runner/results');
if (values.dir === undefined) throw new Error('--dir <folder> is required');
const dir = resolve(values.dir);
mkdirSync(dir, { recursive: true });
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const busyBefore = Number(values['busy-before']);
if (!(busyBefore >= 0)) throw new Error('--busy-before takes seconds, 0 or more');
/** One busy loop per CPU for --busy-before seconds; resolves when they have ended. */
function busyMinute() {
  if (busyBefore === 0) return Promise.resolve();
  const loop = `const end = Date.now() + ${busyBefore * 1000}; while (Date.now() < end);`;
  return Promise.all(
    Array.from(
      { length: availableParallelism() },
      () => new Promise((done) => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }).on('exit', done)),
    ),
  );
}

function node(args, env = {}) {
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return r;
}
function mustRun(args, env) {
  const r = node(args, env);
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}
const slowedRun = (every, out) =>
  mustRun([
    join(here, 'slowed-run.mjs'),
    '--case',
    values.case,
    '--every',
    String(every),
    '--time',
    values.time,
    '--suite',
    'sha1',
    '--filter',
    values.filter,
    '--out',
    out,
  ]);

/**
 * --processes k: k slowed runs one after the other, merged as `layerbench run --processes k` merges;
 * with --extra n, up to n more as `run --extra-processes n` adds them: a process counts as in the fast
 * state at the lower of the runs' lowest level and the case's calm level in --calibration, as `run`
 * counts it with the stored calibration compare takes (the parts stay in <dir>, so the first k alone can
 * be judged too).
 */
const calibrated = values.calibration === undefined ? {} : JSON.parse(readFileSync(values.calibration, 'utf8')).cases;
const calibratedLevel = (id) => calibrated[id]?.calmLevel;
function slowedRuns(every, out) {
  if (processes === 1) return slowedRun(every, out);
  const parts = [];
  for (let k = 1; k <= processes + extra; k++) {
    if (k > processes && shortOfFastState(parts.map(calmStatesOf), processes, calibratedLevel).length === 0) break;
    const part = out.replace(/\.json$/, `.p${k}.json`);
    slowedRun(every, part);
    parts.push(readRunResult(part));
  }
  writeResultFile(out, mergeProcessRuns(parts));
}

const noCalibration = mkdtempSync(join(tmpdir(), 'layerbench-no-calibration-'));
function compare(base, head, calibration) {
  const args = [main, 'compare', base, head, '--format', 'json'];
  if (calibration !== undefined) args.push('--calibration', resolve(calibration));
  const r = node(args, { LAYERBENCH_CALIBRATION_DIR: noCalibration });
  const cmp = JSON.parse(r.stdout);
  return {
    exit: r.status,
    flagged: cmp.cases
      .filter((c) => c.verdict === 'regressed' || c.verdict === 'improved')
      .map((c) => `${c.id} ${c.verdict} x${c.ratio.toFixed(3)} [${c.ratioCi.map((v) => v.toFixed(3)).join(', ')}]`),
    target: (() => {
      const c = cmp.cases.find((x) => x.id === values.case);
      return c && `${c.verdict} x${c.ratio.toFixed(3)} [${c.ratioCi.map((v) => v.toFixed(3)).join(', ')}]`;
    })(),
  };
}

const modes = [['no calibration', undefined]];
if (values.calibration !== undefined) modes.push(['calibration', values.calibration]);
const rows = [];
for (let p = 1; p <= Number(values.pairs); p++) {
  const file = (name) => join(dir, `${name}-${p}.json`);
  await busyMinute();
  const load = [loadavg()];
  slowedRuns(0, file('base'));
  await busyMinute();
  load.push(loadavg());
  slowedRuns(Number(values.every), file('slow'));
  await busyMinute();
  load.push(loadavg());
  mustRun(
    [
      main,
      'run',
      'sha1',
      '--filter',
      values.filter,
      '--time',
      values.time,
      '--processes',
      String(processes),
      ...(processes > 1 ? ['--extra-processes', String(extra)] : []),
      '--quiet',
      '--out',
      file('seed'),
    ],
    { LAYERBENCH_SHA1_IMPL: 'generic' },
  );
  load.push(loadavg());
  for (const [mode, calibration] of modes) {
    for (const head of ['slow', 'seed']) {
      const r = compare(file('base'), file(head), calibration);
      rows.push({ pair: p, mode, head, load, ...r });
      console.log(
        `pair ${p} ${head.padEnd(4)} ${mode.padEnd(14)} exit ${r.exit}  ${values.case}: ${r.target}  flagged: ${r.flagged.join('; ') || '-'}  load ${load.join(' ')}`,
      );
    }
  }
}
writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ ...values, rows }, null, 2)}\n`);
rmSync(noCalibration, { recursive: true, force: true });
