// bisect and find run these suites against layers older and newer than the
// workspace's. aes-core's option naming the backend was `backend` before 0.2
// and is `impl` since: a case must run the backend it names with either kind
// of aes-core, report the implementation that ran, and refuse (not measure
// something else) with an aes-core that reads neither name.
import { describe, expect, it } from 'vitest';
import type { CreateAesOptions } from '@layerbench/aes-core';
import { loadWorkspaceLayers, type Layers } from '../layers.js';
import { aesSuite } from './aes.js';
import { cmacSuite } from './cmac.js';
import { espSuite } from './esp.js';

const workspace = await loadWorkspaceLayers();

/** The workspace layers with an aes-core whose createAes reads only what `read` keeps of its options. */
function withAesReading(read: (options: CreateAesOptions | undefined) => CreateAesOptions | undefined): Layers {
  const createAes = (key: Uint8Array, options?: CreateAesOptions) => workspace.aes.createAes(key, read(options));
  return { ...workspace, aes: { ...workspace.aes, createAes } };
}

const aesCores: [string, Layers][] = [
  [
    'an aes-core that reads only backend (before 0.2)',
    withAesReading((o) => (o?.backend === undefined ? undefined : { backend: o.backend })),
  ],
  ['an aes-core that reads only impl', withAesReading((o) => (o?.impl === undefined ? undefined : { impl: o.impl }))],
];
const readsNeither = withAesReading(() => undefined);

// Backends other than the default (table), so ignoring the option would show.
const wanted = (impl: unknown) =>
  impl === 'ct' || impl === 'bitsliced' || (typeof impl === 'string' && /^(ct|bitsliced)\+/.test(impl));

function casesOf(layers: Layers) {
  return [
    ...aesSuite.cases(layers, {}).filter((c) => wanted(c.params.impl)),
    ...cmacSuite.cases(layers, {}).filter((c) => wanted(c.params.impl) && c.params.size !== 4096),
    ...espSuite.cases(layers, {}).filter((c) => wanted(c.params.impl)),
  ];
}

describe('suites over aes-core versions', () => {
  for (const [name, layers] of aesCores) {
    it(`${name}: every case runs and reports the backend it names`, async () => {
      const cases = casesOf(layers);
      expect(cases.length).toBeGreaterThan(20);
      for (const c of cases) {
        const instance = await c.setup();
        expect(instance.implementation, c.id).toBe(c.params.impl);
        expect(instance.digest(), c.id).toBe(c.expectedDigest);
        instance.teardown?.();
      }
    });
  }

  it('an aes-core that reads neither name: every case refuses to set up', async () => {
    const cases = casesOf(readsNeither);
    for (const c of cases) {
      await expect(
        Promise.resolve().then(() => c.setup()),
        c.id,
      ).rejects.toThrow(/asked (aes-core for backend '(ct|bitsliced)' and it ran 'table'|esp for composition)/);
    }
  });
});
