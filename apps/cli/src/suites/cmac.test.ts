// The cmac suites' cases, set up and run once each (no timing): every access
// pattern, backend and peer must produce the expected tag, and the suites
// must have the shape the NTPsec reporter and the mem command rely on.
import { describe, expect, it } from 'vitest';
import { expectEveryCaseDigest } from '../../test/suite-checks.js';
import { loadWorkspaceLayers } from '../layers.js';
import { cmacTimingSuite } from './cmac-timing.js';
import { cmacSuite } from './cmac.js';

const layers = await loadWorkspaceLayers();

for (const suite of [cmacSuite, cmacTimingSuite]) {
  describe(`suite ${suite.name}`, () => {
    const cases = suite.cases(layers, {});
    it('has unique ids and the fixed params', () => {
      expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
      for (const c of cases) {
        expect(c.params.algorithm, c.id).toMatch(/^AES-(128|192|256)$/);
        expect(c.params.macBytes, c.id).toBe(16);
        expect(c.expectedDigest, c.id).toMatch(/^[0-9a-f]{32}$/);
      }
    });
    it('every case computes its expected tag', async () => {
      await expectEveryCaseDigest(cases);
    });
  });
}

describe('cmac-timing sections', () => {
  const cases = cmacTimingSuite.cases(layers, {});
  it('reproduces the seed rows: the preloaded table section, under the seed sentence', () => {
    const preloaded = cases.filter((c) => c.params.section === 'preload/tbl');
    expect(preloaded.map((c) => `${c.params.algorithm} ${c.params.packetBytes}`).slice(0, 3)).toEqual([
      'AES-128 48',
      'AES-192 48',
      'AES-256 48',
    ]);
    expect(new Set(preloaded.map((c) => c.params.impl))).toEqual(new Set(['table']));
    const noted = cases.filter((c) => c.params.sectionNote !== undefined);
    expect(noted.map((c) => c.id)).toEqual(preloaded.map((c) => c.id));
    expect(new Set(noted.map((c) => c.params.sectionNote))).toEqual(new Set(['Preload cipher and key.']));
  });
  it('keeps every section name within the 12 columns of the header', () => {
    for (const c of cases) expect(c.params.section!.length, c.id).toBeLessThanOrEqual(12);
  });
});

describe('cmac memory cases', () => {
  it('creates each kind of context', async () => {
    const memCases = cmacSuite.memCases!(layers);
    const ids = memCases.map((m) => m.id);
    expect(ids).toContain('cmac/aes-128/preloaded/table');
    expect(ids).toContain('cmac/aes-128/dup/table');
    expect(ids).toContain('cmac/aes-128/context/@stablelib/cmac');
    for (const m of memCases) expect(await m.create(), m.id).toBeTypeOf('object');
  });
});
