// Which runs a calibration describes (loadBeyondCalibration, endLoad, calibrationMismatch) and the model
// they are then compared with (noiseForRuns).
import { describe, expect, it } from 'vitest';
import { collectEnv } from '../env.js';
import type { BetweenRunCalibration, CaseResult, RunResult } from '../results/schemas.js';
import { calibrationMismatch, endLoad, loadBeyondCalibration, noiseForRuns } from './calibration-fit.js';

const env = collectEnv();

const caseOf = (id: string): CaseResult => ({ id, layer: 'sha1-dispatch', params: {}, status: 'ok', samples: [100] });

/** A run of these cases whose 1-minute load average read `start` at its start and `end` at its end. */
const runAt = (start: number, end = start, ids: string[] = [], timePerCase = 1): RunResult => ({
  kind: 'layerbench/run',
  schemaVersion: 1,
  createdAt: '2026-12-05T20:38:00.000Z',
  suites: ['sha1'],
  options: { timePerCase },
  env: { ...env, loadAvgStart: [start, 1, 1], loadAvgEnd: [end, 1, 1] },
  cases: ids.map(caseOf),
});

describe('loadBeyondCalibration', () => {
  // The calibration of 2026-12-05 14:47 UTC: 12 processes started on an idle machine.
  const fromIdle = {
    load: [0.29, 0.4, 0.49, 0.57, 0.78, 0.82, 0.85, 0.87, 0.89, 0.91, 0.92, 0.93].map((start): [number, number] => [
      start,
      start + 0.01,
    ]),
  };

  it("takes a calibration's processes at the load of their own measuring process at least", () => {
    // One measuring process at a time, the load a quiet hour's runs read (1.0-1.5): described.
    expect(loadBeyondCalibration(fromIdle, runAt(1.0), runAt(1.5))).toBeUndefined();
    // Beyond 1 + 0.5: not, and the line says how the calibration's load was counted.
    expect(loadBeyondCalibration(fromIdle, runAt(1.0), runAt(1.6))).toBe(
      'they ran at a load average of up to 1.6, its processes at most 0.9 (taken as 1.0: its own measuring process); calibrate at the load the comparisons see',
    );
  });

  it('reads runs and calibrations at the end of their measuring, not the minute before it', () => {
    const quiet = { load: [[1.0, 1.1] as [number, number]] };
    // The run of 2026-12-05 20:38 UTC: 12 processes after the compares of the pair before, 1.65 -> 1.10.
    expect(endLoad(runAt(1.65, 1.1))).toBe(1.1);
    expect(loadBeyondCalibration(quiet, runAt(1.0), runAt(1.65, 1.1))).toBeUndefined();
    // A load that rose while the run ran is read at the end, as before.
    expect(loadBeyondCalibration(quiet, runAt(1.0), runAt(0.9, 1.7))).toMatch(
      /^they ran at a load average of up to 1\.7,/,
    );
    // A calibration started after a busy minute (2.6 at its first start) counts at its ends (1.2), not at 2.6.
    const afterBusy = { load: [[2.6, 1.2] as [number, number], [1.2, 1.1] as [number, number]] };
    expect(loadBeyondCalibration(afterBusy, runAt(1.0), runAt(2.0))).toBe(
      'they ran at a load average of up to 2.0, its processes at most 1.2; calibrate at the load the comparisons see',
    );
  });

  it('reads a run of several processes at the end of each that ended a minute or more into it', () => {
    const quiet = { load: [[1.0, 1.1] as [number, number]] };
    // Eight processes, a busy loop beside the fourth: 2.6 at its end, 1.2 at the run's.
    const busyMiddle = runAt(1.0, 1.2);
    busyMiddle.env.processLoadAvgEnds = [1.1, 1.2, 2.6, 1.9, 1.5, 1.3];
    expect(endLoad(busyMiddle)).toBe(2.6);
    expect(loadBeyondCalibration(quiet, runAt(1.0), busyMiddle)).toMatch(/^they ran at a load average of up to 2\.6,/);
    busyMiddle.env.processLoadAvgEnds = [1.1, 1.2, 1.3];
    expect(loadBeyondCalibration(quiet, runAt(1.0), busyMiddle)).toBeUndefined();
  });

  it('keeps the margin above a busier calibration: 25%, and at least 0.5', () => {
    const busy = { load: [[2.0, 2.4] as [number, number]] };
    expect(loadBeyondCalibration(busy, runAt(2.9), runAt(3.0))).toBeUndefined();
    expect(loadBeyondCalibration(busy, runAt(2.9), runAt(3.1))).toBe(
      'they ran at a load average of up to 3.1, its processes at most 2.4; calibrate at the load the comparisons see',
    );
  });
});

describe('noiseForRuns', () => {
  const calibration = {
    kind: 'layerbench/between-runs',
    schemaVersion: 1,
    createdAt: '2026-12-05T20:33:00.000Z',
    env,
    suites: ['sha1'],
    timePerCase: 1,
    processes: 13,
    load: [[1.0, 1.05]],
    threshold: 0.02,
    alpha: 0.01,
    basis: 'median',
    pooled: { median: { p50: 0.01, p90: 0.02 } },
    floor: { quantile: 0, sigma: 0 },
    cases: { 'sha1/1500/wasm': { n: 13, medianNs: 1740, sigma: { median: 0.01 } } },
    falseAlarms: { flagged: 0, compared: 78, pairsFlagged: 0, pairs: 78 },
    detection: [],
  } as unknown as BetweenRunCalibration;

  it("compares by the calibration's spreads when it describes the runs", () => {
    const noise = noiseForRuns(
      calibration,
      'cal.json',
      runAt(1.0, 1.1, ['sha1/1500/wasm']),
      runAt(1.0, 1.2, ['sha1/1500/wasm']),
    );
    expect(noise.summary.source).toBe('calibration');
    expect(noise.summary.description).toContain('cal.json');
    expect(noise.summary.description).not.toContain('note:');
    expect(noise.spreadFor('sha1/1500/wasm', 'median').sigma).toBe(0.01);
  });

  it('notes another --time and cases it never measured, and still uses it', () => {
    const base = runAt(1.0, 1.1, ['sha1/1500/wasm', 'sha1/64/wasm'], 0.3);
    const head = runAt(1.0, 1.1, ['sha1/1500/wasm', 'sha1/64/wasm'], 0.3);
    expect(calibrationMismatch(calibration, base, head)).toEqual([
      'it was measured at --time 1, these runs at --time 0.3',
      '1 of the 2 common cases are not in it',
    ]);
    const noise = noiseForRuns(calibration, 'cal.json', base, head);
    expect(noise.summary.source).toBe('calibration');
    expect(noise.summary.description).toMatch(
      /\(note: it was measured at --time 1, these runs at --time 0\.3; 1 of the 2 common cases are not in it\)$/,
    );
  });

  it('takes the conservative default, and says why, for runs busier than its processes', () => {
    const noise = noiseForRuns(calibration, 'cal.json', runAt(1.0, 1.1), runAt(2.0, 1.8));
    expect(noise.summary.source).toBe('default');
    expect(noise.summary.description).toMatch(
      /^the calibration cal\.json does not describe these runs: they ran at a load average of up to 1\.8, its processes at most 1\.1/,
    );
  });
});
