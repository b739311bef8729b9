// Referee for aes/aes-128/block/stablelib: new AES(key) once, encryptBlock in a loop.
import { AES } from '@stablelib/aes';
import { aesBlock, aesKey } from './inputs.mjs';
import { report } from './user-loop.mjs';

const aes = new AES(aesKey(16), true);
const src = aesBlock();
const dst = new Uint8Array(16);
report('aes/aes-128/block/stablelib', (n) => {
  for (let i = 0; i < n; i++) aes.encryptBlock(src, dst);
});
