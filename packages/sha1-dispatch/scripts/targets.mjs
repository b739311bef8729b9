// The issue's benchmark targets as same-run ratios: each group of cases from
// the cli's sha1/hmac suites is measured interleaved (bench-runner's
// runInterleaved: ABAB... rounds), so a shared machine's drift lands on every
// variant alike. Tooling for the README figures, not part of the package.
// Usage (after `npx turbo run build --filter=@layerbench/cli...`):
//   node scripts/targets.mjs [targets|dispatch|hmac|mib]   (T=<seconds per case>, default 1)
import { runInterleaved } from '../../bench-runner/dist/index.js';
import { loadWorkspaceLayers } from '../../../apps/cli/dist/layers.js';
import { sha1Suite } from '../../../apps/cli/dist/suites/sha1.js';
import { hmacSuite } from '../../../apps/cli/dist/suites/hmac.js';
const layers = await loadWorkspaceLayers();
const t = Number(process.env.T ?? 1);
const only = process.argv[2];
const sha = sha1Suite.cases(layers, {});
const hm = hmacSuite.cases(layers, {});
const byId = (list, id) => {
  const c = list.find((x) => x.id === id);
  if (!c) throw new Error(id);
  return c;
};
async function group(label, list, ids) {
  const r = await runInterleaved(
    ids.map((id) => byId(list, id)),
    { timePerCase: t, rounds: 10 },
  );
  console.log(`\n== ${label}`);
  for (const c of r.cases) {
    const ratio = r.ratios.find((x) => x.id === c.id);
    console.log(
      `${c.id.padEnd(32)} ${c.implementation ?? ''} median ${(c.stats?.median ?? NaN).toFixed(1)} ns  MAD ${(c.stats?.mad ?? NaN).toFixed(1)}  ratio-to-first ${ratio ? `${ratio.ratio.toFixed(3)} [${ratio.ci.map((x) => x.toFixed(3)).join(', ')}]` : '-'} ${c.status}`,
    );
  }
}
const all = [
  'dispatch',
  'generic',
  'unrolled',
  'wasm',
  'node',
  'noble',
  'hash-wasm',
  'asmcrypto',
  'rusha',
  'node-crypto',
];
if (!only || only === 'targets') {
  await group('unrolled vs noble at 16 KiB (target ratio <= 0.4545)', sha, ['sha1/16384/noble', 'sha1/16384/unrolled']);
  await group('wasm vs hash-wasm at 1 MiB (target <= 1)', sha, ['sha1/1048576/hash-wasm', 'sha1/1048576/wasm']);
  await group('pre-keyed HMAC 1400 vs node:crypto per message (target <= 1)', hm, [
    'hmac/1400/oneshot/node-crypto',
    'hmac/1400/prekeyed/dispatch',
    'hmac/1400/prekeyed/wasm',
    'hmac/1400/prekeyed/unrolled',
    'hmac/1400/prekeyed/node',
  ]);
}
if (!only || only === 'dispatch') {
  for (const size of [64, 1500, 16384, 1048576]) {
    const ids = all
      .filter((x) => !(size === 1048576 && (x === 'generic' || x === 'rusha')))
      .map((x) => `sha1/${size}/${x}`);
    await group(`dispatcher at ${size} (others/dispatch must be >= 0.95)`, sha, ids);
  }
}
if (only === 'hmac') {
  for (const size of [64, 1400])
    await group(
      `hmac ${size}`,
      hm,
      hm.filter((c) => c.params.size === size).map((c) => c.id),
    );
}
if (only === 'mib') {
  // wasm vs hash-wasm at 1 MiB, uncontended: alternating single operations
  // (order swapped every pair), 300 pairs; the minimum is the run that no
  // other process interrupted, which a 1.5 ms operation rarely is here.
  const ids = ['sha1/1048576/wasm', 'sha1/1048576/hash-wasm'];
  const inst = await Promise.all(ids.map((id) => byId(sha, id).setup()));
  const times = ids.map(() => []);
  for (let r = 0; r < 330; r++) {
    for (const k of r % 2 ? [0, 1] : [1, 0]) {
      const t0 = performance.now();
      inst[k].fn();
      if (r >= 30) times[k].push((performance.now() - t0) * 1e6);
    }
  }
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];
  console.log('\n== wasm vs hash-wasm at 1 MiB, 300 alternating pairs');
  ids.forEach(
    (id, k) =>
      void console.log(
        `${id.padEnd(26)} min ${(q(times[k], 0) / 1e3).toFixed(0)} us  p25 ${(q(times[k], 0.25) / 1e3).toFixed(0)} us  median ${(q(times[k], 0.5) / 1e3).toFixed(0)} us`,
      ),
  );
  console.log(
    `wasm/hash-wasm: ratio of minimums ${(q(times[0], 0) / q(times[1], 0)).toFixed(3)}, of p25 ${(q(times[0], 0.25) / q(times[1], 0.25)).toFixed(3)}`,
  );
}
