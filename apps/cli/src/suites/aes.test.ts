// The aes suite's cases, set up and run once each (no timing): every backend
// and peer must produce the digest node:crypto gives, and the suite must not
// load the peers before a case's setup (it has to load on Node 16).
import { describe, expect, it } from 'vitest';
import { expectEveryCaseDigest } from '../../test/suite-checks.js';
import { loadWorkspaceLayers } from '../layers.js';
import { AES_PEER_IDS, aesSuite } from './aes.js';

const layers = await loadWorkspaceLayers();

describe('suite aes', () => {
  const cases = aesSuite.cases(layers, {});

  it('has unique ids, the fixed params, and every backend and peer', () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(c.id, c.id).toMatch(/^aes\/aes-(128|192|256)\/(expand|block|cbc-enc\/\d+|cbc-dec\/\d+)\/[a-z-]+$/);
      expect(c.params.algorithm, c.id).toBe(`AES-${c.params.keyBytes! * 8}`);
      expect(c.expectedDigest, c.id).toMatch(/^[0-9a-f]{32}$/);
    }
    const impls = new Set(cases.map((c) => c.params.impl));
    expect(impls).toEqual(new Set(['table', 'ct', 'bitsliced', 'node', ...AES_PEER_IDS]));
    expect(cases.map((c) => c.id)).toContain('aes/aes-128/cbc-enc/16384/table');
    expect(cases.find((c) => c.id === 'aes/aes-128/cbc-dec/1024/noble')?.params).toEqual({
      algorithm: 'AES-128',
      keyBytes: 16,
      size: 1024,
      impl: 'noble',
      pattern: 'cbc-decrypt',
      peer: true,
    });
  });

  it('every case computes its expected digest, before and after a timed call', async () => {
    await expectEveryCaseDigest(cases);
  });

  it('has a memory case per backend and key size, and per peer', async () => {
    const memCases = aesSuite.memCases!(layers);
    expect(memCases.map((m) => m.id)).toContain('aes/aes-128/keyed/table');
    expect(memCases.map((m) => m.id)).toContain('aes/aes-128/keyed/crypto-js');
    for (const m of memCases) expect(await m.create(), m.id).toBeTypeOf('object');
  });
});
