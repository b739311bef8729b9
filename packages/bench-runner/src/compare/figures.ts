// Which numbers of a case a comparison uses. A case's samples within one
// timing loop are not independent, so comparisons use per-slice medians (at
// least minSlices a side); relative figures divide each slice median by the
// reference workload timed just before and after it (see reference.ts).
import { median } from '../stats/stats.js';
import type { CaseResult, FigureBasis } from '../results/schemas.js';

/** Slice medians needed on both sides to compare at slice level. */
export const minSlices = 5;

export type FigureMethod = 'relative' | 'slices' | 'samples';

function relativeOf(c: CaseResult): number[] | undefined {
  return c.reference !== undefined && (c.relativeSliceMedians?.length ?? 0) >= minSlices ? c.relativeSliceMedians : undefined;
}

function slicesOf(c: CaseResult): number[] | undefined {
  return (c.sliceMedians?.length ?? 0) >= minSlices ? c.sliceMedians : undefined;
}

/**
 * The values to compare for one case measured in two runs: relative figures
 * when `basis` is relative and both have them against the same reference
 * workload, else slice medians when both have enough, else pooled samples.
 */
export function pairFigures(
  base: CaseResult,
  head: CaseResult,
  basis: FigureBasis,
): { method: FigureMethod; base: number[]; head: number[] } {
  const rb = relativeOf(base);
  const rh = relativeOf(head);
  if (basis === 'relative' && rb && rh && base.reference!.work === head.reference!.work) {
    return { method: 'relative', base: rb, head: rh };
  }
  const sb = slicesOf(base);
  const sh = slicesOf(head);
  if (sb && sh) return { method: 'slices', base: sb, head: sh };
  return { method: 'samples', base: base.samples, head: head.samples };
}

/** One run's figure of a case on a basis (the median of its slice values), or undefined when it has none. */
export function caseFigure(c: CaseResult, basis: FigureBasis): number | undefined {
  if (c.status !== 'ok') return undefined;
  const values = basis === 'relative' ? relativeOf(c) : (slicesOf(c) ?? (c.samples.length > 0 ? c.samples : undefined));
  return values === undefined ? undefined : median(values);
}

/** The method's basis for looking up a spread. */
export function basisOf(method: FigureMethod): FigureBasis {
  return method === 'relative' ? 'relative' : 'raw';
}
