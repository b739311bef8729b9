import { afterEach, describe, expect, it } from 'vitest';
import { createEspSa, ESP_COMPOSITION_ENV, MEASURED, resetDispatch, resetEspDispatch } from '@layerbench/esp';
import * as root from '@layerbench/esp';
import { forcedComposition, pickComposition } from './testing.js';

describe('default composition', () => {
  const measured = {
    machine: 'test machine',
    date: '2000-01-01',
    command: 'test',
    rows: [
      { aes: 'node', sha1: 'wasm', pipeline: 'split' as const, encryptMbps: 3, encryptDecryptMbps: 2 },
      { aes: 'table', sha1: 'unrolled', pipeline: 'stitched' as const, encryptMbps: 2, encryptDecryptMbps: 1 },
    ],
  };

  it('takes the fastest measured row that runs here, and says why', () => {
    const c = pickComposition(measured, ['table', 'node'], ['unrolled', 'wasm']);
    expect(c).toMatchObject({ aes: 'node', sha1: 'wasm', pipeline: 'split' });
    expect(c.reason).toBe(
      'fastest composition in the measurements shipped with @layerbench/esp (not this run): 3 Mb/s seal, 2 Mb/s seal+open of 1400-byte packets (rank 1 of 2, measured 2000-01-01 on test machine)',
    );
  });

  it('skips rows whose layers cannot run here (no silent use of a missing backend)', () => {
    const c = pickComposition(measured, ['table', 'ct'], ['generic', 'unrolled', 'wasm']);
    expect(c).toMatchObject({ aes: 'table', sha1: 'unrolled', pipeline: 'stitched' });
    expect(c.reason).toMatch(/rank 2 of 2/);
  });

  it('falls back to a fixed preference when no measured row runs, and fails loudly with nothing usable', () => {
    const c = pickComposition(measured, ['ct'], ['generic']);
    expect(c).toMatchObject({ aes: 'ct', sha1: 'generic', pipeline: 'split' });
    expect(c.reason).toMatch(/no measured composition runs here/);
    expect(() => pickComposition(measured, [], ['generic'])).toThrow(/no usable layers/);
  });

  it('prefers ct (WebAssembly) to bitsliced (pure JS) among the constant-time AES backends, and names the order', () => {
    const c = pickComposition(measured, ['bitsliced', 'ct'], ['generic']);
    expect(c).toMatchObject({ aes: 'ct', sha1: 'generic', pipeline: 'split' });
    expect(c.reason).toBe(
      'no measured composition runs here: fixed preference aes node > table > ct > bitsliced, sha1 node > wasm > unrolled > generic',
    );
    expect(pickComposition(measured, ['bitsliced'], ['generic'])).toMatchObject({ aes: 'bitsliced', sha1: 'generic' });
  });

  it('ships measurements: rows sorted fastest seal+open first, with machine, date and command', () => {
    expect(MEASURED.rows.length).toBeGreaterThan(0);
    expect(MEASURED.machine).not.toBe('');
    expect(MEASURED.command).toMatch(/targets\.mjs/);
    for (let i = 1; i < MEASURED.rows.length; i++) {
      expect(MEASURED.rows[i - 1]!.encryptDecryptMbps).toBeGreaterThanOrEqual(MEASURED.rows[i]!.encryptDecryptMbps);
    }
  });
});

describe('forcing the default composition', () => {
  afterEach(() => {
    delete process.env[ESP_COMPOSITION_ENV];
    resetDispatch();
  });

  it('parses aes+sha1/pipeline and refuses what cannot run, naming what can', () => {
    expect(forcedComposition('ct+generic/stitched', ['table', 'ct'], ['generic'])).toEqual({
      aes: 'ct',
      sha1: 'generic',
      pipeline: 'stitched',
      reason: `forced by ${ESP_COMPOSITION_ENV}=ct+generic/stitched`,
    });
    expect(() => forcedComposition('table+wasm', ['table'], ['wasm'])).toThrow(
      /expected <aes backend>\+<sha1 implementation>\/<split\|stitched>/,
    );
    expect(() => forcedComposition('table+wasm/fused', ['table'], ['wasm'])).toThrow(RangeError);
    expect(() => forcedComposition('table+wasm/fused', ['table'], ['wasm'])).toThrow(
      expect.objectContaining({
        code: 'ERR_LAYERBENCH_BAD_ENV_VALUE',
        variable: ESP_COMPOSITION_ENV,
        value: 'table+wasm/fused',
      }),
    );
    expect(() => forcedComposition('node+wasm/split', ['table'], ['wasm'])).toThrow(
      expect.objectContaining({
        name: 'ImplementationError',
        code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE',
        layer: 'esp',
        variable: ESP_COMPOSITION_ENV,
      }),
    );
    expect(() => forcedComposition('node+wasm/split', ['table'], ['wasm'])).toThrow(
      /aes backend 'node' is not available here; available: table/,
    );
    expect(() => forcedComposition('table+node/split', ['table'], ['wasm'])).toThrow(
      /sha1 implementation 'node' is not available here; available: wasm/,
    );
  });

  it('LAYERBENCH_ESP_COMPOSITION drives SAs created without options, and says so', () => {
    process.env[ESP_COMPOSITION_ENV] = 'table+unrolled/stitched';
    resetDispatch();
    const sa = createEspSa({ spi: 0x1000, encKey: new Uint8Array(16), authKey: new Uint8Array(20) });
    expect(sa.composition.id).toBe('table+unrolled/stitched');
    expect(sa.composition.reason).toBe(`forced by ${ESP_COMPOSITION_ENV}=table+unrolled/stitched`);
    expect(sa.open(sa.seal(new Uint8Array(3), 4)).payload.length).toBe(3);
  });

  it('a forced composition that cannot run fails loudly at the first SA', () => {
    process.env[ESP_COMPOSITION_ENV] = 'quantum+wasm/split';
    resetEspDispatch();
    expect(() => createEspSa({ spi: 0x1000, encKey: new Uint8Array(16), authKey: new Uint8Array(20) })).toThrow(
      /aes backend 'quantum' is not available/,
    );
  });
});

describe('the impl option: the whole composition by name', () => {
  const keys = { spi: 0x1000, encKey: new Uint8Array(16), authKey: new Uint8Array(20) };

  it("runs the composition it names, as the caller's choice", () => {
    for (const impl of ['ct+unrolled/stitched', 'bitsliced+generic/split', 'node+node/split']) {
      const sa = createEspSa({ ...keys, impl });
      expect(sa.composition.id).toBe(impl);
      expect(sa.composition.reason).toBe(`chosen by the caller (impl ${impl})`);
      expect(sa.open(sa.seal(new Uint8Array(7), 4)).payload.length).toBe(7);
    }
  });

  it('refuses a malformed name, one that cannot run here, and impl together with its parts', () => {
    expect(() => createEspSa({ ...keys, impl: 'table+wasm' })).toThrow(
      new RangeError(
        "impl 'table+wasm': expected <aes backend>+<sha1 implementation>/<split|stitched>, e.g. table+wasm/split",
      ),
    );
    expect(() => createEspSa({ ...keys, impl: 'aesni+wasm/split' })).toThrow(
      expect.objectContaining({
        code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE',
        variable: undefined,
        message: expect.stringMatching(/^impl 'aesni\+wasm\/split': aes backend 'aesni' is not available here/),
      }),
    );
    expect(() => createEspSa({ ...keys, impl: 'table+wasm/split', pipeline: 'split' })).toThrow(
      new TypeError(
        'createEspSa options: give either impl (the whole composition) or aes, sha1 and pipeline, not both',
      ),
    );
    expect(() => createEspSa({ ...keys, impl: 3 as unknown as string })).toThrow(TypeError);
  });
});

describe('resetDispatch', () => {
  afterEach(() => {
    delete process.env[ESP_COMPOSITION_ENV];
    resetDispatch();
  });

  it('is the one reset name; resetEspDispatch is its deprecated alias; test hooks are off the package root', () => {
    const keys = { spi: 0x1000, encKey: new Uint8Array(16), authKey: new Uint8Array(20) };
    process.env[ESP_COMPOSITION_ENV] = 'table+generic/split';
    resetDispatch();
    expect(createEspSa(keys).composition.id).toBe('table+generic/split');
    process.env[ESP_COMPOSITION_ENV] = 'ct+generic/split';
    expect(createEspSa(keys).composition.id).toBe('table+generic/split');
    resetEspDispatch();
    expect(createEspSa(keys).composition.id).toBe('ct+generic/split');
    expect('pickComposition' in root || 'forcedComposition' in root).toBe(false);
  });
});
