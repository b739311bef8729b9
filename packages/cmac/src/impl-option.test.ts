// createCmac/cmac's `impl` option (aes-core's backend by name), its
// deprecated alias `backend`, and what happens when the aes-core underneath
// does not read the option (a layer of another version mixed in by a
// bisection): the context must run the backend it names or refuse.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aesBackends } from '@layerbench/aes-core';
import { bytesToHex } from '#vectors';
import { cmac, cmacNative, createCmac } from './index.js';

const key = Uint8Array.from({ length: 16 }, (_, i) => (i * i + 0x23) & 0xff);
const packet = Uint8Array.from({ length: 48 }, (_, i) => (i * i + 0x31) & 0xff);
const names = aesBackends()
  .filter((b) => b.available)
  .map((b) => b.name);

describe('impl option', () => {
  it.each(names)('%s: impl and the deprecated backend both select it', (name) => {
    const want = bytesToHex(cmacNative(key, packet));
    for (const options of [{ impl: name }, { backend: name }, { impl: name, backend: name }]) {
      const ctx = createCmac(key, options);
      expect(ctx.backend.name).toBe(name);
      expect(bytesToHex(ctx.mac(packet))).toBe(want);
      ctx.destroy();
      expect(bytesToHex(cmac(key, packet, options))).toBe(want);
    }
  });

  it("refuses impl and backend naming different backends, and unknown names (aes-core's error)", () => {
    expect(() => createCmac(key, { impl: 'table', backend: 'ct' })).toThrow(
      new TypeError(
        "CMAC options: impl 'table' and backend 'ct' (its deprecated alias) name different backends; give impl only",
      ),
    );
    expect(() => cmac(key, packet, { impl: 'aesni' })).toThrow(
      expect.objectContaining({ code: 'ERR_LAYERBENCH_UNKNOWN_IMPL', requested: 'aesni' }),
    );
  });
});

describe('over an aes-core that does not read the option', () => {
  afterEach(() => {
    vi.doUnmock('@layerbench/aes-core');
    vi.resetModules();
  });

  it('throws instead of running another backend than the one named', async () => {
    vi.resetModules();
    vi.doMock('@layerbench/aes-core', async (importOriginal) => {
      const real = await importOriginal<typeof import('@layerbench/aes-core')>();
      // Ignores its options, as an aes-core that knows neither name would.
      return { ...real, createAes: (k: Uint8Array) => real.createAes(k, { impl: 'table' }) };
    });
    const fresh = await import('./index.js');
    expect(fresh.createCmac(key, { impl: 'table' }).backend.name).toBe('table');
    expect(() => fresh.createCmac(key, { impl: 'bitsliced' })).toThrow(
      expect.objectContaining({
        name: 'ImplementationError',
        code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE',
        layer: 'cmac',
        message: "CMAC asked aes-core for backend 'bitsliced' and got 'table': this aes-core does not read the option",
      }),
    );
    expect(() => fresh.cmac(key, packet, { impl: 'bitsliced' })).toThrow(/got 'table'/);
  });
});

describe('describeDispatch', () => {
  it("reports the chaining path of aes-core's default cipher", async () => {
    const { describeDispatch } = await import('./index.js');
    expect(describeDispatch()).toEqual([
      {
        layer: 'cmac',
        decision: 'chaining path',
        impl: 'cbcMacWords',
        reason:
          "aes-core's default cipher (table) has cbcMacWords: a message whose last block is complete is one cipher call",
      },
    ]);
  });
});
