// Checks the benchmark targets of the cmac layer in interleaved runs (ABAB...
// rounds, so machine load hits every variant alike), with the cmac suite's
// own cases at the seed's 48-byte packet and AES-128:
//   preloaded (table)  vs @stablelib/cmac pre-keyed   target ratio <= 0.4
//   one-shot (table)   vs @stablelib/cmac one-shot    target ratio <= 0.4
//   preloaded (table)  vs the native per-call path    target speed-up >= 8
// Prints each variant's median with its spread and the ratio to the first
// variant of its group with a 95% CI. Needs the workspace built (npm run build).
// Usage: node packages/cmac/scripts/targets.mjs [timePerCase seconds, default 3] [rounds, default 15]
import { runInterleaved } from '@layerbench/bench-runner';
import { loadWorkspaceLayers } from '../../../apps/cli/dist/layers.js';
import { cmacSuite } from '../../../apps/cli/dist/suites/cmac.js';

const timePerCase = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 15);
const layers = await loadWorkspaceLayers();
const cases = cmacSuite.cases(layers, {});
const byId = (suffix) => {
  const found = cases.find((c) => c.id === `cmac/aes-128/pl=48/${suffix}`);
  if (found === undefined) throw new Error(`no case cmac/aes-128/pl=48/${suffix}`);
  return found;
};

const groups = [
  {
    name: 'preloaded vs @stablelib/cmac pre-keyed (target <= 0.4)',
    ids: ['preloaded/@stablelib/cmac', 'preloaded/table'],
  },
  { name: 'one-shot vs @stablelib/cmac one-shot (target <= 0.4)', ids: ['oneshot/@stablelib/cmac', 'oneshot/table'] },
  {
    name: 'preloaded vs native per call (target <= 0.125, i.e. >= 8x faster)',
    ids: ['native/node:crypto', 'preloaded/table'],
  },
];
const ns = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} µs` : `${x.toFixed(0)} ns`);
for (const group of groups) {
  const result = await runInterleaved(group.ids.map(byId), { timePerCase, rounds });
  console.log(`\n# ${group.name}: ${rounds} interleaved rounds, ${timePerCase} s per variant`);
  const ratioOf = new Map(result.ratios.map((r) => [r.id, r]));
  for (const c of result.cases) {
    if (c.status !== 'ok' || !c.stats) {
      console.log(`${c.id}: FAILED ${c.error?.message}`);
      continue;
    }
    const r = ratioOf.get(c.id);
    const ratio = r ? `ratio ${r.ratio.toFixed(3)} (95% CI ${r.ci[0].toFixed(3)}-${r.ci[1].toFixed(3)})` : 'reference';
    console.log(
      `${c.id.padEnd(44)} median ${ns(c.stats.median).padStart(9)}  95% CI ${ns(c.stats.ci[0])}-${ns(c.stats.ci[1])}  MAD ${ns(c.stats.mad)}  ${ratio}  digest ${c.digestOk ? 'ok' : 'WRONG'}`,
    );
  }
}
