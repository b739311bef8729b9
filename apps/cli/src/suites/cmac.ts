// The cmac suite: every access pattern of the NTPsec report (one-shot,
// preloaded, dup, native) over every aes-core backend and key size at the
// seed's 48-byte packet, with the npm CMAC libraries of packages/peers side by
// side, and the memory of each kind of context. The access-pattern builders
// here are shared with the seed reproduction in cmac-timing.ts.
import type { BenchCase, CaseInstance, MemCase } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';
import { aesImplOptions, checkBackend, createAesAs } from './aes-impl.js';
import type { SuiteDefinition } from './types.js';

export type CmacPattern = 'oneshot' | 'preloaded' | 'dup' | 'native';

/** The seed's inputs: key[i] = (i*i + 0x23) & 0xff (first 16/24/32 bytes), packet[i] = (i*i + 0x31) & 0xff. */
export const seedKey = (keyBytes: number): Uint8Array =>
  Uint8Array.from({ length: keyBytes }, (_, i) => (i * i + 0x23) & 0xff);
export const seedPacket = (packetBytes: number): Uint8Array =>
  Uint8Array.from({ length: packetBytes }, (_, i) => (i * i + 0x31) & 0xff);

export const KEY_SIZES = [16, 24, 32] as const;
const SEED_PACKET_BYTES = 48;
const MAC_BYTES = 16;

/**
 * Expected tags of the seed inputs by `${packetBytes}/${keyBytes}`. PL 48 is
 * the seed report's table; PL 96 and 4096 were computed with
 * `openssl mac -cipher AES-<bits>-CBC -macopt hexkey:<key> CMAC` (OpenSSL 3).
 */
export const SEED_TAGS: Readonly<Record<string, string>> = {
  '48/16': '475ac1c053379e7dbd4ce80b87d2178e',
  '48/24': 'c906422bfe0963de6df50e022b4aa7d4',
  '48/32': '991f4017858de97515260dd9ae440b06',
  '96/16': 'f93504c6d9d290be912ada4765bfeed0',
  '96/24': '5e6d67064eb0dc6d54d6d9619bbf9e85',
  '96/32': 'a0f54601d05ec5b8e88ebe9c0e9eb2d6',
  '4096/16': '0aa540c9ed8b1b87b3f37e3e9491a14c',
  '4096/24': '89c7b66cd145cbe897d137ef8242da42',
  '4096/32': '677bbde884ddee73c7f04cf81a702ba8',
};

export const NATIVE_IMPL = 'node:crypto';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

/** The aes-core backends that can run here, by name. */
export function availableAesBackends(layers: Layers): string[] {
  return layers.aes
    .aesBackends()
    .filter((backend) => backend.available)
    .map((backend) => backend.name);
}

/**
 * Keys and prepares one access pattern outside timing; fn() is one MAC of
 * `msg`. `backend` is the aes-core backend (ignored by 'native').
 */
export function accessPatternInstance(
  layers: Layers,
  pattern: CmacPattern,
  backend: string,
  key: Uint8Array,
  msg: Uint8Array,
): CaseInstance {
  const { aes, cmac } = layers;
  switch (pattern) {
    case 'oneshot': {
      // Keys the cipher and derives the subkeys on every call (EVP_MAC).
      const aesOptions = aesImplOptions(backend);
      const factory = (k: Uint8Array) => aes.createAes(k, aesOptions);
      const probe = checkBackend(factory(key), backend);
      probe.destroy();
      const fn = () => cmac.cmac(key, msg, { aes: factory });
      return { fn, digest: () => hex(fn()), implementation: probe.backend.name };
    }
    case 'preloaded': {
      // One context per key, reused for every packet ("Preload cipher and key.").
      const ctx = new cmac.Cmac(createAesAs(layers, key, backend));
      const fn = () => ctx.mac(msg);
      return { fn, digest: () => hex(fn()), implementation: ctx.backend.name, teardown: () => ctx.destroy() };
    }
    case 'dup': {
      // A keyed template copied per packet (EVP_MAC_CTX_dup), then freed.
      const template = new cmac.Cmac(createAesAs(layers, key, backend));
      const fn = () => {
        const ctx = template.clone();
        const tag = ctx.update(msg).digest();
        ctx.destroy();
        return tag;
      };
      return { fn, digest: () => hex(fn()), implementation: template.backend.name, teardown: () => template.destroy() };
    }
    case 'native': {
      const fn = () => cmac.cmacNative(key, msg);
      return { fn, digest: () => hex(fn()), implementation: NATIVE_IMPL };
    }
  }
}

/**
 * The CMAC peers of packages/peers, listed here so cases() needs no import of
 * them: '@layerbench/peers' is loaded only inside setup(), because some peers
 * need a newer Node than the suites must load on (16).
 */
const PEERS: readonly { name: string; preKeyed: boolean; context: boolean }[] = [
  { name: '@stablelib/cmac', preKeyed: true, context: true },
  { name: '@noble/ciphers', preKeyed: false, context: true },
  { name: 'node-aes-cmac', preKeyed: false, context: false },
  { name: 'node:crypto', preKeyed: true, context: true },
];

async function loadPeer(name: string) {
  const { cmacPeers } = await import('@layerbench/peers');
  const peer = cmacPeers.find((candidate) => candidate.name === name);
  if (peer === undefined) throw new Error(`packages/peers has no CMAC peer named '${name}'`);
  return peer;
}

async function peerInstance(
  name: string,
  pattern: 'oneshot' | 'preloaded',
  key: Uint8Array,
  msg: Uint8Array,
): Promise<CaseInstance> {
  const peer = await loadPeer(name);
  let fn: () => Uint8Array;
  if (pattern === 'oneshot') {
    fn = () => peer.oneShot(key, msg);
  } else {
    if (peer.preKeyed === undefined) throw new Error(`CMAC peer '${name}' has no pre-keyed form`);
    const mac = peer.preKeyed(key);
    fn = () => mac(msg);
  }
  return { fn, digest: () => hex(fn()), implementation: name };
}

const algorithm = (keyBytes: number) => `AES-${keyBytes * 8}`;

function cmacCases(layers: Layers): BenchCase[] {
  const msg = seedPacket(SEED_PACKET_BYTES);
  const backends = availableAesBackends(layers);
  const cases: BenchCase[] = [];
  for (const keyBytes of KEY_SIZES) {
    const key = seedKey(keyBytes);
    const common = {
      algorithm: algorithm(keyBytes),
      keyBytes,
      packetBytes: SEED_PACKET_BYTES,
      macBytes: MAC_BYTES,
    };
    const expectedDigest = SEED_TAGS[`${SEED_PACKET_BYTES}/${keyBytes}`]!;
    const prefix = `cmac/aes-${keyBytes * 8}/pl=${SEED_PACKET_BYTES}`;
    for (const pattern of ['oneshot', 'preloaded', 'dup'] as const) {
      for (const backend of backends) {
        cases.push({
          id: `${prefix}/${pattern}/${backend}`,
          layer: 'cmac',
          params: { ...common, impl: backend, pattern },
          bytesPerOp: SEED_PACKET_BYTES,
          expectedDigest,
          setup: () => accessPatternInstance(layers, pattern, backend, key, msg),
        });
      }
    }
    cases.push({
      id: `${prefix}/native/${NATIVE_IMPL}`,
      layer: 'cmac',
      params: { ...common, impl: NATIVE_IMPL, pattern: 'native' },
      bytesPerOp: SEED_PACKET_BYTES,
      expectedDigest,
      setup: () => accessPatternInstance(layers, 'native', '', key, msg),
    });
    for (const peer of PEERS) {
      for (const pattern of peer.preKeyed ? (['oneshot', 'preloaded'] as const) : (['oneshot'] as const)) {
        cases.push({
          id: `${prefix}/${pattern}/${peer.name}`,
          layer: 'peers',
          params: { ...common, impl: peer.name, pattern, peer: true },
          bytesPerOp: SEED_PACKET_BYTES,
          expectedDigest,
          setup: () => peerInstance(peer.name, pattern, key, msg),
        });
      }
    }
  }
  return cases;
}

/** Bytes per keyed context: "how much memory does a ctx take?" */
export function cmacMemCases(layers: Layers): MemCase[] {
  const cases: MemCase[] = [];
  const backends = availableAesBackends(layers);
  for (const keyBytes of KEY_SIZES) {
    const key = seedKey(keyBytes);
    for (const backend of backends) {
      cases.push({
        id: `cmac/aes-${keyBytes * 8}/preloaded/${backend}`,
        layer: 'cmac',
        params: { algorithm: algorithm(keyBytes), keyBytes, impl: backend, pattern: 'preloaded' },
        create: () => new layers.cmac.Cmac(createAesAs(layers, key, backend)),
      });
    }
  }
  const key = seedKey(16);
  for (const backend of backends) {
    // A clone shares its template's cipher: this is the cost of one more context per key.
    let template: InstanceType<Layers['cmac']['Cmac']> | undefined;
    cases.push({
      id: `cmac/aes-128/dup/${backend}`,
      layer: 'cmac',
      params: { algorithm: 'AES-128', keyBytes: 16, impl: backend, pattern: 'dup' },
      create: () => (template ??= new layers.cmac.Cmac(createAesAs(layers, key, backend))).clone(),
    });
  }
  for (const peer of PEERS.filter((candidate) => candidate.context)) {
    cases.push({
      id: `cmac/aes-128/context/${peer.name}`,
      layer: 'peers',
      params: { algorithm: 'AES-128', keyBytes: 16, impl: peer.name, pattern: 'preloaded', peer: true },
      create: async () => {
        const found = await loadPeer(peer.name);
        if (found.createContext === undefined) throw new Error(`CMAC peer '${peer.name}' has no context object`);
        return found.createContext(key);
      },
    });
  }
  return cases;
}

export const cmacSuite: SuiteDefinition = {
  name: 'cmac',
  description:
    'AES-CMAC access patterns (one-shot, preloaded, dup, native) x aes-core backends x key sizes at PL 48, with the npm CMAC libraries side by side',
  defaultFormat: 'table',
  cases: (layers) => cmacCases(layers),
  memCases: (layers) => cmacMemCases(layers),
};
