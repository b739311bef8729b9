// Referee for cmac-timing/aes-128/pl=48/oneshot/table: keys the cipher and derives the subkeys on every call.
import { createAes } from '@layerbench/aes-core';
import { cmac } from '@layerbench/cmac';
import { report } from './user-loop.mjs';
import { seedKey, seedPacket } from './inputs.mjs';

const key = seedKey(16);
const msg = seedPacket(48);
const options = { aes: (k) => createAes(k, { backend: 'table' }) };
let tag;
report('cmac-timing/aes-128/pl=48/oneshot/table', (n) => {
  for (let i = 0; i < n; i++) tag = cmac(key, msg, options);
});
if (tag.length !== 16) throw new Error('no tag');
