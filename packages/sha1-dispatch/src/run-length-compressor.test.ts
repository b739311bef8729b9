// The run-length split sends each call to the backend its length asks for,
// and mixing the two within one hash gives SHA-1.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { bytesToHex, seededBytes } from '#vectors';
import { blockDataOrder as genericBlocks } from './backends/generic.js';
import { wasmCompressor } from './backends/wasm.js';
import { runLengthCompressor } from './run-length-compressor.js';
import { BlockSha1, sha1WithCompressor } from './sha1-hash.js';
import type { Sha1Compressor } from './types.js';

function recording(name: string, inner: Sha1Compressor, log: string[]): Sha1Compressor {
  const c: Sha1Compressor = {
    name,
    blockDataOrder: (s, d, o, b) => {
      log.push(`${name}:${b}`);
      inner.blockDataOrder(s, d, o, b);
    },
  };
  if (inner.finishFrom) {
    const finish = inner.finishFrom;
    c.finishFrom = (s, p, m, out, off) => {
      log.push(`${name}:finish ${m.length}`);
      finish(s, p, m, out, off);
    };
  }
  return c;
}

it('short runs and short tails go to the short backend, the rest to the long one', () => {
  const log: string[] = [];
  const short = recording('short', { name: 'generic', blockDataOrder: genericBlocks }, log);
  const long = recording('long', wasmCompressor, log);
  const c = runLengthCompressor(short, long, 4);
  expect(c.name).toBe('short+long');
  const msg = seededBytes(3)(64 * 10 + 5);
  const h = new BlockSha1(c);
  h.update(msg.subarray(0, 64))
    .update(msg.subarray(64, 64 * 9))
    .update(msg.subarray(64 * 9));
  expect(bytesToHex(h.digest())).toBe(createHash('sha1').update(msg).digest('hex'));
  expect(log).toEqual(['short:1', 'long:8', 'short:1', 'short:1']);
  log.length = 0;
  expect(bytesToHex(sha1WithCompressor(c, msg.subarray(0, 100)))).toBe(
    createHash('sha1').update(msg.subarray(0, 100)).digest('hex'),
  );
  expect(bytesToHex(sha1WithCompressor(c, msg))).toBe(createHash('sha1').update(msg).digest('hex'));
  expect(log).toEqual(['short:1', 'short:1', 'long:finish 645']);
});
