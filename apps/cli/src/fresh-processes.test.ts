import { describe, expect, it } from 'vitest';
import type { CaseResult } from '@layerbench/bench-runner';
import { syntheticRun } from '../test/synthetic-results.js';
import { childRunArgs } from './commands/run.js';
import { UsageError } from './args.js';
import {
  calmStatesOf,
  defaultExtraProcesses,
  extraProcessesFor,
  shortOfFastState,
  topUpLines,
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
  });

  it('does not pass --processes, --extra-processes or --out on to each process', () => {
    expect(
      childRunArgs(['sha1', '--processes', '4', '--extra-processes=1', '--time', '1', '--out', 'x.json', '-q']),
    ).toEqual(['sha1', '--time', '1']);
    expect(childRunArgs(['sha1', '--extra-processes', '0', '--filter', 'wasm'])).toEqual(['sha1', '--filter', 'wasm']);
  });
});
