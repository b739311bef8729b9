// An ESP security association (RFC 4303) with AES-CBC (RFC 3602) and
// HMAC-SHA1-96 (RFC 2404), built from an aes-core BlockCipher and a
// sha1-dispatch HmacSha1 chosen by the caller or by the measured default.
// 32-bit sequence numbers only: Extended Sequence Numbers are not supported.
import type { BlockCipher, BlockCipherFactory, DispatchDecision } from '@layerbench/aes-core';
import type { HmacSha1, HmacSha1Factory } from '@layerbench/sha1-dispatch';
import { defaultComposition, forcedComposition, type DefaultComposition } from './composition.js';
import { aesFactory, availableAesBackends, availableSha1Implementations, sha1Factory } from './default-layers.js';
import { EspError } from './errors.js';
import { DestroyedError, checkBytes, constantTimeEqual, describeValue } from './layer-shared.generated.js';
import { randomIvSource, type IvSource } from './iv-source.js';
import { PacketSlab } from './packet-slab.js';
import {
  CIPHERTEXT_OFFSET,
  HEADER_BYTES,
  ICV_BYTES,
  type PipelineDefinition,
  type PipelineName,
  type SealPipeline,
} from './pipeline.js';
import { splitPipeline } from './pipelines/split.js';
import { stitchedPipeline } from './pipelines/stitched.js';
import { DEFAULT_REPLAY_WINDOW, ReplayWindow } from './replay-window.js';

export const pipelines: Record<PipelineName, PipelineDefinition> = {
  split: splitPipeline,
  stitched: stitchedPipeline,
};

export type EspDirection = 'outbound' | 'inbound' | 'both';

export interface EspSaOptions {
  /** Security Parameters Index, 256 .. 2^32-1 (1-255 are reserved, 0 is local use: RFC 4303 section 2.1). */
  spi: number;
  /** AES key: 16, 24 or 32 bytes. */
  encKey: Uint8Array;
  /** HMAC-SHA1-96 key: 20 bytes (RFC 2404 section 3). */
  authKey: Uint8Array;
  /**
   * The whole composition by name, `<aes backend>+<sha1 implementation>/<pipeline>`
   * (e.g. 'table+wasm/split', the form of `composition.id` and of
   * LAYERBENCH_ESP_COMPOSITION); instead of `aes`, `sha1` and `pipeline`.
   */
  impl?: string;
  /** aes-core backend name, or an injected BlockCipher factory. Default: the measured best composition. */
  aes?: string | BlockCipherFactory;
  /** sha1-dispatch implementation name, or an injected HMAC-SHA1 factory. Default: the measured best composition. */
  sha1?: string | HmacSha1Factory;
  /** Seal pipeline. Default: the measured best composition. */
  pipeline?: PipelineName;
  /** Anti-replay window in packets (default 64, up to 65536). */
  replayWindow?: number;
  /** IV source; default a CSPRNG. Deterministic sources are for tests and benchmarks only. */
  iv?: IvSource;
  /** An SA is one-directional in RFC 4301; 'both' (default) lets one object seal and open, for loopback and tests. */
  direction?: EspDirection;
  /** Sequence number of the next sealed packet (default 1), e.g. to resume a saved SA. */
  nextSequence?: number;
}

export interface OpenedPacket {
  payload: Uint8Array;
  nextHeader: number;
  seq: number;
}

/** The layers and pipeline an SA runs on, and why they were chosen. */
export interface EspComposition {
  aes: { name: string; constantTime: boolean; native: boolean };
  sha1: string;
  pipeline: PipelineName;
  /** `${aes}+${sha1}/${pipeline}`: the id used in bench results. */
  id: string;
  reason: string;
}

export interface EspSa {
  readonly spi: number;
  readonly composition: EspComposition;
  /** Sequence number the next sealed packet will carry. */
  readonly nextSequence: number;
  /** Highest sequence number opened so far (0 before the first). */
  readonly highestReceived: number;
  readonly replayWindow: number;
  /**
   * SPI | seq | IV | AES-CBC(payload | padding | pad length | next header) | ICV(12).
   * The packet is an exclusive view into a slab shared with this SA's other
   * sealed packets (see packet-slab.ts): mind byteOffset when using `.buffer`.
   */
  seal(payload: Uint8Array, nextHeader: number): Uint8Array;
  /** Checks length, SPI, ICV (constant time), replay, then decrypts and checks padding. Throws EspError. */
  open(packet: Uint8Array): OpenedPacket;
  describeDispatch(): DispatchDecision[];
  /** Wipes both keys (the cipher's schedule and the HMAC state); later calls throw. */
  destroy(): void;
}

const MIN_PACKET = CIPHERTEXT_OFFSET + 16 + ICV_BYTES;

/** A key: bytes of one of `lengths`. */
function checkKeyBytes(name: string, value: unknown, lengths: number[], why: string): Uint8Array {
  checkBytes(value, name);
  if (!lengths.includes(value.length)) {
    throw new RangeError(
      `${name} must be ${lengths.join(', ').replace(/, (\d+)$/, ' or $1')} bytes${why}, got ${value.length}`,
    );
  }
  return value;
}

function readUint32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

function writeUint32(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value >>> 24;
  bytes[offset + 1] = value >>> 16;
  bytes[offset + 2] = value >>> 8;
  bytes[offset + 3] = value;
}

class SecurityAssociation implements EspSa {
  readonly spi: number;
  readonly composition: EspComposition;
  private readonly cipher: BlockCipher;
  private readonly mac: HmacSha1;
  private readonly sealer: SealPipeline;
  private readonly window: ReplayWindow;
  private readonly ivSource: IvSource;
  private readonly direction: EspDirection;
  private readonly ivScratch = new Uint8Array(16);
  private readonly tagScratch = new Uint8Array(20);
  /** The first ICV_BYTES of tagScratch: the ICV a packet must carry. */
  private readonly icvScratch = this.tagScratch.subarray(0, ICV_BYTES);
  private readonly packets = new PacketSlab();
  private seq: number;
  private destroyed = false;

  constructor(options: EspSaOptions) {
    if (options === null || typeof options !== 'object') throw new TypeError('createEspSa needs an options object');
    const { spi } = options;
    if (!Number.isInteger(spi) || spi < 256 || spi > 0xffffffff) {
      throw new RangeError(
        `SPI must be an integer from 256 to 4294967295 (0-255 are reserved, RFC 4303 section 2.1), got ${String(spi)}`,
      );
    }
    const encKey = checkKeyBytes('encKey (AES key)', options.encKey, [16, 24, 32], '');
    const authKey = checkKeyBytes('authKey (HMAC-SHA1-96 key)', options.authKey, [20], ' (RFC 2404)');
    const direction = options.direction ?? 'both';
    if (direction !== 'outbound' && direction !== 'inbound' && direction !== 'both') {
      throw new RangeError(`direction must be 'outbound', 'inbound' or 'both', got ${String(direction)}`);
    }
    const pipelineName = options.pipeline;
    if (pipelineName !== undefined && pipelineName !== 'split' && pipelineName !== 'stitched') {
      throw new RangeError(`pipeline must be 'split' or 'stitched', got ${String(pipelineName)}`);
    }
    const next = options.nextSequence ?? 1;
    if (!Number.isInteger(next) || next < 1 || next > 0x100000000) {
      throw new RangeError(`nextSequence must be an integer from 1 to 2^32, got ${String(next)}`);
    }
    if (options.iv !== undefined && typeof options.iv !== 'function') {
      throw new TypeError('iv must be a function (out: Uint8Array) => void');
    }
    for (const [name, value] of [
      ['aes', options.aes],
      ['sha1', options.sha1],
    ] as const) {
      if (value !== undefined && typeof value !== 'string' && typeof value !== 'function') {
        throw new TypeError(
          `${name} must be a backend name or a factory function, got ${value === null ? 'null' : typeof value}`,
        );
      }
    }
    this.window = new ReplayWindow(options.replayWindow ?? DEFAULT_REPLAY_WINDOW);

    // The whole composition by name, or its parts; what the caller left open
    // comes from the measured best composition.
    let named: DefaultComposition | undefined;
    if (options.impl !== undefined) {
      if (typeof options.impl !== 'string')
        throw new TypeError(
          `impl must be a composition name such as 'table+wasm/split', got ${describeValue(options.impl)}`,
        );
      if (options.aes !== undefined || options.sha1 !== undefined || pipelineName !== undefined) {
        throw new TypeError(
          'createEspSa options: give either impl (the whole composition) or aes, sha1 and pipeline, not both',
        );
      }
      named = forcedComposition(options.impl, availableAesBackends(), availableSha1Implementations(), 'impl');
    }
    const needsDefault =
      named === undefined && (options.aes === undefined || options.sha1 === undefined || pipelineName === undefined);
    const best = needsDefault ? defaultComposition() : undefined;
    const aes = named?.aes ?? options.aes ?? best!.aes;
    const sha1 = named?.sha1 ?? options.sha1 ?? best!.sha1;
    const pipeline = pipelines[named?.pipeline ?? pipelineName ?? best!.pipeline];
    const createCipher = typeof aes === 'function' ? aes : aesFactory(aes);
    const createMac = typeof sha1 === 'function' ? sha1 : sha1Factory(sha1);

    this.spi = spi;
    this.seq = next;
    this.direction = direction;
    this.ivSource = options.iv ?? randomIvSource();
    this.cipher = createCipher(encKey);
    this.mac = createMac(authKey, { tagLength: ICV_BYTES });
    if (!(this.mac.tagLength >= ICV_BYTES && this.mac.tagLength <= 20)) {
      throw new RangeError(
        `the sha1 layer made HMAC tags of ${this.mac.tagLength} bytes; HMAC-SHA1-96 needs 12 (or the full 20)`,
      );
    }
    this.sealer = pipeline.create(this.cipher, this.mac);

    const chosen: string[] = [];
    if (named === undefined) {
      if (typeof aes === 'string' && options.aes === undefined) chosen.push('aes');
      if (typeof sha1 === 'string' && options.sha1 === undefined) chosen.push('sha1');
      if (pipelineName === undefined) chosen.push('pipeline');
    }
    const aesInfo = this.cipher.backend;
    const id = `${aesInfo.name}+${this.mac.impl}/${pipeline.name}`;
    let reason: string;
    if (named !== undefined) reason = named.reason;
    else if (chosen.length === 0) reason = 'chosen by the caller';
    else if (chosen.length === 3) reason = best!.reason;
    else reason = `${chosen.join(', ')} from the default composition (${best!.reason}); the rest chosen by the caller`;
    if (typeof aes === 'function' || typeof sha1 === 'function') reason += '; injected layer factory';
    this.composition = {
      aes: { name: aesInfo.name, constantTime: aesInfo.constantTime, native: aesInfo.native },
      sha1: this.mac.impl,
      pipeline: pipeline.name,
      id,
      reason,
    };
  }

  get nextSequence(): number {
    return this.seq;
  }

  get highestReceived(): number {
    return this.window.highest;
  }

  get replayWindow(): number {
    return this.window.size;
  }

  seal(payload: Uint8Array, nextHeader: number): Uint8Array {
    this.assertUsable();
    if (this.direction === 'inbound')
      throw new EspError('direction', 'this SA was created inbound: it opens packets, it does not seal them');
    checkBytes(payload, 'payload');
    if (!Number.isInteger(nextHeader) || nextHeader < 0 || nextHeader > 255) {
      throw new RangeError(`nextHeader must be an integer from 0 to 255, got ${String(nextHeader)}`);
    }
    const seq = this.seq;
    if (seq > 0xffffffff) {
      throw new EspError(
        'sequence',
        'sequence number would wrap past 2^32-1: establish a new SA (RFC 4303 section 3.3.3; ESN is not supported)',
      );
    }
    // Payload, pad length and next header fill whole AES blocks (RFC 4303 section 2.4, RFC 3602 section 2.4).
    const padLength = (16 - ((payload.length + 2) & 15)) & 15;
    const icvOffset = CIPHERTEXT_OFFSET + payload.length + 2 + padLength;
    const packet = this.packets.allocate(icvOffset + ICV_BYTES);
    writeUint32(packet, 0, this.spi);
    writeUint32(packet, 4, seq);
    const iv = this.ivScratch;
    this.ivSource(iv);
    packet.set(iv, HEADER_BYTES);
    this.sealer.seal(packet, payload, nextHeader, padLength, icvOffset);
    this.seq = seq + 1;
    return packet;
  }

  open(packet: Uint8Array): OpenedPacket {
    this.assertUsable();
    if (this.direction === 'outbound')
      throw new EspError('direction', 'this SA was created outbound: it seals packets, it does not open them');
    checkBytes(packet, 'packet');
    const length = packet.length;
    if (length < MIN_PACKET) {
      throw new EspError(
        'length',
        `ESP packet of ${length} bytes is shorter than the minimum ${MIN_PACKET} (header 8, IV 16, one AES block, ICV 12)`,
      );
    }
    const ciphertextLength = length - CIPHERTEXT_OFFSET - ICV_BYTES;
    if ((ciphertextLength & 15) !== 0) {
      throw new EspError(
        'length',
        `ESP ciphertext of ${ciphertextLength} bytes is not a whole number of 16-byte AES blocks`,
      );
    }
    const spi = readUint32(packet, 0);
    if (spi !== this.spi) {
      throw new EspError(
        'spi',
        `SPI 0x${spi.toString(16).padStart(8, '0')} is not this SA's 0x${this.spi.toString(16).padStart(8, '0')}`,
      );
    }
    // ICV before anything touches the ciphertext: an unauthenticated packet
    // reaches neither the replay window nor the cipher.
    const icvOffset = length - ICV_BYTES;
    const mac = this.mac;
    mac.reset();
    mac.update(packet.subarray(0, icvOffset));
    const tag = this.tagScratch;
    mac.digestInto(tag, 0);
    if (!constantTimeEqual(this.icvScratch, packet.subarray(icvOffset))) {
      throw new EspError('auth', 'ICV does not match: packet forged or corrupted');
    }

    const seq = readUint32(packet, 4);
    const refused = this.window.check(seq);
    if (refused !== undefined) throw new EspError('replay', refused);

    const plaintext = this.cipher.cbcDecrypt(
      packet.subarray(HEADER_BYTES, CIPHERTEXT_OFFSET),
      packet.subarray(CIPHERTEXT_OFFSET, icvOffset),
      new Uint8Array(ciphertextLength),
    );
    const padLength = plaintext[ciphertextLength - 2]!;
    const nextHeader = plaintext[ciphertextLength - 1]!;
    const payloadLength = ciphertextLength - 2 - padLength;
    if (payloadLength < 0) {
      throw new EspError('padding', `pad length ${padLength} does not fit in ${ciphertextLength} bytes of plaintext`);
    }
    for (let i = 0; i < padLength; i++) {
      if (plaintext[payloadLength + i] !== i + 1) {
        throw new EspError(
          'padding',
          `padding byte ${i + 1} of ${padLength} is ${plaintext[payloadLength + i]}, expected ${i + 1} (RFC 4303 section 2.4)`,
        );
      }
    }
    this.window.accept(seq);
    return { payload: plaintext.subarray(0, payloadLength), nextHeader, seq };
  }

  describeDispatch(): DispatchDecision[] {
    const c = this.composition;
    return [
      { layer: 'esp', decision: 'composition', impl: c.id, reason: c.reason },
      {
        layer: 'esp',
        decision: 'aes backend',
        impl: c.aes.name,
        reason: c.aes.native ? 'native (node:crypto)' : c.aes.constantTime ? 'constant-time' : 'not constant-time',
      },
      {
        layer: 'esp',
        decision: 'sha1 implementation',
        impl: c.sha1,
        reason: 'HMAC-SHA1-96 over SPI | seq | IV | ciphertext',
      },
      { layer: 'esp', decision: 'pipeline', impl: c.pipeline, reason: pipelines[c.pipeline].description },
    ];
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.cipher.destroy();
    this.mac.destroy();
    this.tagScratch.fill(0);
    this.ivScratch.fill(0);
  }

  private assertUsable(): void {
    if (this.destroyed) throw new DestroyedError('this ESP SA was destroyed');
  }
}

/** Creates one security association. Throws RangeError/TypeError for bad options. */
export function createEspSa(options: EspSaOptions): EspSa {
  return new SecurityAssociation(options);
}
