// The split pipeline: CBC-encrypt the whole padded payload with one call into
// the AES layer, then HMAC the whole SPI | seq | IV | ciphertext with one call
// into the SHA-1 layer. Two passes over the packet, two layer calls: cheapest
// when each call into a layer costs a lot (node:crypto backends).
import {
  CIPHERTEXT_OFFSET,
  HEADER_BYTES,
  writeIcv,
  layOutPlaintext,
  LayeredPipeline,
  type PipelineDefinition,
} from '../pipeline.js';

class SplitPipeline extends LayeredPipeline {
  readonly name = 'split' as const;

  seal(packet: Uint8Array, payload: Uint8Array, nextHeader: number, padLength: number, icvOffset: number): void {
    layOutPlaintext(packet, payload, padLength, nextHeader);
    const body = packet.subarray(CIPHERTEXT_OFFSET, icvOffset);
    const encrypted = this.cipher.cbcEncrypt(packet.subarray(HEADER_BYTES, CIPHERTEXT_OFFSET), body, body);
    if (encrypted !== body) packet.set(encrypted, CIPHERTEXT_OFFSET);
    const mac = this.mac;
    mac.reset();
    mac.update(packet.subarray(0, icvOffset));
    writeIcv(mac, this.tag, packet, icvOffset);
  }
}

export const splitPipeline: PipelineDefinition = {
  name: 'split',
  description: 'CBC-encrypt everything, then HMAC everything (two layer calls per packet)',
  create: (cipher, mac) => new SplitPipeline(cipher, mac),
};
