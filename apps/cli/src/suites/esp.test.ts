// The esp and esptest suites' cases, set up and run once each (no timing):
// every composition and every peer must produce the digest of the packet
// node:crypto builds for the esptest workload, with the ids and params the
// reporters rely on.
import { describe, expect, it } from 'vitest';
import { expectEveryCaseDigest } from '../../test/suite-checks.js';
import { loadWorkspaceLayers } from '../layers.js';
import { espCompositions, espSuite } from './esp.js';
import { esptestSuite } from './esptest.js';

const layers = await loadWorkspaceLayers();

describe('esp suite', () => {
  const cases = espSuite.cases(layers, {});

  it('has every composition and every peer for both operations, with unique ids', () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const compositions = espCompositions(layers);
    expect(compositions.length).toBeGreaterThanOrEqual(2 * 2 * 2);
    for (const op of ['encrypt', 'encrypt+decrypt']) {
      const ofOp = cases.filter((c) => c.params.op === op);
      expect(ofOp.filter((c) => c.params.peer !== true).length).toBe(compositions.length);
      expect(ofOp.filter((c) => c.params.peer === true).map((c) => c.params.impl)).toEqual([
        'node:crypto per packet',
        '@noble/ciphers+@noble/hashes',
        'asmcrypto.js+hash-wasm',
      ]);
    }
    for (const c of cases) {
      expect(c.bytesPerOp, c.id).toBe(1400);
      expect(c.params.packetBytes, c.id).toBe(1400);
      expect(c.expectedDigest, c.id).toMatch(/^[0-9a-f]{64}$/);
      expect(c.params.peer === true, c.id).toBe(c.layer === 'peers');
    }
  });

  it('every case computes the expected digest before and after a timed call', async () => {
    await expectEveryCaseDigest(cases, {
      timedCalls: 2,
      check: (c, instance) => expect(instance.implementation, c.id).toBe(c.params.impl),
    });
  });

  it('has one memory case per composition, each creating a working SA', async () => {
    const mem = espSuite.memCases!(layers);
    expect(mem.length).toBe(espCompositions(layers).length);
    const sa = (await mem[0]!.create()) as { seal(p: Uint8Array, n: number): Uint8Array };
    expect(sa.seal(new Uint8Array(10), 4).length).toBe(8 + 16 + 16 + 12);
  });
});

describe('esptest suite', () => {
  it('is the seed workload: two fixed-time cases of the default composition', async () => {
    const cases = esptestSuite.cases(layers, { esptestSeconds: 3 });
    expect(esptestSuite.defaultFormat).toBe('esptest');
    expect(cases.map((c) => c.params.op)).toEqual(['encrypt', 'encrypt+decrypt']);
    const best = layers.esp.defaultComposition();
    for (const c of cases) {
      expect(c.fixedTimeSeconds).toBe(3);
      expect(c.bytesPerOp).toBe(1400);
      expect(c.params.impl).toBe(`${best.aes}+${best.sha1}/${best.pipeline}`);
      const instance = await c.setup();
      expect(instance.digest()).toBe(c.expectedDigest);
    }
    expect(esptestSuite.cases(layers, {})[0]!.fixedTimeSeconds).toBe(5);
  });
});
