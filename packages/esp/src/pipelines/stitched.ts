// The stitched pipeline: one pass over the packet that CBC-encrypts 64 bytes
// (four AES blocks) and feeds them to HMAC-SHA1 while they are still hot, the
// shape of the stitched AES-CBC + HMAC-SHA1 assembly in the OpenConnect
// report. It works in place in the output packet: per 64-byte stitch it makes
// two views (the stitch, its chaining block), never a copy.
import {
  CIPHERTEXT_OFFSET,
  HEADER_BYTES,
  writeIcv,
  layOutPlaintext,
  LayeredPipeline,
  type PipelineDefinition,
} from '../pipeline.js';

/** Bytes per stitch: one SHA-1 block, four AES blocks. */
const STITCH_BYTES = 64;

class StitchedPipeline extends LayeredPipeline {
  readonly name = 'stitched' as const;

  seal(packet: Uint8Array, payload: Uint8Array, nextHeader: number, padLength: number, icvOffset: number): void {
    const { mac, cipher } = this;
    // Lay the plaintext out in place (one memcpy), then encrypt it in place 64
    // bytes at a time; each stitch chains from the previous stitch's last block.
    layOutPlaintext(packet, payload, padLength, nextHeader);
    mac.reset();
    let chain = packet.subarray(HEADER_BYTES, CIPHERTEXT_OFFSET);
    let macked = 0;
    for (let off = CIPHERTEXT_OFFSET; off < icvOffset; off += STITCH_BYTES) {
      const end = Math.min(off + STITCH_BYTES, icvOffset);
      const stitch = packet.subarray(off, end);
      const encrypted = cipher.cbcEncrypt(chain, stitch, stitch);
      if (encrypted !== stitch) packet.set(encrypted, off);
      // Everything up to `end` is final: hand it to HMAC-SHA1 now (the first stitch also carries SPI | seq | IV).
      mac.update(packet.subarray(macked, end));
      macked = end;
      chain = packet.subarray(end - 16, end);
    }
    writeIcv(mac, this.tag, packet, icvOffset);
  }
}

export const stitchedPipeline: PipelineDefinition = {
  name: 'stitched',
  description: 'one pass: CBC-encrypt 64 bytes, feed them to HMAC-SHA1, repeat',
  create: (cipher, mac) => new StitchedPipeline(cipher, mac),
};
