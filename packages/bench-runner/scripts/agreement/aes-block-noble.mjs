// Referee for aes/aes-128/block/noble: expandKeyLE once, then per block copy in and encryptBlock in place.
import { unsafe } from '@noble/ciphers/aes.js';
import { aesBlock, aesKey } from './inputs.mjs';
import { report } from './user-loop.mjs';

const xk = unsafe.expandKeyLE(aesKey(16));
const src = aesBlock();
const dst = new Uint8Array(16);
report('aes/aes-128/block/noble', (n) => {
  for (let i = 0; i < n; i++) {
    dst.set(src);
    unsafe.encryptBlock(xk, dst);
  }
});
