import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCalibration, writeResultFile } from '../results/file.js';
import { calibrate, calibrationWork, minimumDetectableEffect, summarizeEffect, wilsonInterval } from './calibrate.js';
import { normalVariate, seededRandom } from '../stats/stats.js';
import type { CalibrationEffect } from '../types.js';

/**
 * Synthetic machine: per-round medians ~ 1000 * (1 + drift_r) * (1 + noise),
 * the drift shared by both variants of a round (as interleaving makes it), the
 * head scaled by 1 + effect.
 */
function syntheticSource(rounds: number, sigma: number, drift = 0) {
  return (effect: number, repeat: number) => {
    const random = seededRandom(Math.round(effect * 1e6) * 7919 + repeat);
    const base: number[] = [];
    const head: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const shared = 1 + drift * normalVariate(random);
      base.push(1000 * shared + sigma * normalVariate(random));
      head.push(1000 * (1 + effect) * shared + sigma * normalVariate(random));
    }
    return { base, head };
  };
}

describe('calibrate statistics (injected samples, no timing)', () => {
  it('finds no false alarms on A/A and detects large effects on a quiet synthetic machine', async () => {
    const messages: string[] = [];
    const cal = await calibrate({
      repeats: 40,
      effects: [0.01, 0.03, 0.05, 0.1],
      threshold: 0.01,
      alpha: 0.01,
      sampleSource: syntheticSource(30, 10),
      onProgress: (m) => messages.push(m),
    });
    expect(cal.kind).toBe('layerbench/calibration');
    expect(cal.falseAlarmRate).toBe(0);
    expect(cal.falseAlarmCi[0]).toBe(0);
    expect(cal.falseAlarmCi[1]).toBeLessThan(0.1);
    expect(cal.aaRatio.median).toBeCloseTo(1, 2);
    const byEffect = new Map(cal.effects.map((e) => [e.effect, e]));
    // 1% noise per round, 30 rounds: the median log ratio has a standard error of
    // about 0.3%, so the CI's lower end of a true 1% effect rarely clears the 1%
    // threshold, while 3% always does.
    expect(byEffect.get(0.01)!.detectionRate).toBeLessThan(0.2);
    expect(byEffect.get(0.01)!.significantRate).toBeGreaterThan(0.5);
    expect(byEffect.get(0.03)!.detectionRate).toBe(1);
    expect(byEffect.get(0.1)!.medianRatio).toBeCloseTo(1.1, 2);
    expect(cal.minimumDetectableEffect).toBe(0.03);
    expect(cal.overhead.medianNs).toBe(0);
    expect(messages.length).toBe(5 * 40);
    expect(messages[0]).toMatch(/^A\/A 1\/40: ratio /);
  });

  it('cancels drift shared by a round: 10% drift per round changes nothing', async () => {
    const cal = await calibrate({
      repeats: 40,
      effects: [0.03],
      threshold: 0.01,
      sampleSource: syntheticSource(30, 10, 0.1),
    });
    expect(cal.falseAlarmRate).toBe(0);
    expect(cal.effects[0]!.detectionRate).toBe(1);
  });

  it('reports no minimum detectable effect on a very noisy machine', async () => {
    const cal = await calibrate({ repeats: 10, effects: [0.01, 0.03], sampleSource: syntheticSource(10, 200) });
    expect(cal.minimumDetectableEffect).toBeNull();
    expect(cal.effects.every((e) => e.detectionRate < 0.95)).toBe(true);
  });

  it('round-trips through a calibration file', async () => {
    const cal = await calibrate({ repeats: 3, effects: [0.05], sampleSource: syntheticSource(10, 10) });
    expect(cal.aaOutcomes).toHaveLength(3);
    expect(cal.effects[0]!.outcomes).toHaveLength(3);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-runner-cal-')), 'cal.json');
    writeResultFile(file, cal);
    expect(readCalibration(file)).toEqual(cal);
    rmSync(path.dirname(file), { recursive: true });
  });

  it('rejects bad options', async () => {
    await expect(calibrate({ repeats: 0, sampleSource: syntheticSource(5, 1) })).rejects.toThrow(RangeError);
    await expect(calibrate({ effects: [-0.1], sampleSource: syntheticSource(5, 1) })).rejects.toThrow(RangeError);
  });
});

describe('calibration helpers', () => {
  it('Wilson interval matches the textbook values', () => {
    // 0 of 20: [0, 0.16113]; 19 of 20: [0.76387, 0.99112] (Wilson score formula, z = 1.959964).
    const [lo0, hi0] = wilsonInterval(0, 20);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.16113, 4);
    const [lo, hi] = wilsonInterval(19, 20);
    expect(lo).toBeCloseTo(0.76387, 4);
    expect(hi).toBeCloseTo(0.99112, 4);
  });
  it('summarizeEffect counts verdicts and significance', () => {
    const s = summarizeEffect(
      0.03,
      [
        { ratio: 1.03, ratioCi: [1.02, 1.04], pValue: 1e-5, verdict: 'regressed' },
        { ratio: 1.01, ratioCi: [0.99, 1.04], pValue: 0.2, verdict: 'inconclusive' },
        { ratio: 1.031, ratioCi: [1.025, 1.036], pValue: 1e-4, verdict: 'regressed' },
        { ratio: 1.02, ratioCi: [1.005, 1.035], pValue: 0.001, verdict: 'inconclusive' },
      ],
      0.01,
    );
    expect(s.detectionRate).toBe(0.5);
    expect(s.significantRate).toBe(0.75);
    expect(s.medianRatio).toBeCloseTo(1.025, 12);
    expect(s.verdicts).toEqual({ regressed: 2, improved: 0, unchanged: 0, inconclusive: 2 });
  });
  it('minimumDetectableEffect needs every larger effect detected too', () => {
    const e = (effect: number, detectionRate: number) => ({ effect, detectionRate }) as CalibrationEffect;
    expect(minimumDetectableEffect([e(0.01, 0.5), e(0.03, 0.96), e(0.05, 1)])).toBe(0.03);
    expect(minimumDetectableEffect([e(0.01, 0.97), e(0.03, 0.9), e(0.05, 1)])).toBe(0.05);
    expect(minimumDetectableEffect([e(0.01, 0.2), e(0.1, 0.9)])).toBeNull();
  });
  it('the workload does proportionally more steps and is deterministic', () => {
    expect(calibrationWork(1, 0)).toBe(1);
    expect(calibrationWork(7, 100)).toBe(calibrationWork(calibrationWork(7, 60), 40));
  });
});
