// The aes suite: key expansion alone, one pre-keyed block, and CBC encrypt /
// decrypt at 16 B, 1 KiB and 16 KiB, by every aes-core backend forced in turn
// (AES-128; key expansion and one block also at AES-192/256) and, side by
// side in the same run, by the npm peers of packages/peers (AES-128). Every
// case's output is hashed outside timing and checked against node:crypto.
import { createCipheriv, createHash } from 'node:crypto';
import type { BenchCase, CaseInstance, MemCase } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';
import { aesImplOptions, checkBackend, createAesAs } from './aes-impl.js';
import type { SuiteDefinition } from './types.js';

export const AES_CBC_SIZES = [16, 1024, 16384] as const;
const KEY_SIZES = [16, 24, 32] as const;

/**
 * The AES peers of packages/peers by id, listed here so cases() needs no import
 * of them: '@layerbench/peers' is loaded only inside setup(), because the
 * suites must load on Node 16, where some peers cannot.
 */
export const AES_PEER_IDS = ['noble', 'stablelib', 'aes-js', 'crypto-js'] as const;

async function loadAesPeer(id: string) {
  const { aesPeers } = await import('@layerbench/peers');
  const peer = aesPeers.find((candidate) => candidate.id === id);
  if (peer === undefined) throw new Error(`packages/peers has no AES peer with id '${id}'`);
  return peer;
}

/** Deterministic inputs: key bytes k[i] = 0x2b + 7i, IV iv[i] = 0xa0 + i, data d[i] = (i*i + 0x5c) & 0xff. */
const aesKey = (keyBytes: number) => Uint8Array.from({ length: keyBytes }, (_, i) => (0x2b + 7 * i) & 0xff);
const aesIv = () => Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);
const aesData = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * i + 0x5c) & 0xff);

/** The digest recorded for every case: the first 16 bytes of SHA-256 of the output, hex. */
const outputDigest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

function referenceCbcEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const c = createCipheriv(`aes-${key.length * 8}-cbc`, key, iv).setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

const algorithmOf = (keyBytes: number) => `AES-${keyBytes * 8}`;

type Pattern = 'key-expansion' | 'block-encrypt' | 'cbc-encrypt' | 'cbc-decrypt';
const shortPattern: Record<Pattern, string> = {
  'key-expansion': 'expand',
  'block-encrypt': 'block',
  'cbc-encrypt': 'cbc-enc',
  'cbc-decrypt': 'cbc-dec',
};

interface CaseShape {
  keyBytes: number;
  pattern: Pattern;
  size: number;
}

function caseShapes(keySizes: readonly number[]): CaseShape[] {
  const shapes: CaseShape[] = [];
  for (const keyBytes of keySizes) {
    shapes.push({ keyBytes, pattern: 'key-expansion', size: 16 }, { keyBytes, pattern: 'block-encrypt', size: 16 });
    if (keyBytes !== 16) continue;
    for (const pattern of ['cbc-encrypt', 'cbc-decrypt'] as const) {
      for (const size of AES_CBC_SIZES) shapes.push({ keyBytes, pattern, size });
    }
  }
  return shapes;
}

/** What a case computes, as the expected digest (node:crypto is the reference). */
function expectedDigestOf({ keyBytes, pattern, size }: CaseShape): string {
  const key = aesKey(keyBytes);
  if (pattern === 'cbc-decrypt') return outputDigest(aesData(size));
  if (pattern === 'cbc-encrypt') return outputDigest(referenceCbcEncrypt(key, aesIv(), aesData(size)));
  // key-expansion and block-encrypt: one block of data under the key (ECB = CBC with a zero IV).
  return outputDigest(referenceCbcEncrypt(key, new Uint8Array(16), aesData(16)));
}

function baseCase(shape: CaseShape, impl: string, peer: boolean): Omit<BenchCase, 'setup'> {
  const { keyBytes, pattern, size } = shape;
  const sizePart = pattern === 'key-expansion' || pattern === 'block-encrypt' ? '' : `/${size}`;
  return {
    id: `aes/aes-${keyBytes * 8}/${shortPattern[pattern]}${sizePart}/${impl}`,
    layer: peer ? 'peers' : 'aes-core',
    params: { algorithm: algorithmOf(keyBytes), keyBytes, size, impl, pattern, ...(peer ? { peer: true } : {}) },
    ...(pattern === 'key-expansion' ? {} : { bytesPerOp: size }),
    expectedDigest: expectedDigestOf(shape),
  };
}

function backendCase(layers: Layers, backend: string, shape: CaseShape): BenchCase {
  const { keyBytes, pattern, size } = shape;
  return {
    ...baseCase(shape, backend, false),
    setup(): CaseInstance {
      const { createAes } = layers.aes;
      const key = aesKey(keyBytes);
      const iv = aesIv();
      const block = aesData(16);
      const out = new Uint8Array(size);
      if (pattern === 'key-expansion') {
        const options = aesImplOptions(backend);
        let cipher = checkBackend(createAes(key, options), backend);
        const fn = () => (cipher = createAes(key, options));
        // The digest proves the last schedule built is right: it encrypts one block.
        return {
          fn,
          digest: () => {
            cipher.encryptBlock(block, out);
            return outputDigest(out);
          },
          implementation: cipher.backend.name,
        };
      }
      const cipher = createAesAs(layers, key, backend);
      if (pattern === 'block-encrypt') {
        const fn = () => cipher.encryptBlock(block, out);
        return {
          fn,
          digest: () => {
            fn();
            return outputDigest(out);
          },
          implementation: cipher.backend.name,
        };
      }
      const data = aesData(size);
      const input = pattern === 'cbc-encrypt' ? data : referenceCbcEncrypt(key, iv, data);
      const fn =
        pattern === 'cbc-encrypt' ? () => cipher.cbcEncrypt(iv, input, out) : () => cipher.cbcDecrypt(iv, input, out);
      return {
        fn,
        digest: () => outputDigest(fn()),
        implementation: cipher.backend.name,
        teardown: () => cipher.destroy(),
      };
    },
  };
}

function peerCase(id: string, shape: CaseShape): BenchCase {
  const { keyBytes, pattern, size } = shape;
  return {
    ...baseCase(shape, id, true),
    async setup(): Promise<CaseInstance> {
      const peer = await loadAesPeer(id);
      const key = aesKey(keyBytes);
      const iv = aesIv();
      const block = aesData(16);
      const out = new Uint8Array(16);
      if (pattern === 'key-expansion') {
        const fn = () => peer.expandKey(key);
        // The peer's keyed object has no common shape; its block path proves the key is handled right.
        return {
          fn,
          digest: () => {
            peer.createBlockEncrypt(key)(block, out);
            return outputDigest(out);
          },
          implementation: peer.name,
        };
      }
      if (pattern === 'block-encrypt') {
        const encrypt = peer.createBlockEncrypt(key);
        const fn = () => encrypt(block, out);
        return {
          fn,
          digest: () => {
            fn();
            return outputDigest(out);
          },
          implementation: peer.name,
        };
      }
      const data = aesData(size);
      const fn =
        pattern === 'cbc-encrypt'
          ? () => peer.cbcEncrypt(key, iv, data)
          : (
              (ct) => () =>
                peer.cbcDecrypt(key, iv, ct)
            )(referenceCbcEncrypt(key, iv, data));
      return { fn, digest: () => outputDigest(fn()), implementation: peer.name };
    },
  };
}

function availableBackends(layers: Layers): string[] {
  return layers.aes
    .aesBackends()
    .filter((b) => b.available)
    .map((b) => b.name);
}

function aesMemCases(layers: Layers): MemCase[] {
  const cases: MemCase[] = [];
  for (const backend of availableBackends(layers)) {
    for (const keyBytes of KEY_SIZES) {
      cases.push({
        id: `aes/aes-${keyBytes * 8}/keyed/${backend}`,
        layer: 'aes-core',
        params: { algorithm: algorithmOf(keyBytes), keyBytes, impl: backend, pattern: 'keyed' },
        create: () => createAesAs(layers, aesKey(keyBytes), backend),
      });
    }
    // Decryption schedules are built on first use: what a cipher costs once it has decrypted.
    cases.push({
      id: `aes/aes-128/keyed-after-decrypt/${backend}`,
      layer: 'aes-core',
      params: { algorithm: 'AES-128', keyBytes: 16, impl: backend, pattern: 'keyed-after-decrypt' },
      create: () => {
        const cipher = createAesAs(layers, aesKey(16), backend);
        const block = new Uint8Array(16);
        cipher.decryptBlock(block, block);
        return cipher;
      },
    });
  }
  for (const id of AES_PEER_IDS) {
    cases.push({
      id: `aes/aes-128/keyed/${id}`,
      layer: 'peers',
      params: { algorithm: 'AES-128', keyBytes: 16, impl: id, pattern: 'keyed', peer: true },
      create: async () => (await loadAesPeer(id)).expandKey(aesKey(16)),
    });
  }
  return cases;
}

export const aesSuite: SuiteDefinition = {
  name: 'aes',
  description:
    'AES key expansion, one pre-keyed block, CBC encrypt/decrypt at 16 B, 1 KiB, 16 KiB: each aes-core backend and the npm peers',
  defaultFormat: 'table',
  cases(layers) {
    const cases: BenchCase[] = [];
    for (const shape of caseShapes(KEY_SIZES)) {
      for (const backend of availableBackends(layers)) cases.push(backendCase(layers, backend, shape));
      if (shape.keyBytes === 16) for (const id of AES_PEER_IDS) cases.push(peerCase(id, shape));
    }
    return cases;
  },
  memCases: (layers) => aesMemCases(layers),
};
