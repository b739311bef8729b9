// The hmac suite: HMAC-SHA1 of 64 B and 1400 B (an ESP packet) with a 20-byte
// key. Pre-keyed (one keyed object per key, mac() per message) for each
// sha1-dispatch implementation and the dispatcher; one-shot (key set-up per
// message) through the dispatcher; node:crypto's createHmac per message; and
// the npm peers, pre-keyed where the library can be. Memory cases: one
// pre-keyed object per implementation and per peer.
import { createHmac } from 'node:crypto';
import type { BenchCase, CaseInstance, MemCase } from '@layerbench/bench-runner';
import { availableSha1Impls, hex, loadSha1Peer, sha1Message } from './sha1.js';
import type { SuiteDefinition } from './types.js';

export const HMAC_SIZES = [64, 1400] as const;
const KEY_BYTES = 20;
const hmacKey = (): Uint8Array => Uint8Array.from({ length: KEY_BYTES }, (_, i) => (i * i + 0x23) & 0xff);

/** Peers by id, with the forms they offer (node:crypto has no pre-keyed HMAC: createHmac per message is its form). */
const HMAC_PEERS: readonly { id: string; oneshot: boolean; prekeyed: boolean }[] = [
  { id: 'noble', oneshot: true, prekeyed: true },
  { id: 'hash-wasm', oneshot: false, prekeyed: true },
  { id: 'asmcrypto', oneshot: true, prekeyed: true },
  { id: 'node-crypto', oneshot: true, prekeyed: false },
];

export const hmacSuite: SuiteDefinition = {
  name: 'hmac',
  description:
    'HMAC-SHA1 of 64 B and 1400 B: pre-keyed per sha1-dispatch implementation, one-shot, node:crypto per message, npm peers',
  defaultFormat: 'table',
  cases(layers) {
    const { sha1 } = layers;
    const cases: BenchCase[] = [];
    const impls = availableSha1Impls(layers);
    for (const size of HMAC_SIZES) {
      const expectedDigest = createHmac('sha1', hmacKey()).update(sha1Message(size)).digest('hex');
      const base = { algorithm: 'HMAC-SHA1', size, keyBytes: KEY_BYTES, macBytes: 20 };
      const ours = (pattern: 'prekeyed' | 'oneshot', impl: string | undefined): BenchCase => ({
        id: `hmac/${size}/${pattern}/${impl ?? 'dispatch'}`,
        layer: 'sha1-dispatch',
        params: { ...base, pattern, impl: impl ?? 'dispatch' },
        bytesPerOp: size,
        expectedDigest,
        setup(): CaseInstance {
          const key = hmacKey();
          const msg = sha1Message(size);
          const options = impl === undefined ? {} : { impl };
          if (pattern === 'oneshot') {
            const fn = () => sha1.hmacSha1(key, msg, options);
            return { fn, digest: () => hex(fn()), implementation: sha1.createHmacSha1(key, options).impl };
          }
          const h = sha1.createHmacSha1(key, options);
          const fn = () => h.mac(msg);
          return { fn, digest: () => hex(fn()), implementation: h.impl, teardown: () => h.destroy() };
        },
      });
      for (const impl of impls) cases.push(ours('prekeyed', impl));
      cases.push(ours('prekeyed', undefined));
      cases.push(ours('oneshot', undefined));
      for (const peer of HMAC_PEERS) {
        for (const pattern of ['oneshot', 'prekeyed'] as const) {
          if (!peer[pattern]) continue;
          cases.push({
            id: `hmac/${size}/${pattern}/${peer.id}`,
            layer: 'peers',
            params: { ...base, pattern, impl: peer.id, peer: true },
            bytesPerOp: size,
            expectedDigest,
            async setup(): Promise<CaseInstance> {
              const p = await loadSha1Peer(peer.id);
              const key = hmacKey();
              const msg = sha1Message(size);
              let fn: () => Uint8Array;
              if (pattern === 'oneshot') {
                const oneShot = p.hmacSha1;
                if (oneShot === undefined) throw new Error(`peer ${p.name} has no one-shot HMAC`);
                fn = () => oneShot(key, msg);
              } else {
                const keyed = await p.createHmacSha1?.(key);
                if (keyed === undefined) throw new Error(`peer ${p.name} has no pre-keyed HMAC`);
                fn = () => keyed(msg);
              }
              return { fn, digest: () => hex(fn()), implementation: p.name };
            },
          });
        }
      }
    }
    return cases;
  },
  memCases(layers): MemCase[] {
    const { sha1 } = layers;
    const base = { algorithm: 'HMAC-SHA1', keyBytes: KEY_BYTES, pattern: 'prekeyed' };
    const mem: MemCase[] = availableSha1Impls(layers).map((impl) => ({
      id: `hmac/prekeyed/${impl}`,
      layer: 'sha1-dispatch',
      params: { ...base, impl },
      create: () => sha1.createHmacSha1(hmacKey(), { impl }),
    }));
    for (const peer of HMAC_PEERS.filter((p) => p.prekeyed)) {
      mem.push({
        id: `hmac/prekeyed/${peer.id}`,
        layer: 'peers',
        params: { ...base, impl: peer.id, peer: true },
        create: async () => (await loadSha1Peer(peer.id)).createHmacSha1!(hmacKey()),
      });
    }
    return mem;
  },
};
