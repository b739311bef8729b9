// Referee for sha1/64/noble: sha1(msg) of a 64-byte message in a loop.
import { sha1 } from '@noble/hashes/legacy.js';
import { sha1Message } from './inputs.mjs';
import { report } from './user-loop.mjs';

const msg = sha1Message(64);
let digest;
report('sha1/64/noble', (n) => {
  for (let i = 0; i < n; i++) digest = sha1(msg);
});
if (digest.length !== 20) throw new Error('no digest');
