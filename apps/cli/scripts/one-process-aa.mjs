// One process a side, by timing alone: every process of a power.mjs folder
// (--processes k, which keeps each process's run as <side>-<i>.p<k>.json)
// against every process of another run, judged as `compare` judges two
// one-process runs with the given calibration but without the
// unchanged-code guard (the code of these runs is identical except the
// slowed case). Counts the case comparisons other than the slowed case
// called regressed or improved (A/A), and how often the slowed case was
// called regressed against a base process.
//
//   node apps/cli/scripts/power.mjs --dir /tmp/power --pairs 4 --processes 4 --calibration cal.json
//   node apps/cli/scripts/one-process-aa.mjs --dir /tmp/power --calibration cal.json
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compareResults, runNoiseFromCalibration } from '@layerbench/bench-runner/compare';
import { powerFolderProcesses } from './power-folder.mjs';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    calibration: { type: 'string' },
    case: { type: 'string', default: 'sha1/1500/wasm' },
  },
});
if (values.dir === undefined || values.calibration === undefined) {
  console.error('usage: one-process-aa.mjs --dir <power.mjs folder> --calibration <file> [--case <slowed case>]');
  process.exit(2);
}
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const noise = runNoiseFromCalibration(read(values.calibration), values.calibration);
const processes = powerFolderProcesses(values.dir);
const flagged = (v) => v === 'regressed' || v === 'improved';
let compared = 0;
let falseAlarms = 0;
let pairs = 0;
let pairsFlagged = 0;
let slowedCompared = 0;
let detected = 0;
for (const [i, a] of processes.entries()) {
  for (const b of processes.slice(i + 1)) {
    if (a.run === b.run) continue;
    const comparison = compareResults(a.result, b.result, { noise });
    let flags = 0;
    for (const c of comparison.cases) {
      if (c.id === values.case && a.side !== b.side) {
        slowedCompared++;
        if (c.verdict === (a.side === 'base' ? 'regressed' : 'improved')) detected++;
        continue;
      }
      compared++;
      if (flagged(c.verdict)) {
        flags++;
        console.log(`${a.name} -> ${b.name}: ${c.id} ${c.verdict} x${c.ratio.toFixed(3)}`);
      }
    }
    falseAlarms += flags;
    pairs++;
    if (flags > 0) pairsFlagged++;
  }
}
console.log(
  `${processes.length} processes: A/A case comparisons called regressed or improved ${falseAlarms} of ${compared}, ` +
    `pairs with one ${pairsFlagged} of ${pairs}; ${values.case} slowed called regressed ${detected} of ${slowedCompared}`,
);
