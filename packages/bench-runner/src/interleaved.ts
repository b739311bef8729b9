// Interleaved A/B measurement: variants of the same case are measured in
// alternating short slices (round r starts with variant r mod k: AB BA AB...)
// and each variant's samples are pooled, so slow drift of a shared machine
// (frequency, neighbours, thermal) lands on every variant alike and cancels in
// the ratio.
//
// The statistics work on rounds, not on single samples: every slice is a fresh
// compilation of the timing loop, and its code layout can shift a slice by a
// few percent, so samples within a slice are not independent. Per round we
// take each variant's slice median and compare the rounds paired
// (compareRounds in verdict.ts). (Pooling all samples gave CIs far too
// narrow: 7% false alarms in A/A calibration.)
import { compareRounds, type CompareOptions } from './stats/verdict.js';
import {
  checkDigest,
  checkTimePerCase,
  emptyCaseResult,
  failCase,
  prepareCase,
  safeTeardown,
  warmupSeconds,
  type PreparedCase,
} from './run.js';
import { computeStats, median } from './stats/stats.js';
import { batchSize, createCaseTimer, sampleTargetNs } from './timing.js';
import type { CaseTimer } from './timing.js';
import type { BenchCase, CaseResult, InterleavedResult } from './types.js';

export interface InterleavedOptions extends CompareOptions {
  /** Seconds of measurement per variant over all rounds (default 1). */
  timePerCase?: number;
  /**
   * Alternating rounds; each gives every variant timePerCase/rounds seconds.
   * Default: 20 ms slices (timePerCase / 0.02), at least 10 rounds. Short
   * slices matter on a shared machine: its slow phases last tens to hundreds
   * of milliseconds, and a round only cancels what hits both of its slices.
   */
  rounds?: number;
}

/** Rounds for 20 ms slices, at least 10. */
export function defaultRounds(timePerCase: number): number {
  return Math.max(10, Math.round(timePerCase / 0.02));
}

interface Slot {
  prepared?: PreparedCase;
  timer?: CaseTimer;
  result: CaseResult;
  batch: number;
  samples: number[];
  /** Median of this variant's slice in each round (NaN when the slice failed). */
  roundMedians: number[];
}

export async function runInterleaved(
  variants: BenchCase[],
  options: InterleavedOptions = {},
): Promise<InterleavedResult> {
  const timePerCase = options.timePerCase ?? 1;
  const rounds = options.rounds ?? defaultRounds(timePerCase);
  checkTimePerCase(timePerCase);
  if (!(Number.isInteger(rounds) && rounds >= 1))
    throw new RangeError(`rounds must be a positive integer, got ${rounds}`);
  if (variants.length < 1) throw new RangeError('runInterleaved needs at least one variant');

  const slots: Slot[] = [];
  for (const variant of variants) {
    const slot: Slot = { result: emptyCaseResult(variant), batch: 1, samples: [], roundMedians: [] };
    try {
      slot.prepared = await prepareCase(variant, slot.result);
      slot.timer = await createCaseTimer(slot.prepared.instance, slot.prepared.async, warmupSeconds(timePerCase));
      // About 16 batch samples per slice, so each slice has a stable median.
      slot.batch = batchSize(
        slot.timer.nsPerOp,
        Math.max(50_000, Math.min(sampleTargetNs(timePerCase), ((timePerCase / rounds) * 1e9) / 16)),
      );
    } catch (error) {
      failCase(slot.result, error);
    }
    slots.push(slot);
  }

  // Every variant was warmed before the next one was set up and warmed; code
  // shared by several variants (a library's dispatcher, a helper) may since
  // have been re-optimised for the later ones and dropped for the earlier
  // (sha1-dispatch's 64-byte dispatcher case: 1533 ns in round 0, ~450 after).
  // So each is settled once more, now that all have run, before round 0.
  for (const slot of slots) {
    if (slot.result.status !== 'ok' || !slot.timer) continue;
    try {
      slot.timer.rewarm();
    } catch (error) {
      failCase(slot.result, error);
    }
  }

  const slice = timePerCase / rounds;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[(round + k) % slots.length]!;
      if (slot.result.status !== 'ok' || !slot.timer) continue;
      try {
        const samples = await slot.timer.measure(slice, slot.batch);
        for (const s of samples) slot.samples.push(Math.round(s * 1000) / 1000);
        slot.roundMedians[round] = median(samples);
      } catch (error) {
        failCase(slot.result, error);
      }
    }
  }

  for (const slot of slots) {
    if (slot.result.status === 'ok' && slot.prepared) {
      try {
        checkDigest(slot.prepared.instance, slot.result, 'after timing');
        slot.result.samples = slot.samples;
        slot.result.stats = computeStats(slot.samples, slot.result.bytesPerOp);
      } catch (error) {
        failCase(slot.result, error);
      }
    }
    const teardownError = safeTeardown(slot.prepared?.instance);
    if (teardownError && slot.result.status === 'ok') failCase(slot.result, teardownError);
  }

  const cases = slots.map((s) => s.result);
  const reference = cases[0]!;
  const ratios: InterleavedResult['ratios'] = [];
  if (reference.status === 'ok') {
    for (const c of cases.slice(1)) {
      if (c.status !== 'ok') continue;
      const slot = slots[cases.indexOf(c)]!;
      const cmp = compareRounds(slots[0]!.roundMedians, slot.roundMedians, options);
      ratios.push({ id: c.id, ratio: cmp.ratio, ci: cmp.ratioCi, pValue: cmp.pValue, verdict: cmp.verdict });
    }
  }
  return { cases, ratios, rounds, roundMedians: slots.map((s) => s.roundMedians) };
}
