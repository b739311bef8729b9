// Checks the benchmark targets of the esp layer in ONE interleaved run (ABAB...
// rounds, so machine load hits every variant alike): the esp suite's cases of
// the split compositions against the packages/peers ESP compositions, for seal
// and for seal+open of 1400-byte packets. Prints each variant's median Mb/s
// with its spread and its ratio to the reference, with a 95% CI.
// Needs the workspace built (npm run build). Usage:
//   node packages/esp/scripts/targets.mjs [timePerCase seconds, default 4] [rounds, default 20] [all]
// With `all`, every composition of every available aes-core backend takes part
// (the table of the README and the MEASURED rows of src/composition.ts), not
// only the split ones worth ranking.
import { runInterleaved } from '@layerbench/bench-runner';
import { compareRounds } from '@layerbench/bench-runner/stats';
import { loadWorkspaceLayers } from '../../../apps/cli/dist/layers.js';
import { espSuite } from '../../../apps/cli/dist/suites/esp.js';

const timePerCase = Number(process.argv[2] ?? 4);
const rounds = Number(process.argv[3] ?? 20);
const everyComposition = process.argv[4] === 'all';
const layers = await loadWorkspaceLayers();
const all = espSuite.cases(layers, {});
const mbps = (ns) => ((1400 * 8) / ns) * 1000;

// Without `all`, only the backends that compete on speed are ranked: the
// constant-time ones (ct, bitsliced) are chosen for safety and are slower than
// table by design. Taken from aesBackends() so a new backend needs no edit here.
const constantTimeAes = new Set(
  layers.aes
    .aesBackends()
    .filter((b) => b.constantTime)
    .map((b) => b.name),
);
const rankedAes = new Set(
  layers.aes
    .aesBackends()
    .filter((b) => b.available && !b.constantTime)
    .map((b) => b.name),
);
const nativeAes = new Set(
  layers.aes
    .aesBackends()
    .filter((b) => b.native)
    .map((b) => b.name),
);
const nativeSha1 = new Set(
  layers.sha1
    .sha1Implementations()
    .filter((s) => s.native)
    .map((s) => s.name),
);
const reference = 'node:crypto per packet';
const noble = '@noble/ciphers+@noble/hashes';
const asmcrypto = 'asmcrypto.js+hash-wasm';
const otherPeers = [noble, asmcrypto];
const table = [];
// Per op: every case that ran, with its per-round medians, for the paired
// ratios of the targets below (a ratio between two variants of one run is only
// paired if both come from the same rounds).
const runs = new Map();
for (const op of ['encrypt', 'encrypt+decrypt']) {
  const ofOp = all.filter((c) => c.params.op === op);
  const peer = (name) => ofOp.find((c) => c.params.peer === true && c.params.impl === name);
  const ours = ofOp.filter(
    (c) =>
      c.params.peer !== true &&
      (everyComposition ||
        (c.params.pipeline === 'split' && rankedAes.has(c.params.aes) && c.params.sha1 !== 'generic')),
  );
  const variants = [peer(reference), ...otherPeers.map(peer), ...ours];
  const result = await runInterleaved(variants, { timePerCase, rounds });
  console.log(`\n# ${op}: ${variants.length} variants, ${rounds} interleaved rounds, ${timePerCase} s each`);
  const ratioOf = new Map(result.ratios.map((r) => [r.id, r]));
  runs.set(
    op,
    result.cases.map((c, i) => ({ c, rounds: result.roundMedians[i] })).filter(({ c }) => c.status === 'ok' && c.stats),
  );
  for (const c of result.cases) {
    if (c.status !== 'ok' || !c.stats) {
      console.log(`${c.params.impl}: FAILED ${c.error?.message}`);
      continue;
    }
    table.push({
      op,
      impl: c.params.impl,
      peer: c.params.peer === true,
      aes: c.params.aes,
      sha1: c.params.sha1,
      pipeline: c.params.pipeline,
      stats: c.stats,
    });
    const r = ratioOf.get(c.id);
    // ratio = variant / reference of ns per packet: speed-up = 1 / ratio.
    const speedup = r
      ? `${(1 / r.ratio).toFixed(2)}x the reference (95% CI ${(1 / r.ci[1]).toFixed(2)}-${(1 / r.ci[0]).toFixed(2)})`
      : 'reference';
    console.log(
      `${String(c.params.impl).padEnd(30)} ${mbps(c.stats.median).toFixed(0).padStart(5)} Mb/s  ` +
        `median ${(c.stats.median / 1000).toFixed(2)} µs, 95% CI ${(c.stats.ci[0] / 1000).toFixed(2)}-${(c.stats.ci[1] / 1000).toFixed(2)}, MAD ${(c.stats.mad / 1000).toFixed(2)}  ${speedup}  digest ${c.digestOk ? 'ok' : 'WRONG'}`,
    );
  }
}

// MEASURED rows (fastest seal+open first) and the README table.
const byImpl = new Map();
for (const t of table) byImpl.set(t.impl, { ...byImpl.get(t.impl), ...t, [t.op]: t.stats });
const rows = [...byImpl.values()].filter((r) => r.encrypt && r['encrypt+decrypt']);
rows.sort((a, b) => a['encrypt+decrypt'].median - b['encrypt+decrypt'].median);
console.log('\n// MEASURED rows');
for (const r of rows.filter((x) => !x.peer)) {
  console.log(
    `    { aes: '${r.aes}', sha1: '${r.sha1}', pipeline: '${r.pipeline}', encryptMbps: ${mbps(r.encrypt.median).toFixed(0)}, encryptDecryptMbps: ${mbps(r['encrypt+decrypt'].median).toFixed(0)} },`,
  );
}
const cell = (s) =>
  `${mbps(s.median).toFixed(0)} | ${(s.median / 1000).toFixed(2)} µs (${(s.ci[0] / 1000).toFixed(2)}-${(s.ci[1] / 1000).toFixed(2)}), MAD ${(s.mad / 1000).toFixed(2)}`;
console.log(
  '\n| composition | seal Mb/s | seal per packet: median (95% CI), MAD | seal+open Mb/s | seal+open per packet: median (95% CI), MAD |',
);
console.log('| --- | ---: | --- | ---: | --- |');
for (const r of rows)
  console.log(
    `| ${r.peer ? `peer: ${r.impl}` : `\`${r.impl}\``} | ${cell(r.encrypt)} | ${cell(r['encrypt+decrypt'])} |`,
  );

// The targets of the esp issue: the fastest composition of a class against a
// peer, as the paired ratio of per-round medians with its bootstrap 95% CI.
const pureTsWasm = (c) => !nativeAes.has(c.params.aes) && !nativeSha1.has(c.params.sha1);
const constantTime = (c) => constantTimeAes.has(c.params.aes);
function target(label, op, peerName, goal, inClass) {
  const ofOp = runs.get(op) ?? [];
  const peer = ofOp.find(({ c }) => c.params.peer === true && c.params.impl === peerName);
  const best = ofOp
    .filter(({ c }) => c.params.peer !== true && inClass(c))
    .sort((a, b) => a.c.stats.median - b.c.stats.median)[0];
  if (!peer || !best) {
    console.log(`${label}: not measured${everyComposition ? '' : ' (only with `all`)'}`);
    return;
  }
  const cmp = compareRounds(peer.rounds, best.rounds);
  const speedup = 1 / cmp.ratio;
  console.log(
    `${label}: ${best.c.params.impl} ${mbps(best.c.stats.median).toFixed(0)} vs ${mbps(peer.c.stats.median).toFixed(0)} Mb/s, ` +
      `${speedup.toFixed(2)}x (95% CI ${(1 / cmp.ratioCi[1]).toFixed(2)}-${(1 / cmp.ratioCi[0]).toFixed(2)}), goal >= ${goal}x: ${speedup >= goal ? 'met' : 'NOT met'}`,
  );
}
console.log('\n# targets');
target('best composition vs node:crypto per packet, seal', 'encrypt', reference, 1.2, () => true);
target('best pure TS/WASM vs noble, seal', 'encrypt', noble, 1.5, pureTsWasm);
target('best pure TS/WASM vs asmcrypto.js+hash-wasm, seal+open', 'encrypt+decrypt', asmcrypto, 1.5, pureTsWasm);
// Not targets of the issue: what choosing a constant-time AES costs against the same goals.
target('(context) best constant-time AES vs noble, seal', 'encrypt', noble, 1.5, constantTime);
target(
  '(context) best constant-time AES vs asmcrypto.js+hash-wasm, seal+open',
  'encrypt+decrypt',
  asmcrypto,
  1.5,
  constantTime,
);
