// Referee for cmac/aes-128/pl=48/preloaded/@stablelib/cmac: one CMAC per key, reset().update(packet).digest() in a loop.
import { AES } from '@stablelib/aes';
import { CMAC } from '@stablelib/cmac';
import { report } from './user-loop.mjs';
import { seedKey, seedPacket } from './inputs.mjs';

const mac = new CMAC(new AES(seedKey(16), true));
const msg = seedPacket(48);
let tag;
report('cmac/aes-128/pl=48/preloaded/@stablelib/cmac', (n) => {
  for (let i = 0; i < n; i++) tag = mac.reset().update(msg).digest();
});
if (tag.length !== 16) throw new Error('no tag');
