// The sha1 suite: whole-message SHA-1 at 64 B, 1500 B, 16 KiB and 1 MiB by
// every implementation of the sha1-dispatch layer forced in turn, by the
// dispatcher itself (recording which implementation it chose), and by the npm
// peers of packages/peers side by side. Every case's digest is checked against
// node:crypto.
import { createHash } from 'node:crypto';
import type { BenchCase, CaseInstance } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';
import type { SuiteDefinition } from './types.js';

export const SHA1_SIZES = [64, 1500, 16384, 1 << 20] as const;

/** Deterministic message of `size` bytes (msg[i] = (i*i + 0x31) & 0xff). */
export function sha1Message(size: number): Uint8Array {
  const msg = new Uint8Array(size);
  for (let i = 0; i < size; i++) msg[i] = (i * i + 0x31) & 0xff;
  return msg;
}

export const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

/**
 * The SHA-1 peers of packages/peers by id, listed here so cases() needs no import
 * of them: '@layerbench/peers' is loaded only inside setup(), because some
 * peers need a newer Node than the suites must load on (16).
 */
export const SHA1_PEER_IDS = ['noble', 'hash-wasm', 'asmcrypto', 'rusha', 'node-crypto'] as const;

export async function loadSha1Peer(id: string) {
  const { sha1Peers } = await import('@layerbench/peers');
  const peer = sha1Peers.find((candidate) => candidate.id === id);
  if (peer === undefined) throw new Error(`packages/peers has no SHA-1 peer with id '${id}'`);
  await peer.init?.();
  return peer;
}

/** The layer's implementations that can run here. */
export function availableSha1Impls(layers: Layers): string[] {
  return layers.sha1
    .sha1Implementations()
    .filter((impl) => impl.available)
    .map((impl) => impl.name);
}

export const sha1Suite: SuiteDefinition = {
  name: 'sha1',
  description:
    'SHA-1 of 64 B, 1500 B, 16 KiB and 1 MiB: each sha1-dispatch implementation, the dispatcher, and the npm peers',
  defaultFormat: 'speed',
  cases(layers) {
    const { sha1 } = layers;
    const cases: BenchCase[] = [];
    const impls = availableSha1Impls(layers);
    for (const size of SHA1_SIZES) {
      const expectedDigest = createHash('sha1').update(sha1Message(size)).digest('hex');
      const base = { algorithm: 'SHA-1', size };
      for (const impl of impls) {
        cases.push({
          id: `sha1/${size}/${impl}`,
          layer: 'sha1-dispatch',
          params: { ...base, impl },
          bytesPerOp: size,
          expectedDigest,
          setup(): CaseInstance {
            const msg = sha1Message(size);
            const options = { impl };
            const fn = () => sha1.sha1(msg, options);
            return { fn, digest: () => hex(fn()), implementation: impl };
          },
        });
      }
      cases.push({
        id: `sha1/${size}/dispatch`,
        layer: 'sha1-dispatch',
        params: { ...base, impl: 'dispatch' },
        bytesPerOp: size,
        expectedDigest,
        setup(): CaseInstance {
          const msg = sha1Message(size);
          const fn = () => sha1.sha1(msg);
          // What the dispatcher picks for this size: the result records it.
          return { fn, digest: () => hex(fn()), implementation: sha1.dispatch({ size }).impl };
        },
      });
      for (const id of SHA1_PEER_IDS) {
        cases.push({
          id: `sha1/${size}/${id}`,
          layer: 'peers',
          params: { ...base, impl: id, peer: true },
          bytesPerOp: size,
          expectedDigest,
          async setup(): Promise<CaseInstance> {
            const peer = await loadSha1Peer(id);
            const msg = sha1Message(size);
            const fn = () => peer.sha1(msg);
            return { fn, digest: () => hex(fn()), implementation: peer.name };
          },
        });
      }
    }
    return cases;
  },
};
