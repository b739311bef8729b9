// Interleaved A/B measurement: variants of the same case are measured in
// alternating short slices (round r starts with variant r mod k: AB BA AB...)
// and each variant's samples are pooled, so slow drift of a shared machine
// (frequency, neighbours, thermal) lands on every variant alike and cancels in
// the ratio.
import { compareSamples, type CompareOptions } from './compare.js';
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
import { computeStats } from './stats.js';
import { batchSize, measureSamples, sampleTargetNs, warmUp } from './timing.js';
import type { BenchCase, CaseResult, InterleavedResult } from './types.js';

export interface InterleavedOptions extends CompareOptions {
  /** Seconds of measurement per variant over all rounds (default 1). */
  timePerCase?: number;
  /** Alternating rounds (default 10); each round gives every variant timePerCase/rounds seconds. */
  rounds?: number;
}

interface Slot {
  prepared?: PreparedCase;
  result: CaseResult;
  batch: number;
  samples: number[];
}

export async function runInterleaved(variants: BenchCase[], options: InterleavedOptions = {}): Promise<InterleavedResult> {
  const timePerCase = options.timePerCase ?? 1;
  const rounds = options.rounds ?? 10;
  checkTimePerCase(timePerCase);
  if (!(Number.isInteger(rounds) && rounds >= 1)) throw new RangeError(`rounds must be a positive integer, got ${rounds}`);
  if (variants.length < 1) throw new RangeError('runInterleaved needs at least one variant');

  const slots: Slot[] = [];
  for (const variant of variants) {
    const slot: Slot = { result: emptyCaseResult(variant), batch: 1, samples: [] };
    try {
      slot.prepared = await prepareCase(variant, slot.result);
      const warm = await warmUp(slot.prepared.call, warmupSeconds(timePerCase));
      slot.batch = batchSize(warm.nsPerOp, sampleTargetNs(timePerCase));
    } catch (error) {
      failCase(slot.result, error);
    }
    slots.push(slot);
  }

  const slice = timePerCase / rounds;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[(round + k) % slots.length]!;
      if (slot.result.status !== 'ok' || !slot.prepared) continue;
      try {
        const samples = await measureSamples(slot.prepared.call, slice, slot.batch);
        for (const s of samples) slot.samples.push(Math.round(s * 1000) / 1000);
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
      const cmp = compareSamples(reference.samples, c.samples, options);
      ratios.push({ id: c.id, ratio: cmp.ratio, ci: cmp.ratioCi, pValue: cmp.pValue, verdict: cmp.verdict });
    }
  }
  return { cases, ratios, rounds };
}
