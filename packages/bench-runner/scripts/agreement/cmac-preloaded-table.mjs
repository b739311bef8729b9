// Referee for cmac/aes-128/pl=48/preloaded/table: one Cmac context per key, mac(packet) in a loop.
import { createAes } from '@layerbench/aes-core';
import { Cmac } from '@layerbench/cmac';
import { report } from './user-loop.mjs';
import { seedKey, seedPacket } from './inputs.mjs';

const ctx = new Cmac(createAes(seedKey(16), { backend: 'table' }));
const msg = seedPacket(48);
let tag;
report('cmac/aes-128/pl=48/preloaded/table', (n) => {
  for (let i = 0; i < n; i++) tag = ctx.mac(msg);
});
if (tag.length !== 16) throw new Error('no tag');
