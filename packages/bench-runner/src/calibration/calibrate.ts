// calibrate(): what can this machine detect? A/A comparisons (the same code
// against itself) give the false-alarm rate; A/B comparisons with a known
// amount of extra work (1, 2, 3, 5, 10% more iterations of a fixed loop) give
// the detection rate per effect size, and so the minimum detectable effect:
// the smallest change found with >= 95% power at this time per case.
import { collectEnv } from '../env.js';
import { defaultRounds, runInterleaved } from '../interleaved.js';
import { compareRounds, defaultAlpha, defaultThreshold } from '../stats/verdict.js';
import { measureOverhead } from '../run.js';
import { computeStats, mad, median } from '../stats/stats.js';
import type { BenchCase, Calibration, CalibrationEffect, RunOptions, SampleComparison, Verdict } from '../types.js';

/**
 * One repeat for an effect size (0 = A/A): paired per-round medians (ns per
 * op) of the base and head variants, compared with compareRounds.
 */
export type CalibrationSampleSource = (
  effect: number,
  repeat: number,
) => Promise<{ base: number[]; head: number[] }> | { base: number[]; head: number[] };

export interface CalibrateOptions {
  /** Seconds per variant per comparison (default 1). */
  timePerCase?: number;
  /** Comparisons per effect size, A/A included (default 20). */
  repeats?: number;
  /** Relative extra work of the A/B variants (default 1, 2, 3, 5, 10%). */
  effects?: number[];
  threshold?: number;
  alpha?: number;
  /** Interleaved rounds per comparison (default: runInterleaved's, 20 ms slices). */
  rounds?: number;
  /** Iterations of the inner loop of the base workload (default 2000, about 1-2 µs). */
  workIterations?: number;
  onProgress?: (message: string) => void;
  /** Replaces real timing, e.g. with synthetic samples in tests. */
  sampleSource?: CalibrationSampleSource;
  /** Skip the empty-case measurement (default false; always skipped with a sampleSource). */
  skipOverhead?: boolean;
  env?: RunOptions['env'];
  /** Stops between comparisons: calibrate() then rejects with a CalibrationInterruptedError. */
  signal?: { readonly aborted: boolean };
}

/** calibrate() was stopped through its signal (Ctrl-C); nothing was measured to the end. */
export class CalibrationInterruptedError extends Error {
  override name = 'CalibrationInterruptedError';
}

export const defaultEffects: readonly number[] = [0.01, 0.02, 0.03, 0.05, 0.1];
/** Detection rate at which an effect counts as reliably detectable. */
export const requiredPower = 0.95;

/** 95% Wilson score interval of a proportion. */
export function wilsonInterval(successes: number, trials: number): [number, number] {
  if (trials === 0) return [0, 1];
  const z = 1.959963984540054;
  const p = successes / trials;
  const denom = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function emptyVerdicts(): Record<Verdict, number> {
  return { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
}

/** Summarises the comparisons of one effect size. */
export function summarizeEffect(
  effect: number,
  outcomes: readonly SampleComparison[],
  alpha: number,
): CalibrationEffect {
  const verdicts = emptyVerdicts();
  let significant = 0;
  for (const o of outcomes) {
    verdicts[o.verdict]++;
    if (o.pValue < alpha) significant++;
  }
  const n = outcomes.length;
  return {
    effect,
    repeats: n,
    detectionRate: n > 0 ? verdicts.regressed / n : 0,
    detectionCi: wilsonInterval(verdicts.regressed, n),
    significantRate: n > 0 ? significant / n : 0,
    medianRatio: n > 0 ? median(outcomes.map((o) => o.ratio)) : 1,
    verdicts,
    outcomes: [...outcomes],
  };
}

/**
 * The smallest tested effect detected with >= 95% power such that every
 * larger tested effect is too (a noisy dip at a larger effect means the
 * smaller success was luck); null when none qualifies.
 */
export function minimumDetectableEffect(effects: readonly CalibrationEffect[]): number | null {
  const sorted = [...effects].sort((a, b) => a.effect - b.effect);
  let mde: number | null = null;
  for (let i = sorted.length - 1; i >= 0; i--) {
    if (sorted[i]!.detectionRate >= requiredPower) mde = sorted[i]!.effect;
    else break;
  }
  return mde;
}

let workSink = 1;

/** The fixed inner loop of the calibration workload: `iterations` xorshift steps. */
export function calibrationWork(seed: number, iterations: number): number {
  let x = seed | 0;
  for (let i = 0; i < iterations; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

function workCase(id: string, iterations: number): BenchCase {
  return {
    id,
    layer: 'bench-runner',
    params: { iterations },
    setup: () => ({
      fn: () => (workSink = calibrationWork(workSink, iterations)),
      digest: () => 'calibration',
    }),
  };
}

/** The real sample source: interleaved runs of the workload with and without extra iterations. */
export function timedSampleSource(options: {
  timePerCase: number;
  rounds: number;
  workIterations: number;
}): CalibrationSampleSource {
  return async (effect) => {
    const extra = Math.round(options.workIterations * (1 + effect));
    const result = await runInterleaved([workCase('base', options.workIterations), workCase('head', extra)], {
      timePerCase: options.timePerCase,
      rounds: options.rounds,
    });
    const [base, head] = result.cases;
    if (base!.status !== 'ok' || head!.status !== 'ok' || !result.roundMedians) {
      throw new Error(`calibration workload failed: ${base!.error?.message ?? head!.error?.message}`);
    }
    return { base: result.roundMedians[0]!, head: result.roundMedians[1]! };
  };
}

export async function calibrate(options: CalibrateOptions = {}): Promise<Calibration> {
  const timePerCase = options.timePerCase ?? 1;
  const repeats = options.repeats ?? 20;
  const effects = options.effects ?? [...defaultEffects];
  const threshold = options.threshold ?? defaultThreshold;
  const alpha = options.alpha ?? defaultAlpha;
  if (!(Number.isInteger(repeats) && repeats >= 1))
    throw new RangeError(`repeats must be a positive integer, got ${repeats}`);
  for (const e of effects) {
    if (!(e > 0 && e < 10)) throw new RangeError(`effects must be relative sizes in (0, 10), got ${e}`);
  }
  const env = collectEnv(options.env);
  const rounds = options.rounds ?? defaultRounds(timePerCase);
  const source =
    options.sampleSource ?? timedSampleSource({ timePerCase, rounds, workIterations: options.workIterations ?? 2000 });
  const say = options.onProgress ?? (() => undefined);

  let overhead: Calibration['overhead'] = { medianNs: 0, madNs: 0, ci: [0, 0] };
  if (!options.sampleSource && !options.skipOverhead) {
    const measured = await measureOverhead(timePerCase);
    const stats = computeStats(measured.samples);
    overhead = { medianNs: stats.median, madNs: stats.mad, ci: stats.ci };
    say(`empty case: ${stats.median.toFixed(3)} ns/op (MAD ${stats.mad.toFixed(3)})`);
  }

  const outcomesFor = async (effect: number): Promise<SampleComparison[]> => {
    const outcomes: SampleComparison[] = [];
    for (let r = 0; r < repeats; r++) {
      // A macrotask turn: the timing loops are synchronous, and a SIGINT handler only runs between them.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) throw new CalibrationInterruptedError('calibration interrupted');
      const { base, head } = await source(effect, r);
      const outcome = compareRounds(base, head, { threshold, alpha });
      outcomes.push(outcome);
      say(
        `${effect === 0 ? 'A/A' : `A/B +${(effect * 100).toFixed(0)}%`} ${r + 1}/${repeats}: ratio ${outcome.ratio.toFixed(4)} ` +
          `[${outcome.ratioCi[0].toFixed(4)}, ${outcome.ratioCi[1].toFixed(4)}] p=${outcome.pValue.toPrecision(2)} ${outcome.verdict}`,
      );
    }
    return outcomes;
  };

  const aa = await outcomesFor(0);
  const falseAlarms = aa.filter((o) => o.verdict === 'regressed' || o.verdict === 'improved').length;
  const aaRatios = aa.map((o) => o.ratio);
  const summaries: CalibrationEffect[] = [];
  for (const effect of effects) summaries.push(summarizeEffect(effect, await outcomesFor(effect), alpha));

  return {
    kind: 'layerbench/calibration',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    env: { ...env, loadAvgEnd: collectEnv().loadAvgEnd },
    timePerCase,
    repeats,
    threshold,
    alpha,
    falseAlarmRate: falseAlarms / repeats,
    falseAlarmCi: wilsonInterval(falseAlarms, repeats),
    aaRatio: { median: median(aaRatios), mad: mad(aaRatios) },
    aaOutcomes: aa,
    rounds,
    effects: summaries,
    minimumDetectableEffect: minimumDetectableEffect(summaries),
    overhead,
  };
}
