// The result files (schemaVersion 1) and everything inside them, defined once
// as zod schemas; every TypeScript type of a result is inferred from its
// schema (below each one), so the two cannot drift apart. Reading a file
// validates it against these, so a reporter never sees a half-formed result.
// Objects are loose: fields added later within version 1 survive a read-write
// round trip (and appear in the types as unknown extra keys).
//
// File kinds: 'layerbench/run' (runResultSchema), 'layerbench/compare'
// (comparisonSchema), 'layerbench/calibration' (calibrationSchema), and
// 'layerbench/bisect', whose schema lives beside these in ./bisect.ts.
import { z } from 'zod';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const interval = z.tuple([finite, finite]);
const count = z.number().int().nonnegative();
const paramValue = z.union([z.string(), z.number(), z.boolean()]);
export type ParamValue = z.infer<typeof paramValue>;

/**
 * A case's parameters. Names with a fixed meaning, read by the reporters:
 * - algorithm: 'AES-128' | 'SHA-1' | 'HMAC-SHA1' | ...
 * - keyBytes (KL), packetBytes (PL), macBytes (CL), size (message size in bytes)
 * - impl: the implementation/backend that ran ('table', 'unrolled', 'node', 'noble', ...)
 * - pattern: the access pattern ('oneshot' | 'preloaded' | 'dup' | 'native' | ...)
 * - section: a heading reporters group rows under (e.g. NTPsec '# CMAC', 'Preload cipher and key.')
 * - op: esptest operation ('encrypt' | 'encrypt+decrypt')
 * - peer: true when the implementation is a competitor library from apps/peers
 */
export const caseParamsSchema = z
  .object({
    algorithm: z.string().optional(),
    keyBytes: finite.optional(),
    packetBytes: finite.optional(),
    macBytes: finite.optional(),
    size: finite.optional(),
    impl: z.string().optional(),
    pattern: z.string().optional(),
    section: z.string().optional(),
    op: z.string().optional(),
    peer: z.boolean().optional(),
  })
  .catchall(paramValue.optional());
export type CaseParams = z.infer<typeof caseParamsSchema>;

/** One dispatch decision a layer reports ('sha1-dispatch: whole-message size 64 -> unrolled'). */
export const dispatchDecisionSchema = z.looseObject({
  layer: z.string(),
  decision: z.string(),
  impl: z.string(),
  reason: z.string(),
});
export type DispatchDecision = z.infer<typeof dispatchDecisionSchema>;

/** Identity of one layer that took part in a run. */
export const layerFingerprintSchema = z.looseObject({
  /** '@layerbench/sha1-dispatch' or 'runtime'. */
  name: z.string(),
  version: z.string(),
  /** 'workspace' | 'git:<ref>' | 'dir:<path>' | 'tgz:<path>' | 'node@<v>'. */
  source: z.string().optional(),
  /** Git commit of the checkout it came from. */
  commit: z.string().optional(),
  /** sha256 of its built code (dist/**). */
  contentHash: z.string().optional(),
});
export type LayerFingerprint = z.infer<typeof layerFingerprintSchema>;

export const envFingerprintSchema = z.looseObject({
  node: z.string(),
  v8: z.string(),
  openssl: z.string(),
  /** `${platform} ${release} ${arch}`. */
  os: z.string(),
  cpuModel: z.string(),
  cpuCount: z.number().int().positive(),
  loadAvgStart: z.array(finite),
  loadAvgEnd: z.array(finite),
  /** The capability word as printed after 'CPU capabilities: '. */
  capabilities: z.string().optional(),
  dispatch: z.array(dispatchDecisionSchema),
  layers: z.array(layerFingerprintSchema),
  /** Stable hash of the machine identity (cpu model, count, os, hostname-free): merges CI shards per machine. */
  machineId: z.string(),
  hostname: z.string().optional(),
});
export type EnvFingerprint = z.infer<typeof envFingerprintSchema>;

export const caseStatsSchema = z.looseObject({
  /** Samples. */
  n: count,
  /** ns/op. */
  median: finite,
  mean: finite,
  min: finite,
  max: finite,
  p99: finite,
  /** Median absolute deviation, ns. */
  mad: finite,
  /** Bootstrap 95% CI of the median, ns. */
  ci: interval,
  /** = median. */
  nsPerOp: finite,
  opsPerSec: finite,
  /** 1e6 bytes/s. */
  mbPerSec: finite.optional(),
  /** 1e6 bits/s. */
  mbitPerSec: finite.optional(),
});
export type CaseStats = z.infer<typeof caseStatsSchema>;

export const caseErrorSchema = z.looseObject({ name: z.string(), message: z.string() });
export type CaseError = z.infer<typeof caseErrorSchema>;

export const caseResultSchema = z.looseObject({
  id: z.string(),
  layer: z.string(),
  params: caseParamsSchema,
  bytesPerOp: finite.optional(),
  status: z.enum(['ok', 'failed']),
  error: caseErrorSchema.optional(),
  implementation: z.string().optional(),
  digest: z.string().optional(),
  expectedDigest: z.string().optional(),
  digestOk: z.boolean().optional(),
  /** Raw samples, ns per operation (each the mean of one batch). */
  samples: z.array(finite),
  /**
   * Median of each consecutive time slice of the measurement (each slice a
   * separate run of the case's timing loop). compareResults tests these rather
   * than the pooled samples, because samples within a slice are not independent.
   */
  sliceMedians: z.array(finite).optional(),
  stats: caseStatsSchema.optional(),
  /** For fixed-time loops (esptest): operations completed in `seconds`. */
  fixedTime: z.looseObject({ seconds: finite, ops: count, elapsedSeconds: finite.optional() }).optional(),
});
export type CaseResult = z.infer<typeof caseResultSchema>;

export const runResultSchema = z.looseObject({
  kind: z.literal('layerbench/run'),
  schemaVersion: z.literal(1),
  /** ISO time. */
  createdAt: z.string(),
  suites: z.array(z.string()),
  options: z.looseObject({
    timePerCase: finite,
    shard: z.string().optional(),
    filter: z.string().optional(),
  }),
  env: envFingerprintSchema,
  cases: z.array(caseResultSchema),
  /** Empty-case timing overhead of this run, ns/op. */
  overheadNs: finite.optional(),
  /** True when the run was interrupted (Ctrl-C): the cases present are complete. */
  interrupted: z.boolean().optional(),
});
export type RunResult = z.infer<typeof runResultSchema>;

export const verdictSchema = z.enum(['regressed', 'improved', 'unchanged', 'inconclusive']);
export type Verdict = z.infer<typeof verdictSchema>;

export const verdictCountsSchema = z.looseObject({
  regressed: count,
  improved: count,
  unchanged: count,
  inconclusive: count,
});

/** Outcome of one comparison (compareSamples, compareRounds): the verdict rule of stats/verdict.ts. */
export const sampleComparisonSchema = z.looseObject({
  ratio: finite,
  /** Interval of the ratio at confidence 1 - alpha. */
  ratioCi: interval,
  /** Two-sided, from the same bootstrap draws: p < alpha exactly when ratioCi excludes 1. */
  pValue: finite,
  verdict: verdictSchema,
  /** The interval's confidence level, 1 - alpha (absent in files written before 0.2). */
  confidence: finite.optional(),
});
export type SampleComparison = z.infer<typeof sampleComparisonSchema>;

export const caseComparisonSchema = z.looseObject({
  id: z.string(),
  layer: z.string(),
  params: caseParamsSchema,
  baseMedian: finite,
  headMedian: finite,
  /** head / base of medians: > 1 is slower. */
  ratio: finite,
  ratioCi: interval,
  pValue: finite,
  verdict: verdictSchema,
  digestChanged: z.boolean(),
  /** What was tested: slice medians (both sides had >= 5) or, for older results, the pooled samples. */
  method: z.enum(['slices', 'samples']).optional(),
  baseImpl: z.string().optional(),
  headImpl: z.string().optional(),
});
export type CaseComparison = z.infer<typeof caseComparisonSchema>;

export const fingerprintDiffSchema = z.looseObject({
  /** 'runtime' | 'openssl' | 'v8' | 'os' | 'cpu' | 'capabilities' | 'dispatch' | 'layer'. */
  kind: z.string(),
  /** E.g. '@layerbench/sha1-dispatch' or 'sha1-dispatch: whole-message'. */
  what: z.string(),
  base: z.string(),
  head: z.string(),
  /** For kind 'layer': which field differs ('version' | 'source' | 'commit' | 'contentHash' | 'presence'). */
  field: z.string().optional(),
});
export type FingerprintDiff = z.infer<typeof fingerprintDiffSchema>;

export const comparisonSchema = z.looseObject({
  kind: z.literal('layerbench/compare'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  /** Relative noise threshold, e.g. 0.03. */
  threshold: finite,
  /** Significance level, e.g. 0.01; intervals are at 1 - alpha. */
  alpha: finite,
  base: z.looseObject({ createdAt: z.string(), env: envFingerprintSchema }),
  head: z.looseObject({ createdAt: z.string(), env: envFingerprintSchema }),
  fingerprintDiffs: z.array(fingerprintDiffSchema),
  cases: z.array(caseComparisonSchema),
  onlyBase: z.array(z.string()),
  onlyHead: z.array(z.string()),
  /** Ids failed on either side. */
  failed: z.array(z.string()),
  geomean: z.looseObject({ ratio: finite, ci: interval }),
  summary: verdictCountsSchema,
  /** Reasons to distrust the timings: an overloaded machine, different machines. */
  warnings: z.array(z.string()).optional(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** Detection statistics for one effect size in calibrate(). */
export const calibrationEffectSchema = z.looseObject({
  /** Relative extra work of the head variant, e.g. 0.03. */
  effect: finite,
  repeats: count,
  /** Share of repeats whose verdict was 'regressed' (the power). */
  detectionRate: finite,
  /** 95% Wilson interval of the detection rate. */
  detectionCi: interval,
  /** Share of repeats with p < alpha, whatever the verdict. */
  significantRate: finite,
  /** Median measured ratio over the repeats (expected about 1 + effect). */
  medianRatio: finite,
  verdicts: verdictCountsSchema,
  /** Every comparison of this effect, in order. */
  outcomes: z.array(sampleComparisonSchema).optional(),
});
export type CalibrationEffect = z.infer<typeof calibrationEffectSchema>;

export const calibrationSchema = z.looseObject({
  kind: z.literal('layerbench/calibration'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  env: envFingerprintSchema,
  timePerCase: finite,
  repeats: count,
  threshold: finite,
  alpha: finite,
  /** A/A: share of repeats with verdict 'regressed' or 'improved'. */
  falseAlarmRate: finite,
  falseAlarmCi: interval,
  /** A/A: spread of the measured ratio (median and MAD over the repeats). */
  aaRatio: z.looseObject({ median: finite, mad: finite }),
  /** Every A/A comparison, in order. */
  aaOutcomes: z.array(sampleComparisonSchema).optional(),
  /** Interleaved rounds per comparison. */
  rounds: z.number().int().positive().optional(),
  effects: z.array(calibrationEffectSchema),
  /** Smallest effect detected with >= 95% power, or null when none was. */
  minimumDetectableEffect: finite.nullable(),
  /** Timing of an empty case through the same engine, ns/op. */
  overhead: z.looseObject({ medianNs: finite, madNs: finite, ci: interval }),
});
export type Calibration = z.infer<typeof calibrationSchema>;
