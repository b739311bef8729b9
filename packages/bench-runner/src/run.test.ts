import { describe, expect, it } from 'vitest';
import { consecutiveMedians, runCases } from './run.js';
import { referenceWorkName, stateProbeWork, stateProbeWorkName } from './reference.js';
import { formatTable } from './reporters/table.js';
import type { BenchCase, CaseResult, RunResult } from './types.js';

function counterCase(id: string, extra: Partial<BenchCase> = {}): BenchCase {
  return {
    id,
    layer: 'test',
    params: { algorithm: 'XOR' },
    setup() {
      let x = 1;
      return { fn: () => (x = (x * 1103515245 + 12345) | 0), digest: () => 'c0ffee' };
    },
    ...extra,
  };
}

const fast = { timePerCase: 0.02, overhead: false, quiet: true } as const;

describe('runCases', () => {
  it('isolates failures: throwing setup, throwing fn, throwing digest and wrong digest fail alone', async () => {
    const cases: BenchCase[] = [
      counterCase('first'),
      {
        id: 'setup-throws',
        layer: 'test',
        params: {},
        setup: () => {
          throw new RangeError('no key');
        },
      },
      {
        id: 'fn-throws',
        layer: 'test',
        params: {},
        setup: () => ({
          fn: () => {
            throw new Error('fn broke');
          },
          digest: () => '00',
        }),
      },
      {
        id: 'digest-throws',
        layer: 'test',
        params: {},
        setup: () => ({
          fn: () => 1,
          digest: () => {
            throw new TypeError('no digest');
          },
        }),
      },
      counterCase('wrong-digest', { expectedDigest: 'deadbeef' }),
      counterCase('right-digest', { expectedDigest: 'C0FFEE' }),
      {
        id: 'async-setup-rejects',
        layer: 'test',
        params: {},
        setup: async () => {
          throw new Error('later');
        },
      },
      counterCase('last'),
    ];
    const run = await runCases(cases, fast);
    const byId = new Map(run.cases.map((c) => [c.id, c]));
    expect(run.cases.map((c) => c.id)).toEqual(cases.map((c) => c.id));
    expect(byId.get('setup-throws')!.error).toEqual({ name: 'RangeError', message: 'no key' });
    expect(byId.get('fn-throws')!.error).toEqual({ name: 'Error', message: 'fn broke' });
    expect(byId.get('digest-throws')!.error).toEqual({ name: 'TypeError', message: 'no digest' });
    expect(byId.get('async-setup-rejects')!.status).toBe('failed');
    const wrong = byId.get('wrong-digest')!;
    expect(wrong.status).toBe('failed');
    expect(wrong.digestOk).toBe(false);
    expect(wrong.digest).toBe('c0ffee');
    expect(wrong.error!.name).toBe('DigestMismatchError');
    expect(wrong.samples).toEqual([]);
    const right = byId.get('right-digest')!;
    expect(right.status).toBe('ok');
    expect(right.digestOk).toBe(true);
    for (const id of ['first', 'right-digest', 'last']) {
      const c = byId.get(id)!;
      expect(c.status).toBe('ok');
      expect(c.samples.length).toBeGreaterThanOrEqual(8);
      expect(c.stats!.n).toBe(c.samples.length);
      expect(c.stats!.median).toBeGreaterThan(0);
    }
    expect(run.interrupted).toBeUndefined();
    expect(byId.get('first')!.sliceMedians).toHaveLength(10);
    expect(byId.get('wrong-digest')!.sliceMedians).toBeUndefined();
  });

  it('measures in the requested number of slices; fixed-time loops are split in time order', async () => {
    const run = await runCases([counterCase('s'), counterCase('f', { fixedTimeSeconds: 0.02 })], {
      ...fast,
      slices: 4,
    });
    expect(run.cases[0]!.sliceMedians).toHaveLength(4);
    expect(run.cases[1]!.sliceMedians!.length).toBeLessThanOrEqual(4);
    await expect(runCases([counterCase('x')], { ...fast, slices: 0 })).rejects.toThrow(RangeError);
  });

  it('consecutiveMedians splits in order', () => {
    expect(consecutiveMedians([1, 2, 3, 10, 20, 30, 7], 3)).toEqual([1.5, 6.5, 20]); // groups [1,2] [3,10] [20,30,7];
    expect(consecutiveMedians([5], 10)).toEqual([5]);
  });

  it('fails a case whose digest changes between runs (fn is not repeatable)', async () => {
    let calls = 0;
    const run = await runCases(
      [{ id: 'drifts', layer: 'test', params: {}, setup: () => ({ fn: () => calls++, digest: () => String(calls) }) }],
      fast,
    );
    expect(run.cases[0]!.status).toBe('failed');
    expect(run.cases[0]!.error!.message).toContain('digest changed while timing');
  });

  it('records the implementation, runs teardown, and keeps params and bytes', async () => {
    let tornDown = 0;
    const run = await runCases(
      [
        {
          id: 'impl',
          layer: 'sha1-dispatch',
          params: { algorithm: 'SHA-1', size: 64 },
          bytesPerOp: 64,
          setup: () => ({
            fn: () => 1,
            digest: () => 'ab',
            implementation: 'unrolled',
            teardown: () => void tornDown++,
          }),
        },
      ],
      fast,
    );
    const c = run.cases[0]!;
    expect(c.implementation).toBe('unrolled');
    expect(c.bytesPerOp).toBe(64);
    expect(c.params).toEqual({ algorithm: 'SHA-1', size: 64 });
    expect(c.stats!.mbPerSec).toBeGreaterThan(0);
    expect(tornDown).toBe(1);
  });

  it('runs fixed-time cases as a counted loop with per-chunk samples', async () => {
    const run = await runCases(
      [counterCase('esp/encrypt', { fixedTimeSeconds: 0.03, bytesPerOp: 1400, params: { op: 'encrypt' } })],
      fast,
    );
    const c = run.cases[0]!;
    expect(c.status).toBe('ok');
    expect(c.fixedTime!.seconds).toBe(0.03);
    expect(c.fixedTime!.ops).toBeGreaterThan(0);
    expect(c.fixedTime!.elapsedSeconds).toBeGreaterThanOrEqual(0.03);
    expect(c.samples.length).toBeGreaterThan(0);
    expect(c.stats).toBeDefined();
  });

  it('stops after the current case on abort, marks the run interrupted, and reports each case', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const partials: RunResult[] = [];
    const run = await runCases([counterCase('a'), counterCase('b'), counterCase('c')], {
      ...fast,
      signal: controller.signal,
      onCase(result: CaseResult, partial: RunResult) {
        seen.push(result.id);
        partials.push(partial);
        if (result.id === 'a') controller.abort();
      },
    });
    expect(seen).toEqual(['a']);
    expect(run.cases.map((c) => c.id)).toEqual(['a']);
    expect(run.interrupted).toBe(true);
    expect(partials[0]!.cases.map((c) => c.id)).toEqual(['a']);
  });

  it('writes progress to the given stream only when not quiet', async () => {
    const chunks: string[] = [];
    const stream = { write: (s: string) => chunks.push(s), isTTY: true } as unknown as NodeJS.WritableStream;
    await runCases([counterCase('p1'), counterCase('p2')], { timePerCase: 0.02, overhead: false, progress: stream });
    const text = chunks.join('');
    expect(text).toContain('[1/2] p1');
    expect(text).toContain('[2/2] p2');
    expect(text).toMatch(/left/);
    chunks.length = 0;
    await runCases([counterCase('q')], { timePerCase: 0.02, overhead: false, progress: stream, quiet: true });
    expect(chunks).toEqual([]);
  });

  it('measures the empty-case overhead and records options', async () => {
    const run = await runCases([counterCase('x')], {
      timePerCase: 0.02,
      quiet: true,
      shard: '1/2',
      filter: 'x',
      suites: ['s'],
    });
    expect(run.overheadNs).toBeGreaterThanOrEqual(0);
    expect(run.options).toEqual({
      timePerCase: 0.02,
      shard: '1/2',
      filter: 'x',
      reference: referenceWorkName,
      stateProbe: stateProbeWorkName,
    });
    expect(run.suites).toEqual(['s']);
    expect(run.kind).toBe('layerbench/run');
  });

  it('times the reference workload around every slice and records each slice relative to it', async () => {
    const run = await runCases([counterCase('x')], { timePerCase: 0.05, quiet: true });
    const c = run.cases[0]!;
    const slices = c.sliceMedians!.length;
    expect(slices).toBeGreaterThanOrEqual(10);
    expect(c.reference!.work).toBe(referenceWorkName);
    expect(c.reference!.sliceMedians).toHaveLength(slices + 1);
    expect(c.relativeSliceMedians).toHaveLength(slices);
    expect(c.sliceFastest).toHaveLength(slices);
    expect(c.reference!.sliceFastest).toHaveLength(slices + 1);
    for (let i = 0; i < slices; i++) expect(c.sliceFastest![i]!).toBeLessThanOrEqual(c.sliceMedians![i]!);
    // The state probe beside every reference slice: which slices ran in which state.
    expect(c.sliceStateProbes).toHaveLength(slices + 1);
    for (const v of c.sliceStateProbes!) expect(v).toBeGreaterThan(0);
    for (let i = 0; i < slices; i++) {
      const refs = c.reference!.sliceMedians;
      expect(c.relativeSliceMedians![i]).toBeCloseTo(c.sliceMedians![i]! / Math.sqrt(refs[i]! * refs[i + 1]!), 2);
    }
    const without = await runCases([counterCase('x')], { timePerCase: 0.05, quiet: true, reference: false });
    expect(without.options.reference).toBeUndefined();
    expect(without.options.stateProbe).toBeUndefined();
    expect(without.cases[0]!.stateProbe).toBeUndefined();
    expect(without.cases[0]!.sliceStateProbes).toBeUndefined();
    expect(without.cases[0]!.reference).toBeUndefined();
    expect(without.cases[0]!.relativeSliceMedians).toBeUndefined();
  });

  it('times the state probe before the first case and after each, so each case has the probe on both sides', async () => {
    const run = await runCases([counterCase('x'), counterCase('y')], { timePerCase: 0.02, quiet: true });
    expect(run.options.stateProbe).toBe(stateProbeWorkName);
    const [x, y] = run.cases;
    expect(x!.stateProbe).toHaveLength(2);
    expect(y!.stateProbe).toHaveLength(2);
    // The probe after x is the probe before y.
    expect(y!.stateProbe![0]).toBe(x!.stateProbe![1]);
    for (const v of [...x!.stateProbe!, ...y!.stateProbe!]) expect(v).toBeGreaterThan(0);
    // The work is fixed: the same state from the same seed.
    expect(stateProbeWork(7, 3)).toBe(stateProbeWork(7, 3));
    expect(stateProbeWork(7, 3)).not.toBe(stateProbeWork(8, 3));
  });

  it('rejects bad options and duplicate ids before running', async () => {
    await expect(runCases([counterCase('x')], { timePerCase: 0 })).rejects.toThrow(RangeError);
    await expect(runCases([counterCase('x'), counterCase('x')], fast)).rejects.toThrow(/duplicate case id 'x'/);
  });

  it('formatTable shows ok and failed cases', async () => {
    const run = await runCases(
      [
        counterCase('ok-case'),
        {
          id: 'bad',
          layer: 'test',
          params: {},
          setup: () => {
            throw new Error('boom');
          },
        },
      ],
      fast,
    );
    const text = formatTable(run);
    expect(text).toMatch(/^layerbench run /);
    expect(text).toMatch(/ok-case .* ns .*c0ffee +ok/);
    expect(text).toContain('FAILED Error: boom');
  });
});
