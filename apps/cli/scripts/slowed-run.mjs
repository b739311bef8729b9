// `layerbench run` with one case made slower by a known amount of work, for
// measuring what `compare` and `check` detect (issue 13: "a 5% slowdown of
// one case is still detected with --time 1"). The slowdown is exact in work,
// not in time: the case's operation runs once per call as always, and on
// every --every-th call a second time (its result is discarded; the engine
// checks that the case's output digest is unchanged), so --every 20 is
// exactly 5% more operations. The same counting wrapper runs on the base side
// too (--every 0: never a second call), so the two sides differ only in the
// extra operations. Everything else is `layerbench run`'s own measurement
// (apps/cli/dist/measure.js): the same suites, selection, engine and result
// file. The wrapper is code the case runs, so the result file says so: the
// CLI's content hash (the code that defines each case) has the wrapper's
// settings mixed in, and compare's unchanged-code guard sees two sides with
// different --every as different code (as it must: the head does more work).
//
//   npm run build
//   node apps/cli/scripts/slowed-run.mjs --case sha1/1500/wasm --every 0  --time 1 \
//        --suite sha1 --filter '^sha1/(64|1500)/(dispatch|unrolled|wasm)$' --out base.json
//   node apps/cli/scripts/slowed-run.mjs --case sha1/1500/wasm --every 20 --time 1 \
//        --suite sha1 --filter '^sha1/(64|1500)/(dispatch|unrolled|wasm)$' --out head.json
//   npx layerbench compare base.json head.json
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { measure } = await import(join(dist, 'measure.js'));
const { suiteByName } = await import(join(dist, 'suites', 'index.js'));
const { writeResultFile } = await import('@layerbench/bench-runner/results');

const { values } = parseArgs({
  options: {
    case: { type: 'string' },
    every: { type: 'string', default: '20' },
    time: { type: 'string', default: '1' },
    suite: { type: 'string', multiple: true, default: ['sha1'] },
    filter: { type: 'string' },
    out: { type: 'string' },
  },
});
if (values.case === undefined || values.out === undefined) throw new Error('--case <id> and --out <file> are required');
const every = Number(values.every);
if (!Number.isInteger(every) || every < 0 || every === 1) throw new Error('--every is 0 (never) or an integer >= 2');

/** The case's fn, counted; every `every`-th call runs the operation twice. */
function slowed(benchCase) {
  return {
    ...benchCase,
    setup: () => {
      const instance = benchCase.setup();
      const fn = instance.fn;
      let calls = 0;
      // One wrapper for both sides; with --every 0 the branch is never taken.
      const limit = every === 0 ? -1 : every;
      const wrapped = () => {
        calls++;
        if (calls === limit) {
          calls = 0;
          fn();
        }
        return fn();
      };
      return { ...instance, fn: wrapped };
    },
  };
}

let found = false;
const suites = values.suite.map((name) => {
  const suite = suiteByName(name);
  return {
    ...suite,
    cases: (layers, options) =>
      suite.cases(layers, options).map((c) => {
        if (c.id !== values.case) return c;
        found = true;
        return slowed(c);
      }),
  };
});
const ctx = {
  cwd: process.cwd(),
  env: { ...process.env },
  stdout: process.stdout,
  stderr: process.stderr,
  signal: new AbortController().signal,
};
const { run } = await measure(
  {
    suites,
    selection: values.filter === undefined ? {} : { filter: values.filter },
    timePerCase: Number(values.time),
    out: resolve(values.out),
    quiet: true,
  },
  ctx,
);
if (!found) throw new Error(`no case ${values.case} in ${values.suite.join(', ')}`);
const injected = `slowed-run ${values.case} every ${every}`;
for (const layer of run.env.layers) {
  if (layer.name === '@layerbench/cli' && layer.contentHash !== undefined)
    layer.contentHash = createHash('sha256').update(`${layer.contentHash}\0${injected}`).digest('hex');
}
await writeResultFile(resolve(values.out), run);
const c = run.cases.find((x) => x.id === values.case);
console.log(
  `${values.case}: ${every === 0 ? 'as is (counting wrapper only)' : `+1 operation every ${every} calls (+${(100 / every).toFixed(1)}% work)`}, median ${c?.stats?.median?.toFixed(1)} ns, status ${c?.status}; ${run.cases.length} cases -> ${values.out}`,
);
