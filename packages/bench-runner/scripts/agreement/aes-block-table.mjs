// Referee for aes/aes-128/block/table: createAes(key, { backend: 'table' }) once, encryptBlock in a loop.
import { createAes } from '@layerbench/aes-core';
import { aesBlock, aesKey } from './inputs.mjs';
import { report } from './user-loop.mjs';

const cipher = createAes(aesKey(16), { backend: 'table' });
const src = aesBlock();
const dst = new Uint8Array(16);
report('aes/aes-128/block/table', (n) => {
  for (let i = 0; i < n; i++) cipher.encryptBlock(src, dst);
});
