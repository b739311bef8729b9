import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectEnv } from '../env.js';
import { normalVariate, seededRandom } from '../stats/stats.js';
import type { CaseResult, RunResult } from '../types.js';
import { calmLevel } from '../compare/figures.js';
import { minRunShare, runNoiseFromCalibration } from '../compare/noise.js';
import { compareProcessFigures, runPartOf } from '../compare/processes.js';
import { CalibrationInterruptedError } from './calibrate.js';
import {
  calibrateBetweenRuns,
  calibrateBetweenRunsAsync,
  calmGroup,
  crossValidationPairs,
  inRunOrder,
  isolatedModes,
  minNeighbourPairs,
  neighbourSigmaOf,
  scaledRun,
  severalProcessesOutlook,
  sittingsOf,
  targetCaseFalseAlarms,
  withinFalseAlarmTargets,
} from './between-runs.js';
import { calibrationDir, calibrationFileName, findBetweenRunCalibration, saveBetweenRunCalibration } from './store.js';

const env = collectEnv();

/** One process's case: its slice medians, the reference slices around them, and each slice relative to them. */
function relativeCase(id: string, sliceMedians: number[], refs: number[]): CaseResult {
  return {
    id,
    layer: 'sha1-dispatch',
    params: {},
    status: 'ok',
    samples: sliceMedians,
    sliceMedians,
    reference: { work: 'w', sliceMedians: refs },
    relativeSliceMedians: sliceMedians.map((v, i) => v / Math.sqrt(refs[i]! * refs[i + 1]!)),
  };
}

/**
 * K synthetic runs of three cases. Each run (process) shifts each case by its
 * own offset: 'steady' by sd 0.5%, 'jumpy' by sd 10%, 'drifty' by a machine
 * drift of sd 8% shared with the reference workload (so its relative figure
 * moves by only 0.5%). Slices scatter by 0.3% around the run's value.
 */
function syntheticRuns(k: number, seed: number, mode?: { process: number; factor: number }): RunResult[] {
  const random = seededRandom(seed);
  const slices = (mu: number) => Array.from({ length: 10 }, () => mu * (1 + 0.003 * normalVariate(random)));
  return Array.from({ length: k }, (_, r) => {
    const drift = Math.exp(0.08 * normalVariate(random));
    const make = (id: string, mu: number, sigma: number, drifting: boolean): CaseResult => {
      const value = mu * Math.exp(sigma * normalVariate(random)) * (drifting ? drift : 1);
      const sliceMedians = slices(value);
      const refs = Array.from(
        { length: 11 },
        () => 1000 * (drifting ? drift : 1) * (1 + 0.002 * normalVariate(random)),
      );
      return relativeCase(id, sliceMedians, refs);
    };
    return {
      kind: 'layerbench/run',
      schemaVersion: 1,
      createdAt: `2026-12-01T10:0${r}:00Z`,
      suites: ['sha1'],
      options: { timePerCase: 0.3 },
      env,
      cases: [
        make('steady', 1000, 0.005, false),
        make('jumpy', 1000, 0.1, false),
        make('drifty', 1000, 0.005, true),
        // Agrees to 0.5% except in one process, where it lands in another mode (`factor` times the others).
        ...(mode !== undefined
          ? [
              make('moody', r === mode.process ? 1000 * mode.factor : 1000, 0.005, false),
              make('calm', 1000, 0.004, false),
              make('calmer', 1000, 0.003, false),
            ]
          : []),
      ],
    };
  });
}

describe('calibrateBetweenRuns', () => {
  const runs = syntheticRuns(8, 7);
  const cal = calibrateBetweenRuns(runs, { iterations: 999 });

  it("measures each case's spread between processes on both bases", () => {
    expect(cal.kind).toBe('layerbench/between-runs');
    expect(cal.processes).toBe(8);
    expect(cal.timePerCase).toBe(0.3);
    expect(cal.cases.steady!.sigma.median!).toBeLessThan(0.015);
    expect(cal.cases.jumpy!.sigma.median!).toBeGreaterThan(0.04);
    expect(cal.cases.drifty!.sigma.median!).toBeGreaterThan(0.03);
    expect(cal.cases.drifty!.sigma['median-relative']!).toBeLessThan(0.015);
    // These runs record no fastest batches: those bases are absent, and the relative median moved least.
    expect(cal.cases.steady!.sigma.fastest).toBeUndefined();
    expect(Object.keys(cal.pooled).sort()).toEqual(['median', 'median-relative']);
    expect(cal.basis).toBe('median-relative');
    expect(cal.load).toHaveLength(8);
  });

  it('cross-validated A/A comparisons raise no false alarm; the steady case detects 10% in every pair, the jumpy one only far more', () => {
    expect(cal.falseAlarms.pairs).toBe(28);
    expect(cal.falseAlarms.compared).toBe(28 * 3);
    expect(cal.floor.quantile).toBe(0);
    expect(cal.falseAlarms.flagged).toBe(0);
    expect(cal.falseAlarms.pairsFlagged).toBe(0);
    expect(cal.cases.steady!.minimumDetectableEffect).not.toBeNull();
    expect(cal.cases.steady!.minimumDetectableEffect!).toBeLessThanOrEqual(0.1);
    const jumpy = cal.cases.jumpy!.minimumDetectableEffect;
    expect(jumpy === null || (jumpy !== undefined && jumpy >= 0.2)).toBe(true);
    const rates = cal.detection.map((d) => d.detected / d.compared);
    for (let i = 1; i < rates.length; i++) expect(rates[i]!).toBeGreaterThanOrEqual(rates[i - 1]! - 0.05);
  });

  it('without rare modes needs no floor', () => {
    expect(cal.floor).toEqual({ quantile: 0, sigma: 0 });
  });

  it('a case that lands in another mode in one process raises the floor until A/A pairs stay quiet', () => {
    const moody = calibrateBetweenRuns(syntheticRuns(8, 11, { process: 4, factor: 1.4 }), { iterations: 999 });
    expect(moody.floor.quantile).toBeGreaterThan(0);
    expect(moody.floor.sigma).toBeGreaterThan(0.005);
    expect(moody.falseAlarms.pairsFlagged).toBeLessThanOrEqual(0.05 * moody.falseAlarms.pairs);
  });

  it('raises the floor also until at most 1% of A/A case comparisons are flagged, improved ones too', () => {
    // The last process of eight runs the moody case 30% faster: every pair with it calls that case improved,
    // so no pair would exit 1 (the pair target holds at floor 0), but 7 of 168 case comparisons are flagged.
    const runs = syntheticRuns(8, 11, { process: 7, factor: 0.7 });
    const quiet = calibrateBetweenRuns(runs, { iterations: 999 });
    expect(quiet.floor.quantile).toBeGreaterThan(0);
    expect(withinFalseAlarmTargets(quiet.falseAlarms)).toBe(true);
    expect(quiet.falseAlarms.flagged).toBeLessThanOrEqual(targetCaseFalseAlarms * quiet.falseAlarms.compared);
    // What floor 0 gave: the pair target met, the case target not.
    const lines: string[] = [];
    calibrateBetweenRuns(runs, { iterations: 999, onProgress: (line) => lines.push(line) });
    expect(lines[0]).toMatch(
      /^floor at the 0th percentile of the cases' spreads: 0 of 28 A\/A pairs with a case called regressed, 7 of 168 case comparisons regressed or improved$/,
    );
  });

  it('when no floor meets the targets, takes the largest and says the targets were missed', () => {
    // One process of eight runs the moody case three times slower: beyond every floor (the widest case's spread
    // is about 10%), so the pairs with that process keep calling it regressed or improved.
    const runs = syntheticRuns(8, 11, { process: 4, factor: 3 });
    const stuck = calibrateBetweenRuns(runs, { iterations: 999 });
    expect(withinFalseAlarmTargets(stuck.falseAlarms)).toBe(false);
    expect(stuck.floor.quantile).toBe(1);
    // compare's noise line says so wherever this calibration is used, and not for one that met them.
    const f = stuck.falseAlarms;
    expect(runNoiseFromCalibration(stuck).summary.description).toContain(
      `; that calibration's own A/A comparisons of one process a side called ${f.flagged} of ${f.compared} cases regressed or improved (${f.pairsFlagged} of ${f.pairs} pairs regressed), above the targets (1% of cases, 5% of pairs): a verdict between one-process runs can be one process's mode rather than the code`,
    );
    expect(runNoiseFromCalibration(cal).summary.description).not.toContain('above the targets');
  });

  it('scaledRun multiplies every figure of every case', () => {
    const scaled = scaledRun(runs[0]!, 1.05);
    const a = runs[0]!.cases[0]!;
    const b = scaled.cases[0]!;
    expect(b.sliceMedians![3]).toBeCloseTo(a.sliceMedians![3]! * 1.05, 9);
    expect(b.relativeSliceMedians![3]).toBeCloseTo(a.relativeSliceMedians![3]! * 1.05, 9);
    expect(b.samples[0]).toBeCloseTo(a.samples[0]! * 1.05, 9);
  });

  it('refuses too few runs, mixed machines and mixed --time', () => {
    expect(() => calibrateBetweenRuns(runs.slice(0, 3))).toThrow(/at least 4 runs/);
    const other = { ...runs[1]!, env: { ...env, node: '18.0.0' } };
    expect(() => calibrateBetweenRuns([runs[0]!, other, runs[2]!, runs[3]!])).toThrow(/one machine and runtime/);
    const slower = { ...runs[1]!, options: { timePerCase: 1 } };
    expect(() => calibrateBetweenRuns([runs[0]!, slower, runs[2]!, runs[3]!])).toThrow(/one time per case/);
  });
});

describe('the cross-validation of many processes', () => {
  const counts = (n: number, pairs: Array<[number, number]>) => {
    const count = new Array<number>(n).fill(0);
    for (const [i, j] of pairs) {
      count[i]!++;
      count[j]!++;
    }
    return count;
  };

  it('takes every pair up to the cap, in order', () => {
    const all = crossValidationPairs(8, 28);
    expect(all).toHaveLength(28);
    expect(all[0]).toEqual([0, 1]);
    expect(all[27]).toEqual([6, 7]);
    expect(crossValidationPairs(20, 200)).toHaveLength(190);
  });

  it('beyond the cap, a reproducible sample of distinct pairs in which every process takes part about equally', () => {
    for (const [n, max] of [
      [8, 10],
      [21, 200],
      [32, 200],
      [159, 200],
    ] as const) {
      const pairs = crossValidationPairs(n, max);
      expect(pairs).toHaveLength(max);
      expect(new Set(pairs.map(([i, j]) => `${i},${j}`)).size).toBe(max);
      for (const [i, j] of pairs) expect(0 <= i && i < j && j < n).toBe(true);
      const each = counts(n, pairs);
      // 2·max/n pairs each, give or take one or two: 2-3 of 8, 18-20 of 21, 12-13 of 32, 2-3 of 159.
      expect(Math.max(...each) - Math.min(...each)).toBeLessThanOrEqual(2);
      expect(Math.min(...each)).toBeGreaterThanOrEqual(Math.floor((2 * max) / n) - 1);
      expect(Math.max(...each)).toBeLessThanOrEqual(Math.ceil((2 * max) / n) + 1);
      expect(crossValidationPairs(n, max)).toEqual(pairs);
    }
  });

  it('reads the runs in the order they ran, the same start kept in the order given', () => {
    const at = (createdAt: string, id: string) => ({ createdAt, id });
    expect(
      inRunOrder([
        at('2026-12-05T12:00:00Z', 'c'),
        at('2026-12-05T11:00:00Z', 'a'),
        at('2026-12-05T12:00:00Z', 'd'),
      ]).map((r) => r.id),
    ).toEqual(['a', 'c', 'd']);
  });

  it('refuses a cap that is not a whole number of pairs', () => {
    expect(() => crossValidationPairs(8, 0)).toThrow(/whole number >= 1/);
    expect(() => crossValidationPairs(8, 2.5)).toThrow(/whole number >= 1/);
  });

  it('calibrateBetweenRuns compares only the sampled pairs', () => {
    const sampled = calibrateBetweenRuns(syntheticRuns(8, 7), { iterations: 999, maxPairs: 10 });
    expect(sampled.falseAlarms.pairs).toBe(10);
    expect(sampled.falseAlarms.compared).toBe(30);
    expect(sampled.processes).toBe(8);
  });

  it('the async calibration gives the same calibration, and stops between pairs once its signal is aborted', async () => {
    const runs = syntheticRuns(8, 11, { process: 7, factor: 0.7 });
    const { createdAt: _a, ...sync } = calibrateBetweenRuns(runs, { iterations: 999 });
    const { createdAt: _b, ...async } = await calibrateBetweenRunsAsync(runs, { iterations: 999 });
    expect(async).toEqual(sync);
    await expect(calibrateBetweenRunsAsync(runs, { signal: { aborted: true } })).rejects.toBeInstanceOf(
      CalibrationInterruptedError,
    );
    // Aborted when the first floor has been tried (this calibration tries more than one): no more is computed.
    const signal = { aborted: false };
    const said: string[] = [];
    const stopped = calibrateBetweenRunsAsync(runs, {
      iterations: 999,
      signal,
      onProgress: (line) => {
        said.push(line);
        signal.aborted = true;
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(CalibrationInterruptedError);
    expect(said).toHaveLength(1);
  });
});

describe('the calibration store', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'layerbench-calibration-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cal = calibrateBetweenRuns(syntheticRuns(4, 9), { iterations: 399, effects: [0.5] });

  it('lives under LAYERBENCH_CALIBRATION_DIR, XDG_CACHE_HOME or ~/.cache', () => {
    expect(calibrationDir({ LAYERBENCH_CALIBRATION_DIR: '/x/y' })).toBe('/x/y');
    expect(calibrationDir({ XDG_CACHE_HOME: '/c' })).toBe(path.join('/c', 'layerbench', 'calibration'));
    expect(calibrationDir({})).toMatch(/\.cache[/\\]layerbench[/\\]calibration$/);
  });

  it('is found for two runs of its machine and runtime, the same --time first, else the nearest', () => {
    expect(findBetweenRunCalibration(env, env, 0.3, dir)).toMatchObject({ found: false });
    const file = saveBetweenRunCalibration(cal, dir);
    expect(path.basename(file)).toBe(calibrationFileName(env, 0.3));
    saveBetweenRunCalibration({ ...cal, timePerCase: 2 }, dir);
    const exact = findBetweenRunCalibration(env, env, 0.3, dir);
    expect(exact).toMatchObject({ found: true, file });
    expect(exact.found && exact.note).toBeFalsy();
    const near = findBetweenRunCalibration(env, env, 1.5, dir);
    expect(near).toMatchObject({ found: true, note: 'calibrated at --time 2, the runs used --time 1.5' });
    expect(findBetweenRunCalibration(env, { ...env, node: '18.0.0' }, 0.3, dir)).toMatchObject({ found: false });
    expect(
      findBetweenRunCalibration({ ...env, machineId: 'other' }, { ...env, machineId: 'other' }, 0.3, dir),
    ).toMatchObject({ found: false });
  });

  it('passes over an unreadable file and names it', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'layerbench-calibration-bad-'));
    try {
      writeFileSync(path.join(other, calibrationFileName(env, 0.3)), '{"kind": "layerbench/between-runs", ');
      const lookup = findBetweenRunCalibration(env, env, 0.3, other);
      expect(lookup.found).toBe(false);
      expect(!lookup.found && lookup.reason).toMatch(/unreadable: .*truncated/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('the calm-relative spread', () => {
  /**
   * K processes of one case: in the slow state throughout in `slowIn` (state
   * probe x1.5, the case x1.3), otherwise in the fast state, each process off
   * by its own 0.4% (sd).
   */
  function probedRuns(
    k: number,
    slowIn: ReadonlySet<number>,
    seed: number,
    modeIn: ReadonlySet<number> = new Set(),
  ): RunResult[] {
    const random = seededRandom(seed);
    return Array.from({ length: k }, (_, r) => {
      const slow = slowIn.has(r);
      // modeIn: a mode of the process's own that the probe does not see (x1.18, probes fast).
      const value = 1000 * Math.exp(0.004 * normalVariate(random)) * (slow ? 1.3 : 1) * (modeIn.has(r) ? 1.18 : 1);
      const sliceMedians = Array.from({ length: 10 }, () => value * (1 + 0.002 * normalVariate(random)));
      const c: CaseResult = {
        ...relativeCase('sha1/1500/wasm', sliceMedians, Array(11).fill(1000)),
        sliceStateProbes: Array.from(
          { length: 11 },
          () => 4400 * (slow ? 1.5 : 1) * (1 + 0.003 * normalVariate(random)),
        ),
      };
      return {
        kind: 'layerbench/run',
        schemaVersion: 1,
        createdAt: `2026-12-02T10:${String(r).padStart(2, '0')}:00Z`,
        suites: ['sha1'],
        options: { timePerCase: 1, reference: 'w', stateProbe: 'store-reload-16x80' },
        env,
        cases: [c],
      };
    });
  }

  it('leaves out a process alone in a mode of its own (at most one in six), and says how many it left out', () => {
    const id = 'sha1/1500/wasm';
    // As measured on 2026-12-03 04:08 UTC: the first of 12 processes x1.18 with fast probes.
    const cal = calibrateBetweenRuns(probedRuns(12, new Set(), 11, new Set([0])), { iterations: 499 });
    expect(cal.cases[id]!.calmModes).toBe(1);
    expect(cal.cases[id]!.processesOn?.['calm-relative']).toBe(11);
    expect(cal.cases[id]!.sigma['calm-relative']!).toBeLessThan(0.01);
    // The other figures keep it: one-process runs are judged with the spread that saw the mode.
    expect(cal.cases[id]!.sigma.median!).toBeGreaterThan(0.04);
    // Two neighbouring processes in it: a state they shared, part of the spread (the run part).
    const shared = calibrateBetweenRuns(probedRuns(12, new Set(), 11, new Set([3, 4])), { iterations: 499 });
    expect(shared.cases[id]!.calmModes).toBeUndefined();
    expect(shared.cases[id]!.sigma['calm-relative']!).toBeGreaterThan(0.04);
    // Met more often than one process in six: part of the spread.
    const often = calibrateBetweenRuns(probedRuns(12, new Set(), 11, new Set([1, 4, 8])), { iterations: 499 });
    expect(often.cases[id]!.calmModes).toBeUndefined();
    expect(often.cases[id]!.sigma['calm-relative']!).toBeGreaterThan(0.04);
  });

  it('keeps a process that is only the tail of a wide group (within calmModeSpreads of the others)', () => {
    // As `sha1/64/dispatch` on 2026-12-03 03:18 UTC: nine calm processes within 0.0559-0.0600, one at 0.0672.
    const figures = [0.0588, 0.0567, 0.0567, 0.0568, 0.06, 0.0672, 0.0587, 0.0572, 0.0559];
    const refs = Array(11).fill(1000);
    const inOrder = figures.map((f) => ({
      ...relativeCase('sha1/64/dispatch', Array(10).fill(1000 * f), refs),
      sliceStateProbes: Array(11).fill(4050),
    }));
    expect(isolatedModes(inOrder).size).toBe(0);
    // The same process 16% out of a group spread 0.4%: a mode of its own.
    const tight = [0.0575, 0.0577, 0.0573, 0.0576, 0.0574, 0.0672, 0.0575, 0.0578, 0.0574].map((f) => ({
      ...relativeCase('sha1/64/dispatch', Array(10).fill(1000 * f), refs),
      sliceStateProbes: Array(11).fill(4050),
    }));
    expect([...isolatedModes(tight)]).toEqual([tight[5]]);
  });

  it("reports runs of k processes on the figure compare would take for them (calibrate's outlook)", () => {
    const id = 'sha1/1500/wasm';
    const withMode = calibrateBetweenRuns(probedRuns(12, new Set(), 11, new Set([0])), { iterations: 499 });
    const plain = calibrateBetweenRuns(probedRuns(12, new Set(), 11), { iterations: 499 });
    const at = (cal: typeof plain, k: number) => severalProcessesOutlook(cal, k)[id]!;
    // One process a side: compare's one-process rule, on the calibration's basis (which saw the mode).
    expect(at(withMode, 1).basis).toBe(withMode.basis);
    expect(at(withMode, 1).sigma).toBeCloseTo(withMode.cases[id]!.sigma[withMode.basis]!, 12);
    // Two a side: the calibration's basis (compare needs three calm processes a side); three: calm figures.
    expect(at(plain, 2).basis).toBe(plain.basis);
    expect(at(withMode, 2).basis).toBe(withMode.basis);
    expect(at(plain, 3).basis).toBe('calm-relative');
    expect(at(withMode, 3).basis).toBe('calm-relative');
    // The figure for two a side is then no better than the mode allows, and three a side is far better.
    expect(at(withMode, 2).minimumDetectableEffect!).toBeGreaterThan(0.1);
    expect(at(withMode, 3).minimumDetectableEffect!).toBeLessThan(0.06);
  });

  it('is measured over the processes whose calm levels agree, and compare then uses it', () => {
    const runs = probedRuns(8, new Set([2, 5]), 7);
    const group = calmGroup(runs.map((r) => r.cases[0]!));
    expect(group).toHaveLength(6);
    const cal = calibrateBetweenRuns(runs, { iterations: 999, random: seededRandom(3) });
    const spread = cal.cases['sha1/1500/wasm']!;
    // One-process runs are compared on another basis; the calm spread serves runs of several processes.
    expect(cal.basis).not.toBe('calm-relative');
    expect(runNoiseFromCalibration(cal).calm).toBe(true);
    expect(spread.processesOn?.['calm-relative']).toBe(6);
    // The level it was measured at: the fast state's.
    expect(spread.calmLevel).toBeGreaterThan(4300);
    expect(spread.calmLevel).toBeLessThan(4500);
    expect(spread.sigma['calm-relative']!).toBeLessThan(0.01);
    // Over all eight processes the relative figure carries the two slow ones.
    expect(spread.sigma['median-relative']!).toBeGreaterThan(0.1);
    // Its degrees of freedom are those of the six processes.
    expect(runNoiseFromCalibration(cal).spreadFor('sha1/1500/wasm', 'calm-relative').dof).toBe(5);
  });

  it('is measured in the fastest state with three processes, and not from fewer', () => {
    const runs = probedRuns(4, new Set([0, 1, 2]), 9);
    // One process in the fast state is too few: the three in the slow one.
    expect(calmGroup(runs.map((r) => r.cases[0]!))).toHaveLength(3);
    // Three in the fast state are taken though five met the slow one.
    const mostlySlow = probedRuns(8, new Set([0, 1, 2, 3, 4]), 10);
    const group = calmGroup(mostlySlow.map((r) => r.cases[0]!))!;
    expect(group).toHaveLength(3);
    expect(group.every((c) => calmLevel(c)! < 5000)).toBe(true);
    expect(calmGroup(probedRuns(4, new Set([0, 1]), 9).map((r) => r.cases[0]!))).toBeUndefined();
  });
});

describe('the spread between neighbouring processes', () => {
  /** Processes in the order they ran: 'drift' steps by 6% halfway (a state kept for minutes), 'flicker' moves 3% from each process to the next. */
  function orderedRuns(k: number, seed: number): RunResult[] {
    const random = seededRandom(seed);
    const slices = (mu: number) => Array.from({ length: 10 }, () => mu * (1 + 0.002 * normalVariate(random)));
    const refs = () => Array.from({ length: 11 }, () => 1000);
    return Array.from({ length: k }, (_, r) => ({
      kind: 'layerbench/run' as const,
      schemaVersion: 1 as const,
      createdAt: `2026-12-03T03:${String(10 + r).padStart(2, '0')}:00Z`,
      suites: ['sha1'],
      options: { timePerCase: 1 },
      env,
      cases: [
        relativeCase('drift', slices(1000 * (r < k / 2 ? 1 : 1.06) * Math.exp(0.003 * normalVariate(random))), refs()),
        relativeCase('flicker', slices(1000 * Math.exp(0.03 * normalVariate(random))), refs()),
      ],
    }));
  }

  it('is the von Neumann estimate over the processes in the order they ran', () => {
    const figures = [1, 1.02, 0.99, 1.01, 1, 1.03];
    const cases = figures.map((f) => relativeCase('c', Array(10).fill(1000 * f), Array(11).fill(1000)));
    const logs = figures.map(Math.log);
    const expected = Math.sqrt(logs.slice(1).reduce((sum, v, i) => sum + (v - logs[i]!) ** 2, 0) / 5 / 2);
    expect(neighbourSigmaOf(cases, 'median')).toBeCloseTo(expected, 10);
    // Fewer than minNeighbourPairs pairs: not measured.
    expect(neighbourSigmaOf(cases.slice(0, minNeighbourPairs), 'median')).toBeUndefined();
    // A process without the figure: not measured.
    expect(neighbourSigmaOf(cases, 'fastest')).toBeUndefined();
  });

  it('pairs only processes of one sitting: a calibration from runs kept at two times measures the run part across the gap', () => {
    // Two sittings of 8 processes an hour apart (processes 10 s apart); the second 4% slower throughout.
    const random = seededRandom(57);
    const refs = () => Array.from({ length: 11 }, () => 1000);
    const sitting = (start: number, level: number): RunResult[] =>
      Array.from({ length: 8 }, (_, r) => ({
        kind: 'layerbench/run' as const,
        schemaVersion: 1 as const,
        createdAt: new Date(start + r * 10_000).toISOString(),
        suites: ['sha1'],
        options: { timePerCase: 1 },
        env,
        cases: [relativeCase('c', Array(10).fill(1000 * level * Math.exp(0.004 * normalVariate(random))), refs())],
      }));
    const t0 = Date.parse('2026-12-03T07:00:00Z');
    const runs = [...sitting(t0, 1), ...sitting(t0 + 3_600_000, 1.04)];
    expect(sittingsOf(runs)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    // One sitting: everything is neighbours; a start more than 3x the usual spacing late begins a new one.
    expect(sittingsOf(runs.slice(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const stalled = runs
      .slice(0, 8)
      .map((r, i) => (i < 5 ? r : { ...r, createdAt: new Date(Date.parse(r.createdAt) + 25_000).toISOString() }));
    expect(sittingsOf(stalled)).toEqual([0, 0, 0, 0, 0, 1, 1, 1]);
    const cal = calibrateBetweenRuns(runs, { iterations: 499 });
    const c = cal.cases.c!;
    // sigma carries the 4% step (about 2%); the neighbour part is the 0.4% of one process to the next, not the
    // step: the pair across the gap is no neighbour pair (counted, it would add about 1% alone).
    expect(c.sigma.median!).toBeGreaterThan(0.018);
    expect(c.sigmaNeighbour!.median!).toBeLessThan(0.007);
    const cases = runs.map((r) => r.cases[0]!);
    const across = neighbourSigmaOf(cases, 'median')!;
    expect(across).toBeGreaterThan(c.sigmaNeighbour!.median!);
    // Fewer than minNeighbourPairs pairs within sittings: not measured.
    const inTwos = (x: CaseResult) => Math.floor(cases.indexOf(x) / 2);
    expect(neighbourSigmaOf(cases.slice(0, 8), 'median', inTwos)).toBeUndefined();
    expect(neighbourSigmaOf(cases.slice(0, 8), 'median')).toBeDefined();
  });

  it('leaves a state shared by consecutive processes to the run part, and calibrate reads the processes in the order they ran', () => {
    const runs = orderedRuns(12, 41);
    const cal = calibrateBetweenRuns(runs, { iterations: 499 });
    const drift = cal.cases.drift!;
    const flicker = cal.cases.flicker!;
    // The 6% step: in sigma (about 3%), hardly between neighbours (one pair of eleven crosses it).
    expect(drift.sigma.median!).toBeGreaterThan(0.025);
    expect(drift.sigmaNeighbour!.median!).toBeLessThan(drift.sigma.median! * 0.6);
    // Independent processes: the two estimates agree (and the neighbour one is never above sigma).
    expect(flicker.sigmaNeighbour!.median!).toBeGreaterThan(flicker.sigma.median! * 0.6);
    expect(flicker.sigmaNeighbour!.median!).toBeLessThanOrEqual(flicker.sigma.median!);
    // Given shuffled, the runs are put back in the order they ran: the same spreads.
    const shuffled = [...runs.slice(6), ...runs.slice(0, 6).reverse()];
    const again = calibrateBetweenRuns(shuffled, { iterations: 499 });
    expect(again.cases.drift!.sigmaNeighbour).toEqual(drift.sigmaNeighbour);
    // compare's model carries the neighbour part beside sigma.
    const spread = runNoiseFromCalibration(cal).spreadFor('drift', cal.basis);
    expect(spread.neighbour).toBe(drift.sigmaNeighbour![cal.basis]);
    expect(spread.sigma).toBe(Math.max(drift.sigma[cal.basis]!, cal.floor.sigma));
  });

  it('counts at least half of a calibrated spread as the run part, whatever the neighbours showed', () => {
    // Measured 2026-12-03: a 16-process calibration found sha1/64/dispatch's calm spread, 3.93%, all between
    // neighbours; two runs of identical code ten minutes later (their calm figures below) sat 10% apart.
    const calibration = {
      createdAt: '2026-12-03T09:20:45Z',
      processes: 16,
      timePerCase: 1,
      basis: 'fastest-low' as const,
      pooled: { 'fastest-low': { p50: 0.09, p90: 0.13 }, 'calm-relative': { p50: 0.025, p90: 0.07 } },
      floor: { quantile: 1, sigma: 0.14 },
      cases: {
        'sha1/64/dispatch': {
          n: 16,
          medianNs: 288,
          sigma: { 'fastest-low': 0.143, 'calm-relative': 0.0393 },
          processesOn: { 'calm-relative': 12 },
          sigmaNeighbour: { 'fastest-low': 0.142, 'calm-relative': 0.0393 },
          calmLevel: 4071,
        },
      },
    };
    const spread = runNoiseFromCalibration(calibration).spreadFor('sha1/64/dispatch', 'calm-relative');
    expect(minRunShare).toBe(0.5);
    expect(spread.sigma).toBe(0.0393);
    expect(spread.neighbour).toBeCloseTo(0.0393 * Math.sqrt(0.75), 12);
    expect(runPartOf(spread)).toBeCloseTo(0.0393 / 2, 12);
    const base = [0.0636, 0.0591, 0.0595, 0.0587];
    const head = [0.0586, 0.0537, 0.0542, 0.0525, 0.0538];
    const options = { threshold: 0.02, alpha: 0.01, iterations: 9999 };
    const judged = compareProcessFigures(base, head, { ...spread, dof: 18 }, { ...options, random: seededRandom(5) });
    expect(judged.ratio).toBeCloseTo(0.906, 3);
    expect(judged.verdict).toBe('inconclusive');
    // All of it between neighbours, as measured (pooled with the files' own: 18 degrees of freedom), had called
    // the unchanged code improved.
    const split = { sigma: 0.0393, dof: 18, neighbour: 0.0393 };
    expect(compareProcessFigures(base, head, split, { ...options, random: seededRandom(5) }).verdict).toBe('improved');
  });
});
