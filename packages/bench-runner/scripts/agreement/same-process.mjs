// The engine's two modes on one case in ONE process, taking turns, so that
// whatever the machine does meanwhile lands on both alike:
//   node same-process.mjs <case id> [turns, default 3] [run seconds, default 1] [interleaved seconds per variant, default 0.5]
// Each turn runs runCases([case]) (run mode) and then runInterleaved over the
// case's group (the target scripts' mode; the group as in engine-modes.mjs).
// Prints one JSON line per measurement (median, 95% CI, 10th percentile) and
// a summary line: the median over turns of each mode and their ratio.
// BENCH_RUNNER=<path to an index.js> measures with another build of the engine.
import { pathToFileURL } from 'node:url';
import { loadWorkspaceLayers } from '../../../../apps/cli/dist/layers.js';
import { buildCases, suiteByName } from '../../../../apps/cli/dist/suites/index.js';

const engine = await import(
  process.env.BENCH_RUNNER ? pathToFileURL(process.env.BENCH_RUNNER).href : '@layerbench/bench-runner'
);
const [id, turnsArg = '3', runArg = '1', ilArg = '0.5'] = process.argv.slice(2);
const suite = id.split('/')[0];
const cases = buildCases([suiteByName(suite)], await loadWorkspaceLayers(), {}).cases;
const theCase = cases.find((c) => c.id === id);
if (!theCase) throw new Error(`no case ${id}`);
const prefix = `${id.split('/').slice(0, -1).join('/')}/`;
const group =
  suite === 'aes'
    ? cases.filter((x) => x.id.startsWith(prefix))
    : suite === 'sha1'
      ? cases.filter((x) => x.id.startsWith(prefix) && !x.id.endsWith('/rusha'))
      : cases.filter((x) => x.id.startsWith(`${suite}/aes-128/pl=48/`));

const p10 = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(0.1 * (samples.length - 1))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const seen = { run: [], il: [] };
for (let turn = 0; turn < Number(turnsArg); turn++) {
  const run = (await engine.runCases([theCase], { timePerCase: Number(runArg), quiet: true, overhead: false }))
    .cases[0];
  const il = (await engine.runInterleaved(group, { timePerCase: Number(ilArg) })).cases.find((c) => c.id === id);
  for (const [mode, r] of [
    ['run', run],
    ['il', il],
  ]) {
    if (r.status !== 'ok') throw new Error(`${id} (${mode}): ${r.error?.message}`);
    seen[mode].push(r.stats.median);
    console.log(JSON.stringify({ id, turn, mode, median: r.stats.median, ci: r.stats.ci, p10: p10(r.samples) }));
  }
}
const runMedian = median(seen.run);
const ilMedian = median(seen.il);
console.log(
  JSON.stringify({
    id,
    summary: true,
    group: group.length,
    run: runMedian,
    il: ilMedian,
    ilOverRun: ilMedian / runMedian,
  }),
);
