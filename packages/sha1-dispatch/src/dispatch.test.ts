// The dispatcher: environment overrides read once, forcing (and its loud
// failure), capability masking changing the decision and its reason, the
// size-aware whole-message choice and the crossover's source.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '#vectors';
import { applyMeasurements } from './dispatch.js';
import {
  capabilities,
  capabilityWord,
  createHmacSha1,
  createSha1,
  describeDispatch,
  dispatch,
  measureCrossover,
  CAPS_ENV,
  resetDispatch,
  SHA1_CROSSOVER_ENV,
  SHA1_IMPL_ENV,
  sha1,
  ImplementationError,
  Sha1ImplementationError,
  sha1Implementations,
  shippedMeasurements,
} from './index.js';
import * as root from './index.js';
import { resetDispatchForTests } from './testing.js';

afterEach(() => resetDispatchForTests());

const decision = (name: string) => describeDispatch().find((d) => d.decision === name);

describe('capabilities', () => {
  it('reports flags and the word they make, with every bit detected on Node 20', () => {
    resetDispatchForTests({});
    const caps = capabilities();
    expect(caps.flags).toEqual({ wasm: true, simd128: true, nodeCrypto: true, bigint: true });
    expect(caps.word).toBe('0000000f');
    expect(capabilityWord()).toBe('0000000f');
    expect(caps.mask).toBeUndefined();
  });

  it('LAYERBENCH_CAPS masks by name, by ~hex and by hex, like OPENSSL_ia32cap', () => {
    resetDispatchForTests({ LAYERBENCH_CAPS: '~simd128' });
    expect(capabilities()).toMatchObject({ word: '0000000d', detectedWord: '0000000f', mask: '~simd128' });
    expect(capabilities().flags.simd128).toBe(false);
    resetDispatchForTests({ LAYERBENCH_CAPS: '~0x5' });
    expect(capabilityWord()).toBe('0000000a');
    resetDispatchForTests({ LAYERBENCH_CAPS: '00000003' });
    expect(capabilityWord()).toBe('00000003');
    resetDispatchForTests({ LAYERBENCH_CAPS: '~wasm, ~nodeCrypto' });
    expect(capabilityWord()).toBe('0000000a');
  });

  it('unknown capability names throw, naming the known ones', () => {
    resetDispatchForTests({ LAYERBENCH_CAPS: '~avx2' });
    expect(() => capabilities()).toThrow(RangeError);
    expect(() => capabilities()).toThrow(/unknown capability 'avx2'.*wasm, simd128, nodeCrypto, bigint/);
    expect(() => capabilities()).toThrow(
      expect.objectContaining({
        name: 'EnvironmentValueError',
        code: 'ERR_LAYERBENCH_BAD_ENV_VALUE',
        variable: 'LAYERBENCH_CAPS',
        value: '~avx2',
      }),
    );
    resetDispatchForTests({ LAYERBENCH_CAPS: 'wasm' });
    expect(() => capabilities()).toThrow(/cannot add a capability/);
  });
});

describe('resetDispatch', () => {
  afterEach(() => {
    delete process.env[SHA1_IMPL_ENV];
  });

  it('forgets the remembered environment: the next use reads process.env again', () => {
    resetDispatch();
    expect(dispatch({ size: 64 }).impl).not.toBe('generic');
    process.env[SHA1_IMPL_ENV] = 'generic';
    expect(dispatch({ size: 64 }).impl).not.toBe('generic');
    resetDispatch();
    expect(dispatch({ size: 64 })).toEqual({
      impl: 'generic',
      reason: 'size 64 B: forced by LAYERBENCH_SHA1_IMPL=generic',
    });
  });

  it('names every variable it reads; test hooks are not on the package root', () => {
    expect([CAPS_ENV, SHA1_IMPL_ENV, SHA1_CROSSOVER_ENV]).toEqual([
      'LAYERBENCH_CAPS',
      'LAYERBENCH_SHA1_IMPL',
      'LAYERBENCH_SHA1_CROSSOVER',
    ]);
    expect('resetDispatchForTests' in root).toBe(false);
  });
});

describe('forcing', () => {
  it('LAYERBENCH_SHA1_IMPL forces every choice and is reported', () => {
    resetDispatchForTests({ LAYERBENCH_SHA1_IMPL: 'generic' });
    expect(dispatch({ size: 64 })).toEqual({
      impl: 'generic',
      reason: 'size 64 B: forced by LAYERBENCH_SHA1_IMPL=generic',
    });
    expect(dispatch({ size: 1 << 20 }).impl).toBe('generic');
    expect(dispatch().impl).toBe('generic');
    expect(createSha1().impl).toBe('generic');
    expect(createHmacSha1(new Uint8Array(16)).impl).toBe('generic');
    expect(decision('forced')).toMatchObject({
      layer: 'sha1-dispatch',
      impl: 'generic',
      reason: 'LAYERBENCH_SHA1_IMPL=generic',
    });
    expect(decision('block function')?.impl).toBe('generic');
  });

  it('forcing node keeps the block function and says why', () => {
    resetDispatchForTests({ LAYERBENCH_SHA1_IMPL: 'node' });
    expect(dispatch({ size: 10 }).impl).toBe('node');
    expect(createHmacSha1(new Uint8Array(16)).impl).toBe('node');
    expect(decision('block function')?.reason).toMatch(/node has no block function/);
  });

  it('forcing an unknown implementation throws, naming what is available', () => {
    resetDispatchForTests({ LAYERBENCH_SHA1_IMPL: 'avx2' });
    expect(() => sha1(new Uint8Array(1))).toThrow(Sha1ImplementationError);
    expect(() => sha1(new Uint8Array(1))).toThrow(
      /unknown SHA-1 implementation 'avx2'.*available here: generic, unrolled, wasm, node/,
    );
    expect(() => sha1(new Uint8Array(1))).toThrow(
      expect.objectContaining({
        name: 'Sha1ImplementationError',
        code: 'ERR_LAYERBENCH_UNKNOWN_IMPL',
        layer: 'sha1-dispatch',
        requested: 'avx2',
        variable: 'LAYERBENCH_SHA1_IMPL',
      }),
    );
  });

  it('forcing an implementation whose capability is masked throws instead of falling back', () => {
    resetDispatchForTests({ LAYERBENCH_CAPS: '~wasm', LAYERBENCH_SHA1_IMPL: 'wasm' });
    let err: unknown;
    try {
      dispatch();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Sha1ImplementationError);
    expect((err as Sha1ImplementationError).available).toEqual(['generic', 'unrolled', 'node']);
    expect(err).toBeInstanceOf(ImplementationError);
    expect(err).toMatchObject({ code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE', variable: 'LAYERBENCH_SHA1_IMPL' });
    expect((err as Error).message).toMatch(
      /'wasm' is not available here \(capability wasm absent or masked\); available: generic, unrolled, node/,
    );
  });

  it('an explicit impl option that is unavailable throws the same way', () => {
    resetDispatchForTests({ LAYERBENCH_CAPS: '~nodeCrypto' });
    expect(() => sha1(new Uint8Array(3), { impl: 'node' })).toThrow(/'node' is not available here/);
    expect(() => sha1(new Uint8Array(3), { impl: 'node' })).toThrow(
      expect.objectContaining({ code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE', variable: undefined }),
    );
    expect(() => createHmacSha1(new Uint8Array(3), { impl: 'nope' })).toThrow(/unknown SHA-1 implementation 'nope'/);
    expect(sha1Implementations().find((i) => i.name === 'node')).toMatchObject({ available: false, native: true });
  });

  it('reads the environment once, until reset', () => {
    const saved = process.env.LAYERBENCH_SHA1_IMPL;
    try {
      process.env.LAYERBENCH_SHA1_IMPL = 'generic';
      resetDispatchForTests();
      expect(dispatch().impl).toBe('generic');
      process.env.LAYERBENCH_SHA1_IMPL = 'unrolled';
      expect(dispatch().impl).toBe('generic');
      resetDispatchForTests();
      expect(dispatch().impl).toBe('unrolled');
    } finally {
      if (saved === undefined) delete process.env.LAYERBENCH_SHA1_IMPL;
      else process.env.LAYERBENCH_SHA1_IMPL = saved;
    }
  });
});

describe('size-aware whole-message choice', () => {
  it('small messages stay pure, large ones go to node:crypto, at the shipped crossover', () => {
    resetDispatchForTests({});
    const cross = dispatch({ size: 1 << 20 });
    expect(cross.impl).toBe('node');
    const c = describeDispatch().find((d) => d.decision === 'crossover')!;
    expect(c.reason).toMatch(/shipped measurements/);
    const bytes = parseInt(c.impl, 10);
    expect(bytes).toBeGreaterThan(64);
    expect(dispatch({ size: bytes }).impl).toBe('node');
    expect(dispatch({ size: bytes - 1 }).impl).not.toBe('node');
    expect(dispatch({ size: 64 }).impl).not.toBe('node');
    expect(dispatch({ size: 64 }).reason).toMatch(/below the node:crypto crossover/);
    // Whatever ran, the answer is SHA-1.
    for (const size of [0, 64, bytes - 1, bytes, 100000]) {
      const msg = new Uint8Array(size).fill(size & 0xff);
      expect(bytesToHex(sha1(msg))).toBe(createHash('sha1').update(msg).digest('hex'));
    }
  });

  it('LAYERBENCH_SHA1_CROSSOVER moves the crossover and is named as its source', () => {
    resetDispatchForTests({ LAYERBENCH_SHA1_CROSSOVER: '100' });
    expect(dispatch({ size: 99 }).impl).not.toBe('node');
    expect(dispatch({ size: 100 })).toMatchObject({ impl: 'node' });
    expect(dispatch({ size: 100 }).reason).toMatch(/LAYERBENCH_SHA1_CROSSOVER=100/);
    expect(decision('crossover')).toMatchObject({ impl: '100 B', reason: 'LAYERBENCH_SHA1_CROSSOVER=100' });
    resetDispatchForTests({ LAYERBENCH_SHA1_CROSSOVER: '0' });
    expect(dispatch({ size: 0 }).impl).toBe('node');
    expect(
      describeDispatch()
        .filter((d) => d.decision.startsWith('whole message'))
        .map((d) => d.decision),
    ).toEqual(['whole message >= 0 B']);
    resetDispatchForTests({ LAYERBENCH_SHA1_CROSSOVER: 'big' });
    expect(() => dispatch()).toThrow(/LAYERBENCH_SHA1_CROSSOVER must be a whole number of bytes, got 'big'/);
    expect(() => dispatch()).toThrow(
      expect.objectContaining({ code: 'ERR_LAYERBENCH_BAD_ENV_VALUE', variable: 'LAYERBENCH_SHA1_CROSSOVER' }),
    );
  });

  it('masking node:crypto keeps large messages pure and the reason says it was masked', () => {
    resetDispatchForTests({});
    expect(dispatch({ size: 1 << 20 }).impl).toBe('node');
    resetDispatchForTests({ LAYERBENCH_CAPS: '~nodeCrypto' });
    const d = dispatch({ size: 1 << 20 });
    expect(d.impl).not.toBe('node');
    expect(d.reason).toMatch(
      /node unavailable: capability nodeCrypto absent or masked \(LAYERBENCH_CAPS=~nodeCrypto: 0000000f -> 0000000b\)/,
    );
  });

  it('masking wasm moves the block function off wasm and the reason says why', () => {
    resetDispatchForTests({});
    expect(decision('block function')!.impl).toBe('wasm');
    expect(dispatch().impl).toMatch(/wasm/);
    resetDispatchForTests({ LAYERBENCH_CAPS: '~wasm' });
    const d = dispatch();
    expect(d.impl).toBe('unrolled');
    expect(d.reason).toMatch(/wasm unavailable: capability wasm absent or masked \(LAYERBENCH_CAPS=~wasm/);
    expect(decision('block function')!.impl).toBe('unrolled');
    expect(decision('capabilities')).toMatchObject({
      impl: '0000000e',
      reason: 'detected 0000000f, masked by LAYERBENCH_CAPS=~wasm',
    });
    expect(createHmacSha1(new Uint8Array(16)).impl).toBe('unrolled');
  });

  it('dispatch rejects a bad size', () => {
    expect(() => dispatch({ size: -1 })).toThrow(RangeError);
    expect(() => dispatch({ size: 1.5 })).toThrow(RangeError);
  });
});

describe('streams and HMAC', () => {
  it('split runs between the fastest small-size and the fastest block function, and say so', () => {
    resetDispatchForTests({});
    const d = dispatch();
    const stream = decision('streaming and HMAC (size unknown)')!;
    expect(stream.impl).toBe(d.impl);
    expect(createSha1().impl).toBe(d.impl);
    expect(createHmacSha1(new Uint8Array(16)).impl).toBe(d.impl);
    if (d.impl.includes('+'))
      expect(stream.reason).toMatch(/runs of < \d+ blocks \(and tails < \d+ B\) -> \w+, longer -> \w+/);
    // Whatever the split, streamed output is SHA-1.
    const msg = new Uint8Array(5000).map((_, i) => i * 13);
    const h = createSha1();
    for (let off = 0; off < msg.length; off += 70) h.update(msg.subarray(off, off + 70));
    expect(bytesToHex(h.digest())).toBe(createHash('sha1').update(msg).digest('hex'));
  });
});

describe('decisions from figures', () => {
  // Synthetic figures: unrolled 100 ns + 1.6 ns/B, wasm 200 ns + 1.3 ns/B, node 1000 ns + 0.55 ns/B.
  const line = (impl: 'unrolled' | 'wasm' | 'node' | 'generic', fixed: number, perByte: number) =>
    [64, 256, 1024, 4096, 16384].map((size) => ({ size, impl, nsPerOp: fixed + perByte * size }));
  const figures = {
    crossover: 0,
    machine: 'synthetic',
    clock: 'wall time' as const,
    date: '2026-01-01',
    command: 'test',
    rows: [
      ...line('generic', 300, 10),
      ...line('unrolled', 100, 1.6),
      ...line('wasm', 200, 1.3),
      ...line('node', 1000, 0.55),
    ],
  };

  it('bands, block function, run-length split and crossover follow where the fitted lines cross', () => {
    resetDispatchForTests({});
    applyMeasurements(figures);
    expect(dispatch({ size: 333 }).impl).toBe('unrolled');
    expect(dispatch({ size: 334 }).impl).toBe('wasm');
    expect(dispatch({ size: 1066 }).impl).toBe('wasm');
    expect(dispatch({ size: 1067 }).impl).toBe('node');
    expect(decision('crossover')).toMatchObject({ impl: '1067 B' });
    expect(decision('crossover')!.reason).toMatch(
      /measured on this machine 2026-01-01; fit .*node 1000 ns \+ 0\.550 ns\/B/,
    );
    expect(decision('block function')!.impl).toBe('wasm');
    expect(dispatch()).toMatchObject({ impl: 'unrolled+wasm' });
    expect(dispatch().reason).toMatch(
      /runs of < 6 blocks \(and tails < 384 B\) -> unrolled, longer -> wasm: the whole-message lines cross at 334 B/,
    );
  });

  it('blockDataOrder-call figures, when present, decide the streaming split', () => {
    resetDispatchForTests({});
    // One-block calls: unrolled 10 ns + 1.6 ns/B, wasm 90 ns + 1.2 ns/B: they cross at 200 B.
    const runs = [64, 128, 256, 512, 1024].flatMap((size) => [
      { size, impl: 'unrolled' as const, nsPerOp: 10 + 1.6 * size },
      { size, impl: 'wasm' as const, nsPerOp: 90 + 1.2 * size },
    ]);
    applyMeasurements({ ...figures, blockRuns: runs });
    expect(dispatch().impl).toBe('unrolled+wasm');
    expect(dispatch().reason).toMatch(
      /runs of < 4 blocks \(and tails < 256 B\) -> unrolled, longer -> wasm: the blockDataOrder-call lines cross at 200 B/,
    );
    // Whole messages still follow the whole-message lines.
    expect(dispatch({ size: 334 }).impl).toBe('wasm');
  });

  it('with wasm masked the same figures give unrolled everywhere below node', () => {
    resetDispatchForTests({ LAYERBENCH_CAPS: '~wasm' });
    applyMeasurements(figures);
    expect(dispatch({ size: 857 }).impl).toBe('unrolled');
    expect(dispatch({ size: 858 }).impl).toBe('node');
    expect(decision('crossover')!.impl).toBe(`${Math.ceil(900 / 1.05)} B`);
    expect(dispatch().impl).toBe('unrolled');
  });
});

describe('describeDispatch', () => {
  it('lists every decision with layer sha1-dispatch, and whole-message ranges that cover every size', () => {
    resetDispatchForTests({});
    const all = describeDispatch();
    expect(all.every((d) => d.layer === 'sha1-dispatch' && d.reason.length > 0)).toBe(true);
    const names = all.map((d) => d.decision);
    expect(names).toContain('capabilities');
    expect(names).toContain('block function');
    expect(names).toContain('crossover');
    const ranges = all.filter((d) => d.decision.startsWith('whole message'));
    expect(ranges[0]!.decision).toMatch(/^whole message 0\.\./);
    expect(ranges[ranges.length - 1]!.decision).toMatch(/^whole message >= \d+ B$/);
  });
});

describe('measureCrossover', () => {
  it('re-measures on this machine and, applied, becomes the crossover source', () => {
    resetDispatchForTests({});
    const m = measureCrossover({ sizes: [64, 65536], msPerPoint: 5, apply: true });
    expect(m.rows.length).toBe(2 * 3); // unrolled, wasm, node at two sizes
    expect(m.rows.every((r) => r.nsPerOp > 0)).toBe(true);
    expect(m.machine).toMatch(/Node v/);
    expect(decision('crossover')!.reason).toMatch(/measured on this machine/);
    expect(m.blockRuns!.map((r) => `${r.size}/${r.impl}`)).toEqual(
      [1, 2, 3, 4, 6, 8, 16, 32].flatMap((n) => [`${n * 64}/unrolled`, `${n * 64}/wasm`]),
    );
    expect(m.blockRuns!.every((r) => r.nsPerOp > 0)).toBe(true);
    expect(shippedMeasurements.rows.length).toBeGreaterThan(0);
    expect(() => measureCrossover({ sizes: [-1] })).toThrow(RangeError);
  });
});
