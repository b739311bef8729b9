// The default-backend choice: LAYERBENCH_AES_BACKEND is read once, at first
// use; forcing an unknown backend fails loudly and names the available ones.
import { afterEach, describe, expect, it, vi } from 'vitest';

type AesModule = typeof import('./index.js');

async function freshModule(): Promise<AesModule> {
  vi.resetModules();
  return import('./index.js');
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('default backend', () => {
  it('is table when the variable is unset, and says why', async () => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', undefined);
    const aes = await freshModule();
    expect(aes.createAes(new Uint8Array(16)).backend.name).toBe('table');
    expect(aes.describeDispatch()).toEqual([
      {
        layer: 'aes-core',
        decision: 'default backend',
        impl: 'table',
        reason: 'fastest available for single blocks and short messages (LAYERBENCH_AES_BACKEND unset)',
      },
    ]);
  });

  it.each(['table', 'ct', 'bitsliced', 'node'])('can be forced to %s', async (name) => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', name);
    const aes = await freshModule();
    expect(aes.createAes(new Uint8Array(24)).backend.name).toBe(name);
    expect(aes.describeDispatch()[0]).toMatchObject({ impl: name, reason: `forced by LAYERBENCH_AES_BACKEND=${name}` });
  });

  it('is read once and remembered until resetDispatch() (or its deprecated name resetAesDispatch())', async () => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', 'ct');
    const aes = await freshModule();
    expect(aes.AES_BACKEND_ENV).toBe('LAYERBENCH_AES_BACKEND');
    expect(aes.createAes(new Uint8Array(16)).backend.name).toBe('ct');
    vi.stubEnv('LAYERBENCH_AES_BACKEND', 'node');
    expect(aes.createAes(new Uint8Array(16)).backend.name).toBe('ct');
    aes.resetDispatch();
    expect(aes.createAes(new Uint8Array(16)).backend.name).toBe('node');
    vi.stubEnv('LAYERBENCH_AES_BACKEND', 'bitsliced');
    aes.resetAesDispatch();
    expect(aes.createAes(new Uint8Array(16)).backend.name).toBe('bitsliced');
  });

  it('an explicit impl option wins over the variable', async () => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', 'ct');
    const aes = await freshModule();
    expect(aes.createAes(new Uint8Array(16), { impl: 'node' }).backend.name).toBe('node');
  });

  it("still reads backend, the option's name before 0.2, and refuses the two naming different backends", async () => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', undefined);
    const aes = await freshModule();
    for (const name of ['table', 'ct', 'bitsliced', 'node']) {
      expect(aes.createAes(new Uint8Array(16), { backend: name }).backend.name).toBe(name);
      expect(aes.createAes(new Uint8Array(16), { impl: name, backend: name }).backend.name).toBe(name);
    }
    expect(() => aes.createAes(new Uint8Array(16), { impl: 'ct', backend: 'node' })).toThrow(
      new TypeError(
        "createAes options: impl 'ct' and backend 'node' (its deprecated alias) name different backends; give impl only",
      ),
    );
    expect(() => aes.createAes(new Uint8Array(16), { backend: 'aesni' })).toThrow(
      /asks for AES backend 'aesni', which does not exist/,
    );
  });

  it('forcing an unknown backend throws, naming it and the available ones', async () => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', 'aesni');
    const aes = await freshModule();
    const message =
      "LAYERBENCH_AES_BACKEND=aesni asks for AES backend 'aesni', which does not exist; available backends: table, ct, bitsliced, node";
    expect(() => aes.createAes(new Uint8Array(16))).toThrow(message);
    expect(() => aes.describeDispatch()).toThrow(message);
    expect(() => aes.createAes(new Uint8Array(16))).toThrow(
      expect.objectContaining({
        name: 'ImplementationError',
        code: 'ERR_LAYERBENCH_UNKNOWN_IMPL',
        layer: 'aes-core',
        requested: 'aesni',
        available: ['table', 'ct', 'bitsliced', 'node'],
        variable: 'LAYERBENCH_AES_BACKEND',
      }),
    );
    // Explicit choices still work: only the default is broken.
    expect(aes.createAes(new Uint8Array(16), { impl: 'table' }).backend.name).toBe('table');
  });

  it('forcing an unavailable backend throws instead of falling back', async () => {
    vi.stubEnv('LAYERBENCH_AES_BACKEND', 'node');
    vi.resetModules();
    vi.doMock('node:crypto', async (importOriginal) => {
      const real = await importOriginal<typeof import('node:crypto')>();
      return { ...real, getCiphers: () => [] };
    });
    try {
      const aes = await import('./index.js');
      expect(aes.aesBackends().find((b) => b.name === 'node')?.available).toBe(false);
      expect(() => aes.createAes(new Uint8Array(16))).toThrow(
        "LAYERBENCH_AES_BACKEND=node asks for AES backend 'node', which is not available here; available backends: table, ct, bitsliced",
      );
      expect(() => aes.createAes(new Uint8Array(16))).toThrow(
        expect.objectContaining({ code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE', variable: 'LAYERBENCH_AES_BACKEND' }),
      );
      // Asked for by an option, not the environment: no variable to blame.
      let optionError: unknown;
      try {
        aes.createAes(new Uint8Array(16), { impl: 'node' });
      } catch (error) {
        optionError = error;
      }
      expect(optionError).toBeInstanceOf(aes.ImplementationError);
      expect(optionError).toMatchObject({ code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE', variable: undefined });
    } finally {
      vi.doUnmock('node:crypto');
    }
  });
});
