// The sha1 and hmac suites' cases, set up and run once each (no timing):
// every implementation, the dispatcher and every peer must produce the
// expected digest, with ids and params the reporters rely on.
import { describe, expect, it } from 'vitest';
import { expectEveryCaseDigest } from '../../test/suite-checks.js';
import { loadWorkspaceLayers } from '../layers.js';
import { hmacSuite } from './hmac.js';
import { sha1Suite } from './sha1.js';

const layers = await loadWorkspaceLayers();

for (const suite of [sha1Suite, hmacSuite]) {
  describe(`suite ${suite.name}`, () => {
    const cases = suite.cases(layers, {});
    it('has unique ids, the fixed params and an expected digest', () => {
      expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
      for (const c of cases) {
        expect(c.params.algorithm, c.id).toBe(suite.name === 'sha1' ? 'SHA-1' : 'HMAC-SHA1');
        expect(c.bytesPerOp, c.id).toBe(c.params.size);
        expect(c.expectedDigest, c.id).toMatch(/^[0-9a-f]{40}$/);
        expect(c.params.peer === true, c.id).toBe(c.layer === 'peers');
      }
    });
    it('every case computes its expected digest and names the implementation that ran', async () => {
      await expectEveryCaseDigest(cases, {
        check: (c, instance) => expect(instance.implementation, c.id).toBeTruthy(),
      });
    });
  });
}

describe('sha1 suite', () => {
  it('covers every implementation, the dispatcher and the peers at each size', () => {
    const ids = sha1Suite.cases(layers, {}).map((c) => c.id);
    for (const size of [64, 1500, 16384, 1048576]) {
      for (const impl of [
        'generic',
        'unrolled',
        'wasm',
        'node',
        'dispatch',
        'noble',
        'hash-wasm',
        'asmcrypto',
        'rusha',
        'node-crypto',
      ]) {
        expect(ids).toContain(`sha1/${size}/${impl}`);
      }
    }
  });

  it('the dispatcher case records the implementation chosen for its size', async () => {
    const c = sha1Suite.cases(layers, {}).find((x) => x.id === 'sha1/1048576/dispatch')!;
    expect((await c.setup()).implementation).toBe(layers.sha1.dispatch({ size: 1048576 }).impl);
  });
});

describe('hmac memory cases', () => {
  it('creates a pre-keyed object per implementation and per peer', async () => {
    const mem = hmacSuite.memCases!(layers);
    expect(mem.map((m) => m.id)).toEqual(
      expect.arrayContaining(['hmac/prekeyed/unrolled', 'hmac/prekeyed/wasm', 'hmac/prekeyed/noble']),
    );
    for (const m of mem) expect(await m.create(), m.id).toBeTruthy();
  });
});
