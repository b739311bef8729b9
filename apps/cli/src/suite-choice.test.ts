// The suites bisect, check --against and find measure when none is named.
import { describe, expect, it } from 'vitest';
import { loadWorkspaceLayers } from './layers.js';
import {
  chooseSuites,
  DEFAULT_BISECT_SUITES,
  defaultSuites,
  LAYER_OWN_SUITES,
  suitesForChange,
  suitesHolding,
  unnamedOwnSuites,
} from './suite-choice.js';
import { buildCases, layerSuites, suiteByName } from './suites/index.js';

describe('suitesForChange', () => {
  it('adds the own suites of each code layer that differs and the default suites do not cover', () => {
    expect(suitesForChange(['esp'])).toEqual([{ suite: 'esp', why: 'esp differs' }]);
    expect(suitesForChange(['aes-core', 'sha1-dispatch']).map((a) => a.suite)).toEqual(['aes', 'hmac']);
    // cmac's and sha1's own suites are the default; the engine and the runtime have none of their own.
    expect(suitesForChange(['cmac', 'bench-runner', 'runtime'])).toEqual([]);
    expect(suitesForChange([])).toEqual([]);
  });
});

describe("LAYER_OWN_SUITES matches the suites' cases", () => {
  it('each suite named for a layer holds cases of that layer, and every layer with cases has its suites', async () => {
    const layers = await loadWorkspaceLayers();
    for (const [layer, suites] of Object.entries(LAYER_OWN_SUITES)) {
      for (const name of suites) {
        const { cases } = buildCases([suiteByName(name)], layers, {});
        expect(
          cases.some((c) => c.layer === layer),
          `${name} holds ${layer} cases`,
        ).toBe(true);
      }
    }
    const caseLayers = new Set(
      buildCases(layerSuites, layers, { esptestSeconds: 0.01 })
        .cases.map((c) => c.layer)
        .filter((l) => l !== 'peers'),
    );
    expect([...caseLayers].sort()).toEqual(Object.keys(LAYER_OWN_SUITES).sort());
  });
});

describe('suitesHolding', () => {
  it('names the layer suites with a case the filter matches', async () => {
    expect(await suitesHolding('^esp/seal/pl=1400/ct\\+wasm/split$')).toEqual(['esp']);
    expect(await suitesHolding('^hmac/')).toEqual(['hmac']);
    expect(await suitesHolding('^(aes/aes-128/block/table|sha1/64/unrolled)$')).toEqual(['aes', 'sha1']);
    expect(await suitesHolding('^no-such-case$')).toEqual([]);
  });
});

describe('defaultSuites', () => {
  it('says what it added to the default, and why; says nothing for the plain default', async () => {
    const said: string[] = [];
    const suites = await defaultSuites(['esp', 'bench-runner'], '^(esp/|aes/aes-128/block/table$)', (m) =>
      said.push(m),
    );
    expect(suites).toEqual([...DEFAULT_BISECT_SUITES, 'esp', 'aes']);
    expect(said).toEqual([
      'measuring the suites sha1, cmac, esp, aes: added esp (esp differs), aes (it holds cases --filter matches); name --suite to choose',
    ]);
    said.length = 0;
    expect(await defaultSuites(['cmac'], '^cmac/', (m) => said.push(m))).toEqual(DEFAULT_BISECT_SUITES);
    expect(said).toEqual([]);
  });
});

describe('unnamedOwnSuites', () => {
  it('names each differing layer whose own suites --suite leaves out', () => {
    expect(unnamedOwnSuites(['esp', 'cmac', 'runtime'], ['sha1', 'cmac'])).toEqual([
      'esp differs, and its own suite esp is not among --suite sha1, cmac: its change shows only in the named cases that run esp (leave --suite out to measure them all)',
    ]);
    expect(unnamedOwnSuites(['sha1-dispatch'], ['sha1'])[0]).toMatch(
      /^sha1-dispatch differs, and its own suite hmac is not/,
    );
    expect(unnamedOwnSuites(['aes-core'], ['cmac'])[0]).toMatch(/^aes-core differs, and its own suite aes is not/);
    expect(unnamedOwnSuites(['esp', 'bench-runner'], ['esp'])).toEqual([]);
  });
});

describe('chooseSuites', () => {
  it('takes the named suites as they are, saying which differing layer they leave out; else the default', async () => {
    const said: string[] = [];
    expect(await chooseSuites(['sha1'], ['esp', 'sha1-dispatch'], '^esp/', (m) => said.push(m))).toEqual(['sha1']);
    expect(said).toEqual(unnamedOwnSuites(['esp', 'sha1-dispatch'], ['sha1']));
    expect(said).toHaveLength(2);
    said.length = 0;
    expect(await chooseSuites([], ['esp'], undefined, (m) => said.push(m))).toEqual([...DEFAULT_BISECT_SUITES, 'esp']);
    expect(said).toHaveLength(1);
  });
});
