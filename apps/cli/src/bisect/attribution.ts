// Layer attribution: from the pooled samples of the bisection variants of one
// case, the total change (all-bad / all-good) and each layer's share, measured
// two ways — swapped from the bad side into the good stack ("in"), and taken
// back out of the bad stack ("out") — then which layers explain the change and
// whether the parts add up to the whole. Pure: the sample comparison is passed
// in (bench-runner's compareSamples), so this is testable on sample arrays.
import type { Verdict } from '@layerbench/bench-runner';
import { formatRatio } from './format.js';

export interface Effect {
  /** head / base of medians: > 1 is slower. */
  ratio: number;
  ci: [number, number];
  pValue: number;
  verdict: Verdict;
}

export type CompareSamples = (base: number[], head: number[]) => Effect;

/** Variant ids: 'good', 'bad', 'good+<layer>' (that layer from bad), 'bad-<layer>' (that layer from good). */
export function swapInId(layer: string): string {
  return `good+${layer}`;
}
export function swapOutId(layer: string): string {
  return `bad-${layer}`;
}

export interface LayerShare {
  layer: string;
  /** good+L vs good: the bad version of L alone, in the good stack. */
  swapIn?: Effect;
  /** bad vs bad-L: what taking L back to its good version undoes. */
  swapOut?: Effect;
  /** Fraction of the total change (in log terms) this layer accounts for, averaged over in and out. */
  share?: number;
  explains: boolean;
  /** Why a variant of this layer has no numbers for this case. */
  problem?: string;
}

export interface CaseAttribution {
  id: string;
  status: 'ok' | 'failed';
  total?: Effect;
  layers: LayerShare[];
  /** The layers whose swap reproduces the change, largest share first. */
  attributed: string[];
  /** Set when the parts do not add up to the whole, or a layer's effect depends on the others. */
  interaction?: string;
  problem?: string;
}

export interface CaseSamples {
  /** Samples per variant id; a missing or empty entry means that variant could not run this case. */
  samples: Record<string, number[] | undefined>;
  /** Why a variant has no samples (mix does not load, the case failed in it). */
  problems: Record<string, string | undefined>;
}

function significant(effect: Effect | undefined): boolean {
  return effect !== undefined && (effect.verdict === 'regressed' || effect.verdict === 'improved');
}

/**
 * Attributes one case's change. `threshold` is the relative change below which
 * a mismatch between the parts and the whole is not worth a note.
 */
export function attributeCase(
  id: string,
  layers: readonly string[],
  input: CaseSamples,
  compare: CompareSamples,
  threshold: number,
): CaseAttribution {
  const good = input.samples['good'];
  const bad = input.samples['bad'];
  if (!good?.length) {
    return { id, status: 'failed', layers: [], attributed: [], problem: `the all-good stack has no samples: ${input.problems['good'] ?? 'not measured'}` };
  }
  if (!bad?.length) {
    // No whole to attribute, but each layer swapped into the good stack still says what it does alone.
    const alone: LayerShare[] = layers.map((layer) => {
      const inSamples = input.samples[swapInId(layer)];
      const share: LayerShare = { layer, explains: false };
      if (inSamples?.length) share.swapIn = compare(good, inSamples);
      else share.problem = `${swapInId(layer)}: ${input.problems[swapInId(layer)] ?? 'not measured'}`;
      return share;
    });
    return {
      id,
      status: 'failed',
      layers: alone,
      attributed: [],
      problem: `the all-bad stack has no samples: ${input.problems['bad'] ?? 'not measured'}`,
    };
  }
  const total = compare(good, bad);
  const logTotal = Math.log(total.ratio);
  const shares: LayerShare[] = layers.map((layer) => {
    const inSamples = input.samples[swapInId(layer)];
    const outSamples = input.samples[swapOutId(layer)];
    const share: LayerShare = { layer, explains: false };
    const problems: string[] = [];
    if (inSamples?.length) share.swapIn = compare(good, inSamples);
    else problems.push(`${swapInId(layer)}: ${input.problems[swapInId(layer)] ?? 'not measured'}`);
    if (outSamples?.length) share.swapOut = compare(outSamples, bad);
    else problems.push(`${swapOutId(layer)}: ${input.problems[swapOutId(layer)] ?? 'not measured'}`);
    if (problems.length) share.problem = problems.join('; ');
    const logs = [share.swapIn, share.swapOut].filter((e): e is Effect => e !== undefined).map((e) => Math.log(e.ratio));
    // A share of a change that is not there is noise over noise: only for a significant total.
    if (logs.length && significant(total)) share.share = logs.reduce((a, b) => a + b, 0) / logs.length / logTotal;
    return share;
  });

  const direction = total.verdict;
  const changed = direction === 'regressed' || direction === 'improved';
  for (const s of shares) {
    // A layer explains the change when swapping it reproduces a change in the same direction.
    s.explains = changed && [s.swapIn, s.swapOut].some((e) => e?.verdict === direction);
  }
  const attributed = shares
    .filter((s) => s.explains)
    .sort((a, b) => (b.share ?? 0) - (a.share ?? 0))
    .map((s) => s.layer);

  const notes: string[] = [];
  const swapIns = shares.filter((s) => s.swapIn !== undefined);
  if (changed && swapIns.length === shares.length && shares.length > 0) {
    const product = swapIns.reduce((p, s) => p * s.swapIn!.ratio, 1);
    const gap = Math.abs(Math.log(product) - logTotal);
    const outsideCi = product < total.ci[0] || product > total.ci[1];
    if (gap > Math.log(1 + threshold) && outsideCi) {
      notes.push(
        `the parts do not add up: one layer at a time they give ${formatRatio(product)}, the whole change is ${formatRatio(total.ratio)}`,
      );
    }
  }
  for (const s of shares) {
    if (!s.swapIn || !s.swapOut) continue;
    const inOnly = significant(s.swapIn) && s.swapOut.ci[0] <= 1 && s.swapOut.ci[1] >= 1;
    const outOnly = significant(s.swapOut) && s.swapIn.ci[0] <= 1 && s.swapIn.ci[1] >= 1;
    if (inOnly || outOnly) {
      notes.push(
        `${s.layer} depends on the other layers: ${formatRatio(s.swapIn.ratio)} into the good stack, ${formatRatio(s.swapOut.ratio)} out of the bad one`,
      );
    }
  }
  if (changed && attributed.length === 0 && shares.length > 0) {
    notes.push('no single layer reproduces the change: it needs several layers together');
  }

  const result: CaseAttribution = { id, status: 'ok', total, layers: shares, attributed };
  if (notes.length) result.interaction = notes.join('; ');
  return result;
}
