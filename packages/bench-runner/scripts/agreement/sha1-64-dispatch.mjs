// Referee for sha1/64/dispatch: the layer's own sha1(msg) (the dispatcher picks) in a loop.
import { sha1 } from '@layerbench/sha1-dispatch';
import { sha1Message } from './inputs.mjs';
import { report } from './user-loop.mjs';

const msg = sha1Message(64);
let digest;
report('sha1/64/dispatch', (n) => {
  for (let i = 0; i < n; i++) digest = sha1(msg);
});
if (digest.length !== 20) throw new Error('no digest');
