import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveBetweenRunCalibration } from '@layerbench/bench-runner/calibration';
import type { CaseResult } from '@layerbench/bench-runner';
import { syntheticCalibration, syntheticEnv, syntheticRun } from '../test/synthetic-results.js';
import { childRunArgs } from './commands/run.js';
import { UsageError } from './args.js';
import {
  calibratedLevelsFor,
  calmStatesOf,
  defaultExtraProcesses,
  extraProcessesFor,
  shortOfFastState,
  topUpLines,
  fewProcessesNote,
} from './fresh-processes.js';

/** A case of one process: 20 slices relative to the reference, the state probe beside each (21 values). */
function probedCase(id: string, probes: number[] | undefined, status: CaseResult['status'] = 'ok'): CaseResult {
  const slices = 20;
  return {
    id,
    layer: 'sha1-dispatch',
    params: {},
    bytesPerOp: 64,
    status,
    samples: Array(slices).fill(100),
    sliceMedians: Array(slices).fill(100),
    reference: { work: 'w', sliceMedians: Array(slices + 1).fill(1000) },
    relativeSliceMedians: Array(slices).fill(0.1),
    ...(probes === undefined ? {} : { sliceStateProbes: probes }),
  } as CaseResult;
}
const steady = (level: number) => Array(21).fill(level);
/** Probes that flicker between the fast state and one x1.5 slower every other slice: no calm slice. */
const flickering = (level: number) => Array.from({ length: 21 }, (_, i) => (i % 2 === 0 ? level : level * 1.5));

describe('the top-up of a run of several processes', () => {
  it("reads each case's calm level, null when the CPU's state left no calm figure, nothing without probes", () => {
    const states = calmStatesOf(
      syntheticRun([
        probedCase('steady', steady(4050)),
        probedCase('flicker', flickering(4050)),
        probedCase('unprobed', undefined),
        probedCase('failed', steady(4050), 'failed'),
      ]),
    );
    expect([...states]).toEqual([
      ['steady', 4050],
      ['flicker', null],
    ]);
    // With its slices' fastest batches it has a calm-fastest figure, which needs only a probe beside each slice:
    // the process counts at its level however the state flickered (compare leaves it out if that level is slow).
    const withFastest = (c: CaseResult): CaseResult => ({ ...c, sliceFastest: Array(20).fill(95) });
    const fastest = calmStatesOf(
      syntheticRun([
        withFastest(probedCase('flicker', flickering(4050))),
        withFastest(probedCase('unprobed', undefined)),
      ]),
    );
    expect([...fastest]).toEqual([['flicker', 4050]]);
  });

  it('counts per case the processes in the fast state: the lowest level of any case, 5% above it at most', () => {
    const processes = [
      new Map([
        ['a', 4050],
        ['b', 4100],
      ]),
      new Map([
        ['a', 4200], // within 5% of 4050
        ['b', 6100], // the slow state
      ]),
      new Map<string, number | null>([
        ['a', 4300], // 6% above: another state
        ['b', null], // no calm figure
      ]),
    ];
    expect(shortOfFastState(processes, 2)).toEqual([{ id: 'b', fast: 1, processes: 3 }]);
    expect(shortOfFastState(processes, 3)).toEqual([
      { id: 'a', fast: 2, processes: 3 },
      { id: 'b', fast: 1, processes: 3 },
    ]);
    expect(shortOfFastState(processes, 1)).toEqual([]);
  });

  it("takes the calibration's calm level as the fast state when it is lower: a run wholly in the slow state is short", () => {
    // Four processes that agree with each other, all in the slow state (probes x1.5 the calibration's level).
    const slow = Array.from(
      { length: 4 },
      () =>
        new Map([
          ['a', 6100],
          ['b', 6150],
        ]),
    );
    expect(shortOfFastState(slow, 4)).toEqual([]);
    const calibrated = (id: string) => (id === 'a' ? 4050 : undefined);
    expect(shortOfFastState(slow, 4, calibrated)).toEqual([{ id: 'a', fast: 0, processes: 4 }]);
    // A calibration level above what the run reached changes nothing: the run's own lowest level rules.
    const fast = [new Map([['a', 4000]]), new Map([['a', 4100]]), new Map([['a', 4300]])];
    expect(shortOfFastState(fast, 2, () => 4200)).toEqual([]);
    expect(shortOfFastState(fast, 3, () => 4200)).toEqual([{ id: 'a', fast: 2, processes: 3 }]);
    // One process at the calibration's level and three in the slow state.
    const mixed = [new Map([['a', 4060]]), ...Array.from({ length: 3 }, () => new Map([['a', 6100]]))];
    expect(shortOfFastState(mixed, 2, calibrated)).toEqual([{ id: 'a', fast: 1, processes: 4 }]);
  });

  it("finds the stored calibration's calm levels for the machine and runtime of a run, none elsewhere", () => {
    const dir = mkdtempSync(join(tmpdir(), 'layerbench-levels-'));
    try {
      const env = syntheticEnv();
      const calibration = syntheticCalibration(env, 1, {
        'sha1/1500/wasm': { n: 8, medianNs: 1740, sigma: { 'calm-relative': 0.007 }, calmLevel: 4095 },
        'sha1/64/wasm': { n: 8, medianNs: 280, sigma: { 'fastest-low': 0.2 } },
      });
      const file = saveBetweenRunCalibration(calibration, dir);
      const ctx = { env: { LAYERBENCH_CALIBRATION_DIR: dir } } as unknown as Parameters<typeof calibratedLevelsFor>[0];
      const run = syntheticRun([], env);
      run.options.timePerCase = 1;
      const found = calibratedLevelsFor(ctx, run);
      expect(found?.file).toBe(file);
      expect(found?.level('sha1/1500/wasm')).toBe(4095);
      expect(found?.level('sha1/64/wasm')).toBeUndefined();
      expect(
        calibratedLevelsFor(ctx, syntheticRun([], syntheticEnv({ machineId: 'another-machine' }))),
      ).toBeUndefined();
      // Nor one that compare would not use for a run busier than its processes (load 1 there, 3 here).
      const busy = syntheticRun([], syntheticEnv({ loadAvgStart: [3, 3, 3], loadAvgEnd: [3, 3, 3] }));
      busy.options.timePerCase = 1;
      expect(calibratedLevelsFor(ctx, busy)).toBeUndefined();
      // A calibration that measured calm-fastest too: the lower of the case's calm levels.
      calibration.cases['sha1/1500/wasm']!.calmLevels = { 'calm-relative': 4095, 'calm-fastest': 4052 };
      saveBetweenRunCalibration(calibration, dir);
      expect(calibratedLevelsFor(ctx, run)?.level('sha1/1500/wasm')).toBe(4052);
      delete calibration.cases['sha1/1500/wasm']!.calmLevels;
      // A calibration without any calm level sets no fast state.
      delete calibration.cases['sha1/1500/wasm']!.calmLevel;
      saveBetweenRunCalibration(calibration, dir);
      expect(calibratedLevelsFor(ctx, run)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks for nothing when no process has a calm figure of any case (none forms at this --time)', () => {
    const none = [new Map([['a', null]]), new Map([['a', null]])];
    expect(shortOfFastState(none, 2)).toEqual([]);
    expect(shortOfFastState([], 2)).toEqual([]);
  });

  it('adds half as many processes again by default, rounded up', () => {
    expect([2, 3, 4, 5, 8].map(defaultExtraProcesses)).toEqual([1, 2, 2, 3, 4]);
  });

  it('takes --extra-processes as given, the default without it, and refuses it for a run of one process', () => {
    expect(extraProcessesFor(undefined, 4, '--processes k')).toBe(2);
    expect(extraProcessesFor(0, 4, '--processes k')).toBe(0);
    expect(extraProcessesFor(7, 2, '--processes k')).toBe(7);
    expect(() => extraProcessesFor(2, 1, '--processes k')).toThrow(UsageError);
    expect(() => extraProcessesFor(2, 1, '--processes k')).toThrow(
      '--extra-processes goes with --processes k: it tops up a run of fresh processes',
    );
  });

  it('says what it added and which cases are still short, four named at most', () => {
    expect(topUpLines({ extra: 0, short: [] }, 4)).toEqual([]);
    const short = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, fast: 1, processes: 6 }));
    const lines = topUpLines({ extra: 2, short }, 4);
    expect(lines[0]).toBe(
      "2 more process(es), 6 in all: cases had fewer than 4 processes in the CPU's fast state (its slower state is left out by compare)",
    );
    expect(lines[1]).toMatch(
      /^still fewer than 4 processes in the CPU's fast state: a 1 of 6, b 1 of 6, c 1 of 6, d 1 of 6 and 1 more; compare may find them inconclusive/,
    );
    const named = topUpLines({ extra: 2, short: short.slice(0, 1), calibration: '/c/m-t1.json' }, 4);
    expect(named).toEqual([
      "2 more process(es), 6 in all: cases had fewer than 4 processes in the CPU's fast state at the level of the calibration /c/m-t1.json (its slower state is left out by compare)",
      "still fewer than 4 processes in the CPU's fast state at the level of the calibration /c/m-t1.json: a 1 of 6; compare may find them inconclusive (measure again later, or with --extra-processes)",
    ]);
  });

  it('says before a run of two processes that compare will not take its calm figures, and nothing from three', () => {
    expect(fewProcessesNote(2)).toMatch(
      /^2 processes: compare takes calm figures only from 3 or more processes a side in the CPU's fast state, .*--processes 4 or more/,
    );
    expect(fewProcessesNote(3)).toBeUndefined();
    expect(fewProcessesNote(4)).toBeUndefined();
  });

  it('does not pass --processes, --extra-processes or --out on to each process', () => {
    expect(
      childRunArgs(['sha1', '--processes', '4', '--extra-processes=1', '--time', '1', '--out', 'x.json', '-q']),
    ).toEqual(['sha1', '--time', '1']);
    expect(childRunArgs(['sha1', '--extra-processes', '0', '--filter', 'wasm'])).toEqual(['sha1', '--filter', 'wasm']);
  });
});
