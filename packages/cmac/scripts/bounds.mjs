// Where the time of a CMAC goes, against @stablelib/cmac: times, interleaved
// in one process (every variant once per round, so load hits all alike), our
// preloaded mac() and one-shot cmac() next to the aes-core work they cannot
// avoid: one cbcMacWords call over the packet's three blocks with K1 as the
// last-block mask (the AES floor of a preloaded MAC), the allocation of the
// returned 16-byte tag, and createAes + destroy (the key schedule a one-shot
// call must build). AES-128, the seed's 48-byte packet. Needs the workspace
// built (npm run build).
// Usage: node packages/cmac/scripts/bounds.mjs [rounds, default 15]
import { createRequire } from 'node:module';
import { createAes } from '@layerbench/aes-core';
import { Cmac, cmac } from '@layerbench/cmac';

// The peers are dependencies of packages/peers, so resolve them from there.
const requirePeer = createRequire(new URL('../../peers/package.json', import.meta.url));
const { AES } = await import(requirePeer.resolve('@stablelib/aes'));
const { CMAC } = await import(requirePeer.resolve('@stablelib/cmac'));

const key = new Uint8Array(16).map((_, i) => (i * i + 0x23) & 255);
const packet = new Uint8Array(48).map((_, i) => (i * i + 0x31) & 255);
const tableOptions = { impl: 'table' };
const bare = createAes(key, tableOptions);
const ctx = new Cmac(createAes(key, tableOptions));
const stablelib = new CMAC(new AES(key, true));
const chain = new Int32Array(4);
const k1 = Int32Array.from([0x01234567, 0x89abcdef, 0x02468ace, 0x13579bdf]);
let _sink;
const variants = {
  'stablelib pre-keyed': () => {
    _sink = stablelib.reset().update(packet).digest();
  },
  'preloaded mac()': () => {
    _sink = ctx.mac(packet);
  },
  'cbcMacWords, 3 blocks': () => {
    chain.fill(0);
    bare.cbcMacWords(chain, packet, 0, 3, k1);
  },
  'new Uint8Array(16)': () => {
    _sink = new Uint8Array(16);
  },
  'stablelib one-shot': () => {
    const aes = new AES(key, true);
    const mac = new CMAC(aes);
    _sink = mac.update(packet).digest();
    mac.clean();
    aes.clean();
  },
  'one-shot cmac()': () => {
    _sink = cmac(key, packet, tableOptions);
  },
  'createAes(table) + destroy': () => {
    createAes(key, tableOptions).destroy();
  },
};
const hex = (u) => Buffer.from(u).toString('hex');
if (
  hex(ctx.mac(packet)) !== '475ac1c053379e7dbd4ce80b87d2178e' ||
  hex(cmac(key, packet)) !== hex(stablelib.reset().update(packet).digest())
) {
  throw new Error('digest mismatch');
}

const perCall = (fn, n) => {
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t) / n;
};
const rounds = Number(process.argv[2] ?? 15);
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let w = 0; w < 3; w++) for (const fn of Object.values(variants)) perCall(fn, 50_000);
for (let r = 0; r < rounds; r++)
  for (const [name, fn] of Object.entries(variants)) times[name].push(perCall(fn, 100_000));

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [name, a] of Object.entries(times)) {
  const m = median(a);
  console.log(
    `${name.padEnd(28)} median ${m.toFixed(0).padStart(5)} ns  MAD ${median(a.map((x) => Math.abs(x - m))).toFixed(0)} ns`,
  );
}
const ratio = (a, b) => {
  const r = times[a].map((t, i) => t / times[b][i]);
  return `${median(r).toFixed(3)} (per-round range ${Math.min(...r).toFixed(3)}-${Math.max(...r).toFixed(3)})`;
};
console.log(`preloaded mac() / stablelib pre-keyed          ${ratio('preloaded mac()', 'stablelib pre-keyed')}`);
console.log(`cbcMacWords 3 blocks / stablelib pre-keyed     ${ratio('cbcMacWords, 3 blocks', 'stablelib pre-keyed')}`);
console.log(`new Uint8Array(16) / stablelib pre-keyed       ${ratio('new Uint8Array(16)', 'stablelib pre-keyed')}`);
console.log(`one-shot cmac() / stablelib one-shot           ${ratio('one-shot cmac()', 'stablelib one-shot')}`);
console.log(
  `createAes + destroy / stablelib one-shot       ${ratio('createAes(table) + destroy', 'stablelib one-shot')}`,
);
