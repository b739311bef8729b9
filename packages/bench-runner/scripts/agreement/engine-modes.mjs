// The engine's two modes on one case, in a fresh process each:
//   node engine-modes.mjs run <case id> [seconds]   runCases([empty-case overhead, the case]), as `layerbench run --filter` does
//   node engine-modes.mjs il <case id> [seconds]    runInterleaved over the case's group (below), as the target scripts do
// Prints one JSON line: id, mode, median and its 95% CI, 10th percentile (ns per call).
// BENCH_RUNNER=<path to an index.js> measures with another build of the engine (before/after).
// Needs the workspace built (npm run build).
import { pathToFileURL } from 'node:url';
import { loadWorkspaceLayers } from '../../../../apps/cli/dist/layers.js';
import { buildCases, suiteByName } from '../../../../apps/cli/dist/suites/index.js';

const engine = await import(
  process.env.BENCH_RUNNER ? pathToFileURL(process.env.BENCH_RUNNER).href : '@layerbench/bench-runner'
);
const [mode, id, seconds = '1'] = process.argv.slice(2);
const suite = id.split('/')[0];
const layers = await loadWorkspaceLayers();
const cases = buildCases([suiteByName(suite)], layers, {}).cases;
const theCase = cases.find((c) => c.id === id);
if (!theCase) throw new Error(`no case ${id}`);

/** The interleaved group of a case: the cases a target script or a suite run measures beside it. */
function groupOf(_c) {
  const prefix = `${id.split('/').slice(0, -1).join('/')}/`;
  if (suite === 'aes') return cases.filter((x) => x.id.startsWith(prefix)); // every backend and peer, one block
  if (suite === 'sha1') return cases.filter((x) => x.id.startsWith(prefix) && !x.id.endsWith('/rusha')); // the dispatch group of targets.mjs
  // cmac and cmac-timing: every access pattern, backend and peer at AES-128, 48-byte packets
  return cases.filter((x) => x.id.startsWith(`${suite}/aes-128/pl=48/`));
}

const t = Number(seconds);
let result;
if (mode === 'run') {
  const run = await engine.runCases([theCase], { timePerCase: t, quiet: true });
  result = run.cases[0];
} else if (mode === 'il') {
  const group = groupOf(theCase);
  const r = await engine.runInterleaved(group, { timePerCase: t });
  result = r.cases.find((c) => c.id === id);
  result.groupSize = group.length;
} else {
  throw new Error(`mode must be run or il, got ${mode}`);
}
if (result.status !== 'ok') throw new Error(`${id}: ${result.error?.message}`);
// The 10th percentile as well: a busy machine only adds time, so the low end of the samples is what the code does when nothing interrupts it.
const sorted = [...result.samples].sort((a, b) => a - b);
const p10 = sorted[Math.floor(0.1 * (sorted.length - 1))];
console.log(
  JSON.stringify({
    id,
    mode,
    node: process.version,
    median: result.stats.median,
    ci: result.stats.ci,
    p10,
    group: result.groupSize,
  }),
);
