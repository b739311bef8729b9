// The calibration report's wording of a minimum detectable effect.
import { describe, expect, it } from 'vitest';
import type { BetweenRunCalibration } from '@layerbench/bench-runner';
import { describeMde, formatBetweenRunText } from './calibrate.js';

describe('describeMde', () => {
  it('gives the effect in percent up to x10, and says what a larger one means', () => {
    expect(describeMde(undefined)).toBe('none of those tested');
    expect(describeMde(0.39)).toBe('39%');
    expect(describeMde(9)).toBe('900%');
    // A calibration whose processes met the machine in different states: 1686068302% is no figure to print.
    expect(describeMde(16860683.02)).toBe('more than x10 (nothing these processes can tell apart)');
  });
});

describe('what runs of several processes can detect', () => {
  // The calm spreads of two cases as measured on 2026-12-03 (03:16-03:18 UTC, 12 processes at --time 1).
  const calibration = {
    kind: 'layerbench/between-runs',
    schemaVersion: 1,
    createdAt: '2026-12-03T03:18:00.000Z',
    env: { cpuModel: 'AMD EPYC', cpuCount: 2, node: '20.20.2' },
    suites: ['sha1'],
    timePerCase: 1,
    processes: 12,
    load: [[0.6, 1.0]],
    threshold: 0.02,
    alpha: 0.01,
    basis: 'median-relative',
    pooled: { 'median-relative': { p50: 0.0076, p90: 0.075 }, 'calm-relative': { p50: 0.0076, p90: 0.075 } },
    floor: { quantile: 0, sigma: 0 },
    cases: {
      'sha1/64/unrolled': {
        n: 12,
        medianNs: 300,
        sigma: { 'median-relative': 0.0743, 'calm-relative': 0.075 },
        sigmaNeighbour: { 'median-relative': 0.0671, 'calm-relative': 0.0675 },
        calmLevel: 4039,
      },
      'sha1/1500/wasm': {
        n: 12,
        medianNs: 1740,
        sigma: { 'median-relative': 0.0075, 'calm-relative': 0.0076 },
        sigmaNeighbour: { 'median-relative': 0.0071, 'calm-relative': 0.0073 },
        calmLevel: 4050,
      },
    },
    falseAlarms: { flagged: 0, compared: 132, pairsFlagged: 0, pairs: 66 },
    detection: [{ effect: 0.05, detected: 8, compared: 132 }],
  } as unknown as BetweenRunCalibration;

  it("splits each spread into the neighbours' part and the shared part, and gives the minimum detectable effect for 1-8 processes a side", () => {
    const text = formatBetweenRunText(calibration);
    expect(text).toContain('Runs of several processes a side (`run --processes k` for both runs)');
    expect(text).toMatch(
      /^ {2}minimum detectable effect, median over cases: 1 process [\d.]+%, 2 processes [\d.]+%, 4 processes [\d.]+%, 8 processes [\d.]+%$/m,
    );
    expect(text).toMatch(
      /^ {2}sha1\/1500\/wasm {4}0\.76% \(calm-relative\): 0\.66% between neighbours, 0\.38% shared; 4 processes a side: [\d.]+%$/m,
    );
    // Measured 0.73% between neighbours, 0.21% shared (sqrt(0.0076^2 - 0.0073^2)); compare counts at least half of
    // the spread as shared (bench-runner minRunShare): 0.38%, and 0.66% between neighbours. The wasm case at 4
    // processes a side: under 5%, the 64-byte one far above.
    const mde = (id: string) => Number(new RegExp(`${id}.*4 processes a side: ([\\d.]+)%`).exec(text)![1]);
    expect(mde('sha1/1500/wasm')).toBeLessThan(5);
    expect(mde('sha1/64/unrolled')).toBeGreaterThan(15);
    // Every case has the split: no advice to calibrate again.
    expect(text).not.toContain('without that split');
  });

  it('gives the load its processes ended at and the busiest runs compare and check will judge by it', () => {
    expect(formatBetweenRunText(calibration)).toMatch(
      /^ {2}AMD EPYC x 2, node 20\.20\.2, load average 0\.6-1\.0 \(at its processes' ends at most 1\.00: compare and check use it for runs that end at a load average up to 1\.50\)$/m,
    );
    // Read at the ends: a process that started after a busy minute (2.6) does not raise the limit.
    const later = {
      ...calibration,
      load: [
        [2.6, 1.2],
        [1.2, 1.1],
      ],
    } as BetweenRunCalibration;
    expect(formatBetweenRunText(later)).toContain(
      "load average 1.1-2.6 (at its processes' ends at most 1.20: compare and check use it for runs that end at a load average up to 1.70)",
    );
  });

  it('says when its processes came from several sittings, and what that costs runs minutes apart', () => {
    expect(formatBetweenRunText(calibration)).not.toContain('sittings');
    expect(formatBetweenRunText(calibration, undefined, '/tmp/kept', 3)).toMatch(
      /^ {2}from 3 sittings \(processes more than 3 times the median spacing apart\): their spreads include what moved between sittings, .*a \+5% was found in 48 of 144 comparisons, 62 with each sitting's own/m,
    );
  });

  it('says how to add processes of another sitting when a case has no neighbour split', () => {
    const { sigmaNeighbour: _, ...unsplit } = calibration.cases['sha1/1500/wasm']!;
    const partial = { ...calibration, cases: { ...calibration.cases, 'sha1/1500/wasm': unsplit } };
    const text = formatBetweenRunText(partial, undefined, '/tmp/kept');
    expect(text).toMatch(
      /^ {2}1 of 2 cases without that split .*: calibrate again later with `--keep-runs \/tmp\/kept`, then `calibrate --from-runs \/tmp\/kept` takes the processes of every sitting$/m,
    );
  });

  it('says whether cross-validated A/A comparisons met the false-alarm targets, and what missing them means', () => {
    const met = formatBetweenRunText(calibration);
    expect(met).toContain(
      '(the 0th percentile of the cases: the smallest floor at which cross-validated A/A comparisons met the targets, at most 5% of pairs with a case called regressed and 1% of case comparisons regressed or improved)',
    );
    expect(met).not.toContain('above the targets');
    // Even then only a lower bound: 12 processes need not have met a mode that comes once in 20.
    expect(met).toContain(
      "False alarms of separate-run A/A comparisons (each pair against the spread of the other processes; a lower bound: a case's mode rarer than one process in 12 may not be among them):",
    );
    // As measured from the 16 processes of 2026-12-03 10:23-10:26 UTC: one process ran sha1/64/unrolled x1.5.
    const missed = formatBetweenRunText({
      ...calibration,
      floor: { quantile: 1, sigma: 0.1162 },
      falseAlarms: { flagged: 13, compared: 720, pairsFlagged: 6, pairs: 120 },
    });
    expect(missed).toContain('(the 100th percentile of the cases: no floor met the targets, at most 5% of pairs');
    expect(missed).toMatch(
      /^ {2}13 of 720 case comparisons called regressed or improved \(1\.81%\); 6 of 120 pairs would exit 1 \(5\.0%\)$/m,
    );
    expect(missed).toMatch(
      /^ {2}above the targets: two one-process runs of unchanged code can be called regressed or improved here by timing alone/m,
    );
  });
});
