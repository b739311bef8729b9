// A block function that picks a backend per call by run length: short runs
// (a streaming update of a block or two, as ESP's stitched pipeline makes) go
// to a backend without per-call cost, long runs and whole tails to one with
// the fastest blocks but a per-call cost (wasm copies into linear memory).
// Both compute the same compression function on the same state, so mixing
// them within one hash is exact. The dispatcher reports the split it chose.
import { finishFrom } from './sha1-hash.js';
import type { Sha1Compressor } from './types.js';

export function runLengthCompressor(
  short: Sha1Compressor,
  long: Sha1Compressor,
  minLongBlocks: number,
): Sha1Compressor {
  const shortBlocks = short.blockDataOrder;
  const longBlocks = long.blockDataOrder;
  const minLongBytes = minLongBlocks * 64;
  // Called directly (it leaves `state` unmodified, as the contract says): one layer fewer per message.
  const longFinish = long.finishFrom;
  return {
    name: `${short.name}+${long.name}`,
    blockDataOrder(state, data, offset, blocks) {
      if (blocks < minLongBlocks) shortBlocks(state, data, offset, blocks);
      else longBlocks(state, data, offset, blocks);
    },
    finishFrom(state, priorLength, msg, out, offset) {
      if (msg.length < minLongBytes) finishFrom(short, state, priorLength, msg, out, offset);
      else if (longFinish !== undefined) longFinish(state, priorLength, msg, out, offset);
      else finishFrom(long, state, priorLength, msg, out, offset);
    },
    clearScratch() {
      short.clearScratch?.();
      long.clearScratch?.();
    },
  };
}
