// How large are per-process offsets? Starts N identical measuring workers (the
// workspace stack, the runtime given by --node), visits every worker once per
// round in a shuffled order, and reports per case: the spread of the
// per-process medians of the visit values (log scale) against what the
// within-process spread of visits alone would give for that many visits.
//
//   node apps/cli/scripts/process-offsets.mjs [--processes 6] [--rounds 8] [--visit 0.1]
//        [--suite sha1 --suite cmac ...] [--filter regex] [--node path]
//
// Prints one line per case: processes' medians relative to the grand median,
// the between-process SD (log), the within-process SD of one visit (log), and
// F = between-process variance / (within variance / visits per process): near 1
// means no process offsets beyond visit noise; well above 1 means processes differ.
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const { CompositionWorker } = await import(join(dist, 'bisect', 'worker', 'client.js'));
const { percentile, median } = await import('@layerbench/bench-runner/stats');

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '8' },
    visit: { type: 'string', default: '0.1' },
    suite: { type: 'string', multiple: true, default: ['sha1', 'cmac'] },
    filter: {
      type: 'string',
      default: '^(sha1/(64|1500)/(dispatch|unrolled)|cmac/aes-128/pl=48/(preloaded|oneshot)/(table|ct))$',
    },
    node: { type: 'string', default: process.execPath },
    percentile: { type: 'string', default: '10' },
  },
});
const P = Number(values.processes);
const R = Number(values.rounds);
const visit = Number(values.visit);
const pct = Number(values.percentile);
const root = join(here, '..', '..', '..');
const dirs = Object.fromEntries(
  ['aes-core', 'cmac', 'sha1-dispatch', 'esp', 'bench-runner'].map((l) => [l, join(root, 'packages', l)]),
);
const { execFileSync } = await import('node:child_process');
const nodeVersion = execFileSync(values.node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
const workers = [];
for (let p = 0; p < P; p++) {
  workers.push(
    await CompositionWorker.start({
      nodePath: values.node,
      nodeVersion: nodeVersion,
      dirs,
      suites: values.suite,
      filter: values.filter,
    }),
  );
}
const cases = workers[0].cases.map((c) => c.id);
const shuffle = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const started = Date.now();
const values_ = new Map(cases.map((c) => [c, workers.map(() => [])]));
for (const c of cases) for (const w of workers) await w.measure(c, 0.3);
for (let r = 0; r < R; r++) {
  for (const c of cases) {
    for (const p of shuffle([...workers.keys()])) {
      const m = await workers[p].measure(c, visit);
      if (m.status === 'ok' && m.samples.length) values_.get(c)[p].push(Math.log(percentile(m.samples, pct)));
    }
  }
}
await Promise.all(workers.map((w) => w.close()));
const sd = (xs) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};
console.log(
  `# ${P} processes, ${R} rounds, ${visit} s visits, p${pct}, node ${values.node}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
for (const c of cases) {
  const per = values_.get(c);
  const meds = per.map((v) => median(v));
  const grand = median(meds);
  const within = [];
  for (const v of per) {
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    for (const x of v) within.push(x - m);
  }
  const dfWithin = per.reduce((a, v) => a + v.length - 1, 0);
  const sWithin = Math.sqrt(within.reduce((a, b) => a + b * b, 0) / dfWithin);
  const sBetween = sd(per.map((v) => v.reduce((a, b) => a + b, 0) / v.length));
  const F = sBetween ** 2 / (sWithin ** 2 / R);
  console.log(
    `${c.padEnd(36)} ${meds.map((m) => Math.exp(m - grand).toFixed(3)).join(' ')}  between ${(sBetween * 100).toFixed(2)}%  within ${(sWithin * 100).toFixed(2)}%  F ${F.toFixed(1)}  (${Math.exp(grand).toFixed(1)} ns)`,
  );
}
