// What a seal pipeline is: the part of an SA that turns a laid-out packet
// header into a finished packet. `split` and `stitched` (in pipelines/) have
// this one shape, so the SA and the benchmarks can swap them freely.
import type { BlockCipher } from '@layerbench/aes-core';
import type { HmacSha1 } from '@layerbench/sha1-dispatch';

export type PipelineName = 'split' | 'stitched';

/** ESP header (SPI, sequence number) and the AES-CBC IV that follows it. */
export const HEADER_BYTES = 8;
export const IV_BYTES = 16;
export const CIPHERTEXT_OFFSET = HEADER_BYTES + IV_BYTES;
/** HMAC-SHA1-96 (RFC 2404): the first 96 bits of HMAC-SHA1. */
export const ICV_BYTES = 12;

export interface SealPipeline {
  readonly name: PipelineName;
  /**
   * `packet` holds SPI | seq | IV in its first 24 bytes and has room for the
   * ciphertext and ICV. Writes payload | padding 1, 2, ... | pad length |
   * next header CBC-encrypted at offset 24, then the ICV over
   * packet[0, icvOffset) at icvOffset.
   */
  seal(packet: Uint8Array, payload: Uint8Array, nextHeader: number, padLength: number, icvOffset: number): void;
}

/** What every pipeline holds: the two layers and a tag scratch, allocated once per SA. */
export abstract class LayeredPipeline implements SealPipeline {
  abstract readonly name: PipelineName;
  protected readonly tag: Uint8Array = new Uint8Array(20);

  constructor(
    protected readonly cipher: BlockCipher,
    protected readonly mac: HmacSha1,
  ) {}

  abstract seal(
    packet: Uint8Array,
    payload: Uint8Array,
    nextHeader: number,
    padLength: number,
    icvOffset: number,
  ): void;
}

export interface PipelineDefinition {
  readonly name: PipelineName;
  /** Whether this pipeline's own code branches only on public lengths (the layers decide the rest). */
  readonly description: string;
  create(cipher: BlockCipher, mac: HmacSha1): SealPipeline;
}

/**
 * Lays the plaintext out in place at offset 24: payload, padding 1, 2, 3, ...
 * (RFC 4303 section 2.4), pad length, next header. Both pipelines then
 * encrypt it where it lies.
 */
export function layOutPlaintext(packet: Uint8Array, payload: Uint8Array, padLength: number, nextHeader: number): void {
  packet.set(payload, CIPHERTEXT_OFFSET);
  const trailer = CIPHERTEXT_OFFSET + payload.length;
  for (let i = 0; i < padLength; i++) packet[trailer + i] = i + 1;
  packet[trailer + padLength] = padLength;
  packet[trailer + padLength + 1] = nextHeader;
}

/**
 * Finishes `mac` into `tag` (a 20-byte scratch) and copies the 96-bit ICV to
 * packet[icvOffset..]. Works whether the HMAC object truncates (tagLength 12) or not.
 */
export function writeIcv(mac: HmacSha1, tag: Uint8Array, packet: Uint8Array, icvOffset: number): void {
  mac.digestInto(tag, 0);
  for (let i = 0; i < ICV_BYTES; i++) packet[icvOffset + i] = tag[i]!;
}
