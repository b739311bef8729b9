// Every composition the tests run: each aes-core backend and sha1-dispatch
// implementation available here (by name, through esp's default layers), plus
// injected node:crypto doubles, x each pipeline. The injected factories make
// "any BlockCipher / HmacSha1 works" a tested fact, not an assumption.
import { aesBackends } from '@layerbench/aes-core';
import type { BlockCipherFactory } from '@layerbench/aes-core';
import { sha1Implementations } from '@layerbench/sha1-dispatch';
import type { HmacSha1Factory } from '@layerbench/sha1-dispatch';
import type { PipelineName } from '@layerbench/esp';
import { nodeDoubleAes, nodeDoubleHmac } from './layer-doubles.js';

export interface Composition {
  id: string;
  aes: string | BlockCipherFactory;
  sha1: string | HmacSha1Factory;
  pipeline: PipelineName;
}

export function aesLayers(): { name: string; aes: string | BlockCipherFactory }[] {
  const named = aesBackends()
    .filter((b) => b.available)
    .map((b) => ({ name: b.name, aes: b.name }));
  return [...named, { name: 'node-double', aes: nodeDoubleAes }];
}

export function sha1Layers(): { name: string; sha1: string | HmacSha1Factory }[] {
  const named = sha1Implementations()
    .filter((s) => s.available)
    .map((s) => ({ name: s.name, sha1: s.name }));
  return [...named, { name: 'node-double', sha1: nodeDoubleHmac }];
}

export function compositions(): Composition[] {
  const out: Composition[] = [];
  for (const a of aesLayers()) {
    for (const s of sha1Layers()) {
      for (const pipeline of ['split', 'stitched'] as const) {
        out.push({ id: `${a.name}+${s.name}/${pipeline}`, aes: a.aes, sha1: s.sha1, pipeline });
      }
    }
  }
  return out;
}
