// Comparing two measurements. Per case: the ratio of medians head/base, its
// interval, p-value and verdict by the one verdict rule (verdict.ts).
// Across runs: digest changes, cases on one side only, failures, and the
// differences of the two environment fingerprints.
import { bootstrapGeomeanRatioDraws, geometricMean, median } from '../stats/stats.js';
import { bootstrapIterations, checkCompareOptions, compareSamples, decideRatio, type CompareOptions } from '../stats/verdict.js';
import type {
  CaseComparison,
  CaseResult,
  Comparison,
  EnvFingerprint,
  FingerprintDiff,
  RunResult,
  SampleComparison,
  Verdict,
} from '../types.js';

/** Slice medians needed on both sides to test at slice level. */
export const minSlices = 5;

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
  const geomeanDraws = () =>
    bootstrapGeomeanRatioDraws(pairs, {
      iterations: options.iterations ?? bootstrapIterations(alpha),
      ...(options.random ? { random: options.random } : {}),
    });
  const geomean =
    cases.length > 0
      ? { ratio: geometricMean(cases.map((c) => c.ratio)), ci: decideRatio(geomeanDraws(), { threshold, alpha }).ratioCi }
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
