// What check's second look does to one-process verdicts (CLI README, "check
// options"), replayed on the processes of power.mjs folders (--processes k,
// which keeps each process's run as <side>-<i>.p<k>.json): every process X
// as the baseline against every process Y of another run as this checkout,
// judged as `check` judges one process a side with the given calibration but
// by timing alone (these runs' code is identical except the slowed case);
// the processes of Y's run that ran after it (then before it) stand for the
// fresh processes of the second look, compared at the second look's alpha,
// and the CLI's own secondLook decides.
// Counts the pairs with a case other than the slowed one called regressed
// (check would exit 1 on a commit that did not slow it), and how often the
// slowed case was called regressed, before and after the second look.
//
//   node apps/cli/scripts/power.mjs --dir /tmp/power --pairs 4 --processes 4 --calibration cal.json
//   node apps/cli/scripts/second-look.mjs --dir /tmp/power --calibration cal.json [--fresh 2]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareResults, runNoiseFromCalibration } from '@layerbench/bench-runner/compare';
import { powerFolderProcesses } from './power-folder.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { secondLook, secondLookPlan, secondLookSuspects } = await import(join(dist, 'commands', 'second-look.js'));

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    calibration: { type: 'string' },
    case: { type: 'string', default: 'sha1/1500/wasm' },
    fresh: { type: 'string', default: '2' },
  },
});
if (values.dir === undefined || values.calibration === undefined) {
  console.error(
    'usage: second-look.mjs --dir <power.mjs folder> --calibration <file> [--case <slowed case>] [--fresh n]',
  );
  process.exit(2);
}
const planned = Number(values.fresh);
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const noise = runNoiseFromCalibration(read(values.calibration), values.calibration);
const processes = powerFolderProcesses(values.dir);
const compared = new Map();
const compare = (x, y, alpha) => {
  const key = `${x.name} ${y.name} ${alpha}`;
  if (!compared.has(key))
    compared.set(key, compareResults(x.result, y.result, { noise, ...(alpha === undefined ? {} : { alpha }) }));
  return compared.get(key);
};
const regressedOther = (comparison, slowedSide) =>
  comparison.cases.some((c) => c.verdict === 'regressed' && !(slowedSide && c.id === values.case));
const slowedRegressed = (comparison) => comparison.cases.some((c) => c.id === values.case && c.verdict === 'regressed');
let pairs = 0;
let before = 0;
let after = 0;
let slowedPairs = 0;
let detectedBefore = 0;
let detectedAfter = 0;
for (const x of processes) {
  for (const y of processes) {
    if (x.run === y.run) continue;
    const ofRun = processes.filter((p) => p.run === y.run).sort((a, b) => a.index - b.index);
    const at = ofRun.indexOf(y);
    const fresh = [...ofRun.slice(at + 1), ...ofRun.slice(0, at)].slice(0, planned);
    if (fresh.length < planned) continue;
    const first = compare(x, y);
    const plan = secondLookPlan({ processes: planned, head: first.head.env, alpha: first.alpha });
    // Fresh processes are measured only when the first comparison has a case to look at again.
    const looked =
      secondLookSuspects(first, plan).length === 0
        ? first
        : secondLook(
            first,
            fresh.map((f) => compare(x, f, plan.alpha)),
            plan,
          ).comparison;
    const slowed = x.side === 'base' && y.side === 'slow';
    pairs++;
    if (regressedOther(first, x.side !== y.side)) before++;
    if (regressedOther(looked, x.side !== y.side)) {
      after++;
      console.log(`${x.name} -> ${y.name}: still regressed after the second look`);
    }
    if (slowed) {
      slowedPairs++;
      if (slowedRegressed(first)) detectedBefore++;
      if (slowedRegressed(looked)) detectedAfter++;
    }
  }
}
console.log(
  `${values.dir}: ${pairs} one-process pairs (baseline -> checkout); with another case called regressed ${before} before the second look, ${after} after; ` +
    `${values.case} slowed called regressed ${detectedBefore} before, ${detectedAfter} after, of ${slowedPairs}`,
);
