// The aes-core speed targets as interleaved ratios (bench-runner's
// runInterleaved: alternating short slices, so a shared machine's slow phases
// hit both sides of each ratio alike). Uses the aes suite's own cases.
//   npm run build && node packages/aes-core/bench/targets.mjs [seconds per variant, default 2] [block|cbc-enc|cbc-dec: one group only]
// Targets: table one block <= 0.5x the best peer; table CBC encrypt 16 KiB >= 2x
// @noble/ciphers; ct within 4x of table (bitsliced, the pure-JS constant-time
// fallback, is shown beside it).
// Each group runs in a fresh process of its own (this script, with the group's
// name as a third argument): cases of one group share a process, as an
// interleaved run must, but no group inherits the JIT state the previous one
// left behind (after the one-block group, table's 16 KiB CBC read 9% and
// noble's 20-40% slower than in a process of their own; once 2.7x).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runInterleaved } from '@layerbench/bench-runner';
import { loadWorkspaceLayers } from '../../../apps/cli/dist/layers.js';
import { aesSuite } from '../../../apps/cli/dist/suites/aes.js';

const timePerCase = Number(process.argv[2] ?? 2);
const layers = await loadWorkspaceLayers();
const byId = new Map(aesSuite.cases(layers, {}).map((c) => [c.id, c]));
const pick = (...ids) => ids.map((id) => byId.get(id) ?? Promise.reject(new Error(`no case ${id}`)));
const fmt = (r) => `${r.ratio.toFixed(3)} [${r.ci[0].toFixed(3)}, ${r.ci[1].toFixed(3)}]`;

async function group(title, ids) {
  const result = await runInterleaved(pick(...ids), { timePerCase });
  console.log(`\n${title} (${result.rounds} rounds, ${timePerCase} s per variant)`);
  for (const c of result.cases) {
    console.log(
      `  ${c.id.padEnd(38)} median ${c.stats?.median.toFixed(1).padStart(10)} ns  MAD ${c.stats?.mad.toFixed(1).padStart(8)} ns  ${c.digestOk === false ? 'DIGEST WRONG' : ''}`,
    );
  }
  for (const r of result.ratios) console.log(`  ${r.id} / ${ids[0]}: ${fmt(r)}`);
  return result;
}

const only = process.argv[3];
if (only === undefined) {
  for (const name of ['block', 'cbc-enc', 'cbc-dec']) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(timePerCase), name], {
      stdio: 'inherit',
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
} else if (only === 'block') {
  const block = await group('one pre-keyed AES-128 block', [
    'aes/aes-128/block/table',
    'aes/aes-128/block/noble',
    'aes/aes-128/block/stablelib',
    'aes/aes-128/block/crypto-js',
    'aes/aes-128/block/aes-js',
    'aes/aes-128/block/ct',
    'aes/aes-128/block/bitsliced',
  ]);
  const peers = block.ratios.filter((r) => !r.id.endsWith('/ct') && !r.id.endsWith('/bitsliced'));
  const best = peers.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  console.log(
    `  => table / best peer (${best.id}): ${(1 / best.ratio).toFixed(3)} [${(1 / best.ci[1]).toFixed(3)}, ${(1 / best.ci[0]).toFixed(3)}] (target <= 0.5)`,
  );
  const ctBlock = block.ratios.find((r) => r.id.endsWith('/ct'));
  console.log(`  => ct / table: ${ctBlock.ratio.toFixed(3)} (target <= 4)`);
  console.log(`  => bitsliced / table: ${block.ratios.find((r) => r.id.endsWith('/bitsliced')).ratio.toFixed(3)}`);
} else if (only === 'cbc-enc') {
  const cbc = await group('AES-128-CBC encrypt 16 KiB', [
    'aes/aes-128/cbc-enc/16384/table',
    'aes/aes-128/cbc-enc/16384/noble',
    'aes/aes-128/cbc-enc/16384/ct',
    'aes/aes-128/cbc-enc/16384/bitsliced',
  ]);
  console.log(`  => table speed / noble speed: ${cbc.ratios[0].ratio.toFixed(3)} (target >= 2)`);
  console.log(`  => ct / table: ${cbc.ratios[1].ratio.toFixed(3)} (target <= 4)`);
  console.log(`  => bitsliced / table: ${cbc.ratios[2].ratio.toFixed(3)}`);
} else if (only === 'cbc-dec') {
  const dec = await group('AES-128-CBC decrypt 16 KiB', [
    'aes/aes-128/cbc-dec/16384/table',
    'aes/aes-128/cbc-dec/16384/noble',
    'aes/aes-128/cbc-dec/16384/ct',
    'aes/aes-128/cbc-dec/16384/bitsliced',
  ]);
  console.log(`  => ct / table: ${dec.ratios[1].ratio.toFixed(3)} (target <= 4)`);
  console.log(`  => bitsliced / table: ${dec.ratios[2].ratio.toFixed(3)}`);
} else {
  throw new Error(`unknown group '${only}': block, cbc-enc or cbc-dec`);
}
