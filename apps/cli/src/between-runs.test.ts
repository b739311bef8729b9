// Which runs a calibration describes by their load (loadBeyondCalibration, endLoad).
import { describe, expect, it } from 'vitest';
import { syntheticEnv, syntheticRun } from '../test/synthetic-results.js';
import { endLoad, loadBeyondCalibration } from './between-runs.js';

/** A run whose 1-minute load average read `start` at its start and `end` at its end. */
const runAt = (start: number, end = start) =>
  syntheticRun([], syntheticEnv({ loadAvgStart: [start, 1, 1], loadAvgEnd: [end, 1, 1] }));

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

  it('keeps the margin above a busier calibration: 25%, and at least 0.5', () => {
    const busy = { load: [[2.0, 2.4] as [number, number]] };
    expect(loadBeyondCalibration(busy, runAt(2.9), runAt(3.0))).toBeUndefined();
    expect(loadBeyondCalibration(busy, runAt(2.9), runAt(3.1))).toBe(
      'they ran at a load average of up to 3.1, its processes at most 2.4; calibrate at the load the comparisons see',
    );
  });
});
