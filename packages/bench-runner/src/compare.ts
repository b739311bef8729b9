// Comparing two measurements. Per case: the ratio of medians head/base with
// a bootstrap CI, a Mann-Whitney U test on the raw samples, and a verdict
// that needs both significance and an interval clear of the noise threshold.
// Across runs: digest changes, cases on one side only, failures, and the
// differences of the two environment fingerprints.
import {
  bootstrapGeomeanRatioCi,
  bootstrapRatioCi,
  geometricMean,
  mannWhitneyU,
  median,
  type BootstrapOptions,
} from './stats.js';
import type {
  CaseComparison,
  CaseResult,
  Comparison,
  EnvFingerprint,
  FingerprintDiff,
  RunResult,
  SampleComparison,
  Verdict,
} from './types.js';

/** Relative change below which a difference is treated as noise. */
export const defaultThreshold = 0.02;
/** Significance level of the Mann-Whitney test. */
export const defaultAlpha = 0.01;
/** Slice medians needed on both sides to test at slice level. */
export const minSlices = 5;

export interface CompareOptions extends BootstrapOptions {
  /** Noise threshold, relative (default 0.02 = 2%). */
  threshold?: number;
  /** Significance level (default 0.01). */
  alpha?: number;
}

export function checkCompareOptions(options: CompareOptions): { threshold: number; alpha: number } {
  const threshold = options.threshold ?? defaultThreshold;
  const alpha = options.alpha ?? defaultAlpha;
  if (!(threshold >= 0 && threshold < 1)) throw new RangeError(`threshold must be within [0, 1), got ${threshold}`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be within (0, 1), got ${alpha}`);
  return { threshold, alpha };
}

/**
 * The verdict for a ratio CI and p-value:
 * - regressed / improved: significant (p < alpha) and the whole CI beyond 1 ± threshold;
 * - unchanged: the whole CI within 1 ± threshold, or not significant with a CI
 *   that contains 1 and is no wider than the threshold band;
 * - inconclusive: otherwise (the CI straddles the threshold: too wide to say).
 */
export function verdictOf(ratioCi: readonly [number, number], pValue: number, threshold: number, alpha: number): Verdict {
  const [lo, hi] = ratioCi;
  const significant = pValue < alpha;
  if (significant && lo > 1 + threshold) return 'regressed';
  if (significant && hi < 1 - threshold) return 'improved';
  if (lo >= 1 - threshold && hi <= 1 + threshold) return 'unchanged';
  if (!significant && lo <= 1 && hi >= 1 && hi - lo <= 2 * threshold) return 'unchanged';
  return 'inconclusive';
}

/** Compares two sample sets (ns per op): ratio head/base, its CI, p-value and verdict. */
export function compareSamples(base: readonly number[], head: readonly number[], options: CompareOptions = {}): SampleComparison {
  const { threshold, alpha } = checkCompareOptions(options);
  const baseMedian = median(base);
  const headMedian = median(head);
  if (!(baseMedian > 0 && headMedian > 0)) {
    throw new RangeError(`cannot form a ratio of medians ${headMedian} / ${baseMedian} ns: both must be positive`);
  }
  const ratio = headMedian / baseMedian;
  const ratioCi = bootstrapRatioCi(base, head, options);
  const { pValue } = mannWhitneyU(head, base);
  return { ratio, ratioCi, pValue, verdict: verdictOf(ratioCi, pValue, threshold, alpha) };
}

function implOf(c: CaseResult): string | undefined {
  if (c.implementation !== undefined) return c.implementation;
  return c.params.impl !== undefined ? String(c.params.impl) : undefined;
}

function diffValue(
  diffs: FingerprintDiff[],
  kind: string,
  what: string,
  base: string | undefined,
  head: string | undefined,
  field?: string,
): void {
  if (base === head) return;
  const diff: FingerprintDiff = { kind, what, base: base ?? '(none)', head: head ?? '(none)' };
  if (field !== undefined) diff.field = field;
  diffs.push(diff);
}

/** Differences between two environment fingerprints: the first hints of where a change came from. */
export function diffFingerprints(base: EnvFingerprint, head: EnvFingerprint): FingerprintDiff[] {
  const diffs: FingerprintDiff[] = [];
  diffValue(diffs, 'runtime', 'node', base.node, head.node);
  diffValue(diffs, 'v8', 'v8', base.v8, head.v8);
  diffValue(diffs, 'openssl', 'openssl', base.openssl, head.openssl);
  diffValue(diffs, 'os', 'os', base.os, head.os);
  diffValue(diffs, 'cpu', 'cpu', `${base.cpuModel} x${base.cpuCount}`, `${head.cpuModel} x${head.cpuCount}`);
  diffValue(diffs, 'capabilities', 'CPU capabilities', base.capabilities, head.capabilities);

  const decisions = (env: EnvFingerprint) => new Map(env.dispatch.map((d) => [`${d.layer}: ${d.decision}`, d.impl]));
  const baseDispatch = decisions(base);
  const headDispatch = decisions(head);
  for (const key of new Set([...baseDispatch.keys(), ...headDispatch.keys()])) {
    diffValue(diffs, 'dispatch', key, baseDispatch.get(key), headDispatch.get(key));
  }

  const layers = (env: EnvFingerprint) => new Map(env.layers.map((l) => [l.name, l]));
  const baseLayers = layers(base);
  const headLayers = layers(head);
  for (const name of new Set([...baseLayers.keys(), ...headLayers.keys()])) {
    const b = baseLayers.get(name);
    const h = headLayers.get(name);
    if (!b || !h) {
      diffValue(diffs, 'layer', name, b ? b.version : '(absent)', h ? h.version : '(absent)', 'presence');
      continue;
    }
    diffValue(diffs, 'layer', name, b.version, h.version, 'version');
    diffValue(diffs, 'layer', name, b.source, h.source, 'source');
    diffValue(diffs, 'layer', name, b.commit, h.commit, 'commit');
    diffValue(diffs, 'layer', name, b.contentHash, h.contentHash, 'contentHash');
  }
  return diffs;
}

/**
 * Reasons to distrust a comparison of two separate runs: a load average above
 * the CPU count (other processes took turns with the measurement) or two
 * different machines.
 */
export function comparisonWarnings(base: EnvFingerprint, head: EnvFingerprint): string[] {
  const warnings: string[] = [];
  for (const [side, env] of [['base', base], ['head', head]] as const) {
    const load = Math.max(env.loadAvgStart[0] ?? 0, env.loadAvgEnd[0] ?? 0);
    if (load > env.cpuCount) {
      warnings.push(
        `${side} ran with load average ${load.toFixed(1)} on ${env.cpuCount} CPU(s): other processes shared the CPUs, so separate runs drift; prefer an interleaved comparison`,
      );
    }
  }
  if (base.machineId !== head.machineId) warnings.push(`base and head ran on different machines (${base.machineId}, ${head.machineId})`);
  return warnings;
}

export function compareResults(base: RunResult, head: RunResult, options: CompareOptions = {}): Comparison {
  const { threshold, alpha } = checkCompareOptions(options);
  const headById = new Map(head.cases.map((c) => [c.id, c]));
  const baseIds = new Set(base.cases.map((c) => c.id));
  const cases: CaseComparison[] = [];
  const failed: string[] = [];
  const onlyBase: string[] = [];
  const pairs: { base: number[]; head: number[] }[] = [];
  for (const b of base.cases) {
    const h = headById.get(b.id);
    if (!h) {
      onlyBase.push(b.id);
      continue;
    }
    if (b.status !== 'ok' || h.status !== 'ok' || b.samples.length === 0 || h.samples.length === 0) {
      failed.push(b.id);
      continue;
    }
    // Slice medians are (nearly) independent; single samples within a slice are not.
    const bySlices = (b.sliceMedians?.length ?? 0) >= minSlices && (h.sliceMedians?.length ?? 0) >= minSlices;
    let sample: SampleComparison;
    try {
      sample = bySlices
        ? compareSamples(b.sliceMedians!, h.sliceMedians!, { ...options, threshold, alpha })
        : compareSamples(b.samples, h.samples, { ...options, threshold, alpha });
    } catch {
      failed.push(b.id);
      continue;
    }
    const comparison: CaseComparison = {
      id: b.id,
      layer: h.layer,
      params: { ...h.params },
      baseMedian: median(b.samples),
      headMedian: median(h.samples),
      ratio: sample.ratio,
      ratioCi: sample.ratioCi,
      pValue: sample.pValue,
      verdict: sample.verdict,
      digestChanged: b.digest !== undefined && h.digest !== undefined && b.digest !== h.digest,
      method: bySlices ? 'slices' : 'samples',
    };
    const baseImpl = implOf(b);
    const headImpl = implOf(h);
    if (baseImpl !== undefined) comparison.baseImpl = baseImpl;
    if (headImpl !== undefined) comparison.headImpl = headImpl;
    cases.push(comparison);
    pairs.push(bySlices ? { base: b.sliceMedians!, head: h.sliceMedians! } : { base: b.samples, head: h.samples });
  }
  const onlyHead = head.cases.filter((c) => !baseIds.has(c.id)).map((c) => c.id);
  const summary: Record<Verdict, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
  for (const c of cases) summary[c.verdict]++;
  const geomean =
    cases.length > 0
      ? { ratio: geometricMean(cases.map((c) => c.ratio)), ci: bootstrapGeomeanRatioCi(pairs, options) }
      : { ratio: 1, ci: [1, 1] as [number, number] };
  return {
    kind: 'layerbench/compare',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    threshold,
    alpha,
    base: { createdAt: base.createdAt, env: base.env },
    head: { createdAt: head.createdAt, env: head.env },
    fingerprintDiffs: diffFingerprints(base.env, head.env),
    cases,
    onlyBase,
    onlyHead,
    failed,
    geomean,
    summary,
    warnings: comparisonWarnings(base.env, head.env),
  };
}
