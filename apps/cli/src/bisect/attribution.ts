// Layer attribution for one case, from the comparisons of its variants: the
// total change (all-bad / all-good), the A/A control (the good stack in
// processes of its own / the good stack: the noise floor of this case,
// measured in the same rounds), and per layer the swap in (good+L / good: the
// bad version of L alone in the good stack) and the swap out (bad / bad-L:
// what taking L back to its good version undoes).
//
// A layer explains the change when BOTH swaps reproduce it, each
// - significant by the one verdict rule, in the direction of the change, and
// - beyond the A/A control: the swap's ratio over the control's ratio
//   (control / good, two copies of the same stack) is itself significant in
//   that direction, so a difference no bigger than identical stacks show is
//   no evidence;
// or when its two swaps TOGETHER reproduce it: the layer's main effect (the
// geometric mean of in and out, the factorial design's estimate, measured
// twice as often as either swap) passes the same two tests, each swap's
// interval excludes no change that way, and the two swaps do not differ significantly (in / out at
// threshold 0: no evidence that the layer's effect depends on the rest of the
// stack). With one differing layer, good+L is the bad stack and bad-L the good
// one: the two swaps are replicates of the whole change, and requiring each to
// pass alone had left the only candidate unnamed (x1.057 regressed, "(in
// only)"). A layer that reproduces the change one way only, and not together,
// is named as such and not attributed. Pure: the comparison is passed in, so
// this is tested on synthetic values.
import type { Verdict } from '@layerbench/bench-runner';
import { formatEffect, formatRatio } from '@layerbench/bench-runner/reporters';

export interface Effect {
  /** head / base: > 1 is slower. */
  ratio: number;
  ci: [number, number];
  pValue: number;
  verdict: Verdict;
}

/** The comparisons of one case's variants (from the process model in the bisect; given directly in tests). */
export interface CaseComparisons {
  /** head / base for two variant ids, or undefined when either has no values. */
  compare(base: string, head: string): Effect | undefined;
  /**
   * (head / base) / (control / good): how far a swap's effect exceeds the A/A
   * control's, verdict at threshold 0 (significant or not). Undefined without values.
   */
  overControl(base: string, head: string): Effect | undefined;
  /**
   * A layer's two swaps together, undefined when either has no values:
   * `effect` = exp(mean of log in and log out), verdict at the run's
   * threshold; `overControl` = that over the A/A control (control / good),
   * verdict at threshold 0; `inOverOut` = in / out, verdict at threshold 0
   * (significant: the layer's effect depends on the other layers).
   */
  together(layer: string): { effect: Effect; overControl: Effect; inOverOut: Effect } | undefined;
}

/** The weights of a layer's main effect over the variants (in and out averaged, in log terms). */
export function mainEffectWeights(layer: string): Record<string, number> {
  return { [swapInId(layer)]: 0.5, good: -0.5, bad: 0.5, [swapOutId(layer)]: -0.5 };
}

/** The weights of in / out: (good+L / good) / (bad / bad-L). */
export function inOverOutWeights(layer: string): Record<string, number> {
  return { [swapInId(layer)]: 1, good: -1, bad: -1, [swapOutId(layer)]: 1 };
}

/** Variant ids: 'good', 'bad', 'control', 'good+<layer>' (that layer from bad), 'bad-<layer>' (that layer from good). */
export const CONTROL_ID = 'control';
export function swapInId(layer: string): string {
  return `good+${layer}`;
}
export function swapOutId(layer: string): string {
  return `bad-${layer}`;
}

/** Which swaps of a layer reproduce the change. */
export type Reproduced = 'both' | 'in' | 'out' | 'neither';

/** How an explaining layer was established: each swap alone, or the two together. */
export type ExplainedBy = 'each' | 'together';

export interface LayerShare {
  layer: string;
  /** good+L vs good. */
  swapIn?: Effect;
  /** bad vs bad-L. */
  swapOut?: Effect;
  /** Fraction of the total change (in log terms) this layer accounts for, averaged over in and out. */
  share?: number;
  reproduced: Reproduced;
  /** Both swaps reproduce the change, or the two together do: the layer is attributed. */
  explains: boolean;
  /** The two swaps together (main effect), when both were measured and the case changed. */
  together?: Effect;
  /** Set when explains: 'each' (both swaps alone) or 'together' (their main effect). */
  explainedBy?: ExplainedBy;
  /** Why a swap of this layer has no numbers for this case. */
  problem?: string;
}

export interface CaseAttribution {
  total: Effect;
  control?: Effect;
  layers: LayerShare[];
  /** The layers that explain the change (both ways), largest share first. */
  attributed: string[];
  /** The layers that reproduce it one way only and not together (not attributed). */
  oneWay: string[];
  /** Plain sentences: one-way layers, parts that do not add up, an A/A control that moved. */
  notes: string[];
}

const changed = (v: Verdict | undefined): v is 'regressed' | 'improved' => v === 'regressed' || v === 'improved';

/** Whether a swap shows the change `direction`: significant that way, and significantly beyond the A/A control. */
export function reproduces(
  effect: Effect | undefined,
  overControl: Effect | undefined,
  direction: 'regressed' | 'improved',
): boolean {
  return effect?.verdict === direction && overControl?.verdict === direction;
}

/**
 * Whether a layer's two swaps together explain the change `direction`: their
 * main effect significant that way by the verdict rule and beyond the A/A
 * control, each swap's interval excluding no change that way (a layer that
 * matters only with another one moves one swap only), and in / out not
 * significant either way.
 */
export function explainsTogether(
  both: { effect: Effect; overControl: Effect; inOverOut: Effect },
  swapIn: Effect | undefined,
  swapOut: Effect | undefined,
  direction: 'regressed' | 'improved',
): boolean {
  if (!swapIn || !swapOut) return false;
  // Each swap's interval excludes no change, in the direction of the change.
  const shows = (e: Effect): boolean => (direction === 'regressed' ? e.ci[0] > 1 : e.ci[1] < 1);
  return (
    both.effect.verdict === direction &&
    both.overControl.verdict === direction &&
    shows(swapIn) &&
    shows(swapOut) &&
    !changed(both.inOverOut.verdict)
  );
}

/** Half the width of an effect's interval in log terms (the interval is at the run's confidence level). */
const logHalfWidth = (e: Effect): number => Math.max(0, Math.log(e.ci[1]) - Math.log(e.ci[0])) / 2;

/**
 * How far apart (in log terms) the sum of the parts and the whole may lie by
 * chance at the run's confidence level: the whole's interval and the parts'
 * combined in quadrature. Each part enters the sum through its added time
 * (in - 1), so its uncertainty in the sum is its ratio times its log
 * half-width; the sum's, over the sum, is the parts' log half-width. The
 * parts and the whole are treated as independent; they share the good stack's
 * measurements, which only makes this margin wider than the exact one, so the
 * note errs towards silence. A point estimate of the parts outside the
 * whole's interval alone is not evidence: the parts have intervals of their
 * own (the two-layer scenario: parts x1.652, whole x1.577, with nothing
 * interacting).
 */
function partsMargin(swapIns: readonly Effect[], total: Effect, parts: number): number {
  const partsVariance = swapIns.reduce((sum, e) => sum + (e.ratio * logHalfWidth(e)) ** 2, 0);
  const partsHalf = Math.sqrt(partsVariance) / parts;
  return Math.sqrt(logHalfWidth(total) ** 2 + partsHalf ** 2);
}

/**
 * Attributes one case's change. `problems` says why a variant has no values
 * (for the notes); `threshold` is the relative change below which parts and
 * whole that disagree are not worth a note.
 */
export function attributeCase(
  layers: readonly string[],
  comparisons: CaseComparisons,
  problems: Record<string, string | undefined>,
  threshold: number,
): CaseAttribution | undefined {
  const { compare, overControl, together } = comparisons;
  const total = compare('good', 'bad');
  if (!total) return undefined;
  const control = compare('good', CONTROL_ID);
  const direction = total.verdict;
  const logTotal = Math.log(total.ratio);
  const notes: string[] = [];
  if (!control) notes.push(`no A/A control (${problems[CONTROL_ID] ?? 'not measured'}): no layer can be attributed`);
  else if (changed(control.verdict)) {
    notes.push(
      `the A/A control moved (${formatEffect(control)}, ${control.verdict}): identical stacks differed in this case, so its verdicts are doubtful`,
    );
  }

  const shares: LayerShare[] = layers.map((layer) => {
    const share: LayerShare = { layer, reproduced: 'neither', explains: false };
    const missing: string[] = [];
    const swapIn = compare('good', swapInId(layer));
    const swapOut = compare(swapOutId(layer), 'bad');
    if (swapIn) share.swapIn = swapIn;
    else missing.push(`${swapInId(layer)}: ${problems[swapInId(layer)] ?? 'not measured'}`);
    if (swapOut) share.swapOut = swapOut;
    else missing.push(`${swapOutId(layer)}: ${problems[swapOutId(layer)] ?? 'not measured'}`);
    if (missing.length) share.problem = missing.join('; ');
    if (changed(direction)) {
      const logs = [swapIn, swapOut].filter((e): e is Effect => e !== undefined).map((e) => Math.log(e.ratio));
      // A share of a change that is not there is noise over noise: only for a significant total.
      if (logs.length) share.share = logs.reduce((a, b) => a + b, 0) / logs.length / logTotal;
      const inside = reproduces(swapIn, overControl('good', swapInId(layer)), direction);
      const outside = reproduces(swapOut, overControl(swapOutId(layer), 'bad'), direction);
      share.reproduced = inside && outside ? 'both' : inside ? 'in' : outside ? 'out' : 'neither';
      const both = together(layer);
      if (both) share.together = both.effect;
      if (share.reproduced === 'both') share.explains = true;
      else if (both && explainsTogether(both, swapIn, swapOut, direction)) share.explains = true;
      if (share.explains) share.explainedBy = share.reproduced === 'both' ? 'each' : 'together';
    }
    return share;
  });

  const attributed = shares
    .filter((s) => s.explains)
    .sort((a, b) => (b.share ?? 0) - (a.share ?? 0))
    .map((s) => s.layer);
  const oneWay = shares
    .filter((s) => (s.reproduced === 'in' || s.reproduced === 'out') && !s.explains)
    .map((s) => s.layer);

  for (const s of shares) {
    if (s.explainedBy === 'together' && s.together) {
      notes.push(
        `${s.layer} explains the change by its two swaps together (${formatEffect(s.together)}; in ${s.swapIn ? formatRatio(s.swapIn.ratio) : 'n/a'}, out ${s.swapOut ? formatRatio(s.swapOut.ratio) : 'n/a'}, not significantly different), not by each alone`,
      );
      continue;
    }
    if (s.reproduced !== 'in' && s.reproduced !== 'out') continue;
    const [did, didNot] = s.reproduced === 'in' ? ['swapped in', 'swapped out'] : ['swapped out', 'swapped in'];
    const other = s.reproduced === 'in' ? s.swapOut : s.swapIn;
    const shown = s.reproduced === 'in' ? s.swapIn : s.swapOut;
    notes.push(
      `${s.layer} reproduces the change only when ${did} (${formatEffect(shown)}), not when ${didNot} (${other ? formatEffect(other) : 'not measured'}): not attributed`,
    );
  }
  const swapIns = shares.filter((s) => s.swapIn !== undefined);
  if (changed(direction) && shares.length > 0 && swapIns.length === shares.length) {
    // Each layer's change adds its own time to an operation (in - 1 of the good stack's time), so independent
    // changes add up as 1 + sum(in - 1), not as the product of the ratios: two layers each +29% make +58%, not
    // +66% (the two-layer scenario, where the product fell outside the total's interval with nothing interacting).
    const parts = 1 + swapIns.reduce((sum, s) => sum + (s.swapIn!.ratio - 1), 0);
    const gap = Math.abs(Math.log(parts) - logTotal);
    if (
      gap > Math.log(1 + threshold) &&
      gap >
        partsMargin(
          swapIns.map((s) => s.swapIn!),
          total,
          parts,
        )
    ) {
      notes.push(
        `the parts do not add up: one layer at a time they give ${formatRatio(parts)}, the whole change is ${formatRatio(total.ratio)}`,
      );
    }
  }
  if (changed(direction) && control && shares.length > 0 && attributed.length === 0 && oneWay.length === 0) {
    notes.push(
      'no single layer reproduces the change beyond the A/A control: it needs several layers together, or it is within the noise',
    );
  }
  const result: CaseAttribution = { total, layers: shares, attributed, oneWay, notes };
  if (control) result.control = control;
  return result;
}
