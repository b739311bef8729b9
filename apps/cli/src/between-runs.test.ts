// Which runs a calibration describes by their load (loadBeyondCalibration).
import { describe, expect, it } from 'vitest';
import { syntheticEnv, syntheticRun } from '../test/synthetic-results.js';
import { loadBeyondCalibration } from './between-runs.js';

const runAt = (load: number) =>
  syntheticRun([], syntheticEnv({ loadAvgStart: [load, 1, 1], loadAvgEnd: [load, 1, 1] }));

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

  it('keeps the margin above a busier calibration: 25%, and at least 0.5', () => {
    const busy = { load: [[2.0, 2.4] as [number, number]] };
    expect(loadBeyondCalibration(busy, runAt(2.9), runAt(3.0))).toBeUndefined();
    expect(loadBeyondCalibration(busy, runAt(2.9), runAt(3.1))).toBe(
      'they ran at a load average of up to 3.1, its processes at most 2.4; calibrate at the load the comparisons see',
    );
  });
});
