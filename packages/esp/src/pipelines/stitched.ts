// The stitched pipeline: one pass over the packet that CBC-encrypts 64 bytes
// (four AES blocks) and feeds them to HMAC-SHA1 while they are still hot, the
// shape of the stitched AES-CBC + HMAC-SHA1 assembly in the OpenConnect
// report. All working memory is allocated once per SA: per packet it touches
// only the output packet and a 64-byte scratch.
import type { BlockCipher } from '@layerbench/aes-core';
import type { HmacSha1 } from '@layerbench/sha1-dispatch';
import {
  CIPHERTEXT_OFFSET,
  HEADER_BYTES,
  writeIcv,
  type PipelineDefinition,
  type SealPipeline,
} from '../pipeline.js';

/** Bytes per stitch: one SHA-1 block, four AES blocks. */
const STITCH_BYTES = 64;

class StitchedPipeline implements SealPipeline {
  readonly name = 'stitched' as const;
  private readonly tag = new Uint8Array(20);
  private readonly header = new Uint8Array(CIPHERTEXT_OFFSET);
  private readonly chain = new Uint8Array(16);
  private readonly scratch = new Uint8Array(STITCH_BYTES);
  /** views[k] = the first 16*k bytes of scratch (the last stitch may be 1-3 blocks). */
  private readonly views: Uint8Array[];

  constructor(
    private readonly cipher: BlockCipher,
    private readonly mac: HmacSha1,
  ) {
    this.views = [0, 16, 32, 48, 64].map((n) => this.scratch.subarray(0, n));
  }

  seal(packet: Uint8Array, payload: Uint8Array, nextHeader: number, padLength: number, icvOffset: number): void {
    const { mac, cipher, scratch, chain, header } = this;
    const payloadLength = payload.length;
    const trailerStart = payloadLength + padLength;
    const ciphertextLength = icvOffset - CIPHERTEXT_OFFSET;

    for (let i = 0; i < CIPHERTEXT_OFFSET; i++) header[i] = packet[i]!;
    for (let i = 0; i < 16; i++) chain[i] = packet[HEADER_BYTES + i]!;
    mac.reset();
    mac.update(header);

    for (let off = 0; off < ciphertextLength; off += STITCH_BYTES) {
      const n = Math.min(STITCH_BYTES, ciphertextLength - off);
      // Plaintext of this stitch: payload bytes, then padding 1, 2, ..., pad length, next header.
      const fromPayload = Math.max(0, Math.min(n, payloadLength - off));
      for (let i = 0; i < fromPayload; i++) scratch[i] = payload[off + i]!;
      for (let i = fromPayload; i < n; i++) {
        const k = off + i;
        scratch[i] = k < trailerStart ? k - payloadLength + 1 : k === trailerStart ? padLength : nextHeader;
      }
      const view = this.views[n >>> 4]!;
      const encrypted = cipher.cbcEncrypt(chain, view, view);
      packet.set(encrypted, CIPHERTEXT_OFFSET + off);
      for (let i = 0; i < 16; i++) chain[i] = encrypted[n - 16 + i]!;
      mac.update(encrypted);
    }
    writeIcv(mac, this.tag, packet, icvOffset);
  }
}

export const stitchedPipeline: PipelineDefinition = {
  name: 'stitched',
  description: 'one pass: CBC-encrypt 64 bytes, feed them to HMAC-SHA1, repeat',
  create: (cipher, mac) => new StitchedPipeline(cipher, mac),
};
