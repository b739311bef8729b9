// The esp suite: every composition of the ESP layer (aes-core backend x
// sha1-dispatch implementation x pipeline) sealing, and sealing then opening,
// 1400-byte packets, with the ESP compositions of packages/peers side by side, so
// a user sees what each layer costs. The workload and its builders are shared
// with esptest.ts (the OpenConnect reproduction).
import { createCipheriv, createHash, createHmac } from 'node:crypto';
import type { BenchCase, CaseInstance, MemCase } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';
import { createAesAs } from './aes-impl.js';
import type { SuiteDefinition } from './types.js';

/** OpenConnect tests/esptest: payload, SPI, keys and next header. */
export const ESPTEST = {
  payloadBytes: 1400,
  spi: 0x12345678,
  encKeyBytes: 16,
  authKeyBytes: 20,
  fill: 0x5a,
  nextHeader: 41, // IPv6
} as const;

export type EspOp = 'encrypt' | 'encrypt+decrypt';
export const ESP_OPS: readonly EspOp[] = ['encrypt', 'encrypt+decrypt'];
const PIPELINES = ['split', 'stitched'] as const;
export type EspPipeline = (typeof PIPELINES)[number];

export interface EspCompositionChoice {
  aes: string;
  sha1: string;
  pipeline: EspPipeline;
}

export const compositionId = (c: EspCompositionChoice): string => `${c.aes}+${c.sha1}/${c.pipeline}`;

const payload = (): Uint8Array => new Uint8Array(ESPTEST.payloadBytes).fill(ESPTEST.fill);
const encKey = (): Uint8Array => new Uint8Array(ESPTEST.encKeyBytes).fill(ESPTEST.fill);
const authKey = (): Uint8Array => new Uint8Array(ESPTEST.authKeyBytes).fill(ESPTEST.fill);
const sha256 = (...parts: Uint8Array[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

/**
 * The first packet of the workload (seq 1, all-zero IV: the first IV of the
 * deterministic counter source) built with node:crypto directly, so every
 * case's digest is checked against an implementation outside the layers.
 */
function referenceFirstPacket(): Uint8Array {
  const data = payload();
  const padLength = (16 - ((data.length + 2) % 16)) % 16;
  const plaintext = Buffer.alloc(data.length + padLength + 2);
  plaintext.set(data);
  for (let i = 0; i < padLength; i++) plaintext[data.length + i] = i + 1;
  plaintext[plaintext.length - 2] = padLength;
  plaintext[plaintext.length - 1] = ESPTEST.nextHeader;
  const iv = Buffer.alloc(16);
  const cipher = createCipheriv('aes-128-cbc', encKey(), iv).setAutoPadding(false);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(ESPTEST.spi, 0);
  header.writeUInt32BE(1, 4);
  const authenticated = Buffer.concat([header, iv, cipher.update(plaintext), cipher.final()]);
  const icv = createHmac('sha1', authKey()).update(authenticated).digest().subarray(0, 12);
  return new Uint8Array(Buffer.concat([authenticated, icv]));
}

let expected: Record<EspOp, string> | undefined;
/** Expected digests: sha256(first packet) for 'encrypt', sha256(first packet | opened payload) for 'encrypt+decrypt'. */
export function expectedDigests(): Record<EspOp, string> {
  if (expected === undefined) {
    const packet = referenceFirstPacket();
    expected = { encrypt: sha256(packet), 'encrypt+decrypt': sha256(packet, payload()) };
  }
  return expected;
}

/**
 * One SA of `choice`, composed from the given layers: the aes and sha1 layers
 * are passed to esp as factories, so a bisection that swaps aes-core or
 * sha1-dispatch really swaps what esp runs on.
 */
export function composedSa(layers: Layers, choice: EspCompositionChoice) {
  return layers.esp.createEspSa({
    spi: ESPTEST.spi,
    encKey: encKey(),
    authKey: authKey(),
    aes: (key) => createAesAs(layers, key, choice.aes),
    sha1: (key, options) => layers.sha1.createHmacSha1(key, { impl: choice.sha1, tagLength: options?.tagLength ?? 12 }),
    pipeline: choice.pipeline,
    iv: layers.esp.counterIvSource(0),
  });
}

/** Seals (and opens) the workload's packets; the digest comes from a fresh SA's first packet. */
export function espInstance(layers: Layers, choice: EspCompositionChoice, op: EspOp): CaseInstance {
  const data = payload();
  const sa = composedSa(layers, choice);
  const fn =
    op === 'encrypt' ? () => sa.seal(data, ESPTEST.nextHeader) : () => sa.open(sa.seal(data, ESPTEST.nextHeader));
  const digest = () => {
    const fresh = composedSa(layers, choice);
    const packet = fresh.seal(data, ESPTEST.nextHeader);
    const result = op === 'encrypt' ? sha256(packet) : sha256(packet, fresh.open(packet).payload);
    fresh.destroy();
    return result;
  };
  // The SA reports the layers that ran: never measure one composition under another's name.
  if (sa.composition.id !== compositionId(choice)) {
    throw new Error(`asked esp for composition ${compositionId(choice)} and it ran ${sa.composition.id}`);
  }
  return { fn, digest, implementation: sa.composition.id, teardown: () => sa.destroy() };
}

/** Every composition this machine can run with the given layers. */
export function espCompositions(layers: Layers): EspCompositionChoice[] {
  const aesNames = layers.aes
    .aesBackends()
    .filter((b) => b.available)
    .map((b) => b.name);
  const sha1Names = layers.sha1
    .sha1Implementations()
    .filter((s) => s.available)
    .map((s) => s.name);
  const out: EspCompositionChoice[] = [];
  for (const aes of aesNames)
    for (const sha1 of sha1Names) for (const pipeline of PIPELINES) out.push({ aes, sha1, pipeline });
  return out;
}

/**
 * The ESP peers of packages/peers, named here so cases() imports nothing from
 * them: '@layerbench/peers' is loaded only inside setup(), because the suites
 * must load on Node 16 and some peers need a newer one.
 */
const PEERS = ['node:crypto per packet', '@noble/ciphers+@noble/hashes', 'asmcrypto.js+hash-wasm'] as const;

async function peerInstance(name: string, op: EspOp): Promise<CaseInstance> {
  const { espPeers } = await import('@layerbench/peers');
  const peer = espPeers.find((p) => p.name === name);
  if (peer === undefined) throw new Error(`packages/peers has no ESP peer named '${name}'`);
  const data = payload();
  const iv = new Uint8Array(16);
  const sa = await peer.create(encKey(), authKey(), ESPTEST.spi);
  let seq = 0;
  const fn =
    op === 'encrypt'
      ? () => sa.seal(data, ESPTEST.nextHeader, iv, ++seq)
      : () => sa.open(sa.seal(data, ESPTEST.nextHeader, iv, ++seq));
  const digest = () => {
    const packet = sa.seal(data, ESPTEST.nextHeader, iv, 1);
    return op === 'encrypt' ? sha256(packet) : sha256(packet, sa.open(packet));
  };
  return { fn, digest, implementation: name };
}

const common = (op: EspOp) => ({
  algorithm: 'ESP AES-128-CBC HMAC-SHA1-96',
  keyBytes: ESPTEST.encKeyBytes,
  packetBytes: ESPTEST.payloadBytes,
  macBytes: 12,
  op,
});

function espCases(layers: Layers): BenchCase[] {
  const cases: BenchCase[] = [];
  const digests = expectedDigests();
  for (const op of ESP_OPS) {
    const opName = op === 'encrypt' ? 'seal' : 'seal+open';
    for (const choice of espCompositions(layers)) {
      const id = compositionId(choice);
      cases.push({
        id: `esp/${opName}/pl=1400/${id}`,
        layer: 'esp',
        params: {
          ...common(op),
          impl: id,
          aes: choice.aes,
          sha1: choice.sha1,
          pipeline: choice.pipeline,
          section: opName,
        },
        bytesPerOp: ESPTEST.payloadBytes,
        expectedDigest: digests[op],
        setup: () => espInstance(layers, choice, op),
      });
    }
    for (const name of PEERS) {
      cases.push({
        id: `esp/${opName}/pl=1400/peer:${name}`,
        layer: 'peers',
        params: { ...common(op), impl: name, peer: true, section: opName },
        bytesPerOp: ESPTEST.payloadBytes,
        expectedDigest: digests[op],
        setup: () => peerInstance(name, op),
      });
    }
  }
  return cases;
}

function espMemCases(layers: Layers): MemCase[] {
  return espCompositions(layers).map((choice) => ({
    id: `esp/sa/${compositionId(choice)}`,
    layer: 'esp',
    params: {
      algorithm: 'ESP AES-128-CBC HMAC-SHA1-96',
      keyBytes: ESPTEST.encKeyBytes,
      impl: compositionId(choice),
      pattern: 'sa',
    },
    create: () => composedSa(layers, choice),
  }));
}

export const espSuite: SuiteDefinition = {
  name: 'esp',
  description:
    'ESP seal and seal+open of 1400-byte packets: every aes backend x sha1 implementation x pipeline, and the npm peers',
  defaultFormat: 'table',
  cases: (layers) => espCases(layers),
  memCases: (layers) => espMemCases(layers),
};
