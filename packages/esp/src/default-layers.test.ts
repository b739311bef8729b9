// Layers named by string are built by esp's own aes-core and sha1-dispatch;
// when one of them does not read the option (a layer of another version mixed
// in by a bisection), the SA refuses instead of running something else.
import { afterEach, describe, expect, it, vi } from 'vitest';

const keys = { spi: 0x1000, encKey: new Uint8Array(16), authKey: new Uint8Array(20) };

describe('layers named by string', () => {
  afterEach(() => {
    vi.doUnmock('@layerbench/aes-core');
    vi.doUnmock('@layerbench/sha1-dispatch');
    vi.resetModules();
  });

  it('an aes-core that ignores the backend it is asked for is refused', async () => {
    vi.resetModules();
    vi.doMock('@layerbench/aes-core', async (importOriginal) => {
      const real = await importOriginal<typeof import('@layerbench/aes-core')>();
      return { ...real, createAes: (key: Uint8Array) => real.createAes(key, { impl: 'table' }) };
    });
    const esp = await import('./index.js');
    expect(esp.createEspSa({ ...keys, aes: 'table', sha1: 'generic', pipeline: 'split' }).composition.id).toBe(
      'table+generic/split',
    );
    expect(() => esp.createEspSa({ ...keys, aes: 'ct', sha1: 'generic', pipeline: 'split' })).toThrow(
      expect.objectContaining({
        code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE',
        layer: 'esp',
        message: "esp asked aes-core for 'ct' and got 'table': this aes-core does not read the option",
      }),
    );
  });

  it('a sha1-dispatch that ignores the implementation it is asked for is refused', async () => {
    vi.resetModules();
    vi.doMock('@layerbench/sha1-dispatch', async (importOriginal) => {
      const real = await importOriginal<typeof import('@layerbench/sha1-dispatch')>();
      return {
        ...real,
        createHmacSha1: (key: Uint8Array, o?: { tagLength?: number }) =>
          real.createHmacSha1(key, {
            impl: 'generic',
            ...(o?.tagLength === undefined ? {} : { tagLength: o.tagLength }),
          }),
      };
    });
    const esp = await import('./index.js');
    expect(() => esp.createEspSa({ ...keys, impl: 'table+wasm/split' })).toThrow(
      /esp asked sha1-dispatch for 'wasm' and got 'generic'/,
    );
  });
});
