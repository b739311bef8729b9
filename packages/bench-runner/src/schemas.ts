// Zod schemas of the result files (schemaVersion 1). Reading a file validates
// it against these, so a reporter never sees a half-formed result. Objects are
// loose: fields added later within version 1 survive a read-write round trip.
import { z } from 'zod';
import type { Calibration, Comparison, RunResult } from './types.js';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const interval = z.tuple([finite, finite]);
const paramValue = z.union([z.string(), z.number(), z.boolean()]);

export const caseParamsSchema = z.record(z.string(), paramValue.optional());

export const dispatchDecisionSchema = z.looseObject({
  layer: z.string(),
  decision: z.string(),
  impl: z.string(),
  reason: z.string(),
});

export const layerFingerprintSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  source: z.string().optional(),
  commit: z.string().optional(),
  contentHash: z.string().optional(),
});

export const envFingerprintSchema = z.looseObject({
  node: z.string(),
  v8: z.string(),
  openssl: z.string(),
  os: z.string(),
  cpuModel: z.string(),
  cpuCount: z.number().int().positive(),
  loadAvgStart: z.array(finite),
  loadAvgEnd: z.array(finite),
  capabilities: z.string().optional(),
  dispatch: z.array(dispatchDecisionSchema),
  layers: z.array(layerFingerprintSchema),
  machineId: z.string(),
  hostname: z.string().optional(),
});

export const caseStatsSchema = z.looseObject({
  n: z.number().int().nonnegative(),
  median: finite,
  mean: finite,
  min: finite,
  max: finite,
  p99: finite,
  mad: finite,
  ci: interval,
  nsPerOp: finite,
  opsPerSec: finite,
  mbPerSec: finite.optional(),
  mbitPerSec: finite.optional(),
});

const caseErrorSchema = z.looseObject({ name: z.string(), message: z.string() });

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
  samples: z.array(finite),
  sliceMedians: z.array(finite).optional(),
  stats: caseStatsSchema.optional(),
  fixedTime: z
    .looseObject({ seconds: finite, ops: z.number().int().nonnegative(), elapsedSeconds: finite.optional() })
    .optional(),
});

export const runResultSchema = z.looseObject({
  kind: z.literal('layerbench/run'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  suites: z.array(z.string()),
  options: z.looseObject({
    timePerCase: finite,
    shard: z.string().optional(),
    filter: z.string().optional(),
  }),
  env: envFingerprintSchema,
  cases: z.array(caseResultSchema),
  overheadNs: finite.optional(),
  interrupted: z.boolean().optional(),
}) as unknown as z.ZodType<RunResult>;

const verdictSchema = z.enum(['regressed', 'improved', 'unchanged', 'inconclusive']);

export const comparisonSchema = z.looseObject({
  kind: z.literal('layerbench/compare'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  threshold: finite,
  alpha: finite,
  base: z.looseObject({ createdAt: z.string(), env: envFingerprintSchema }),
  head: z.looseObject({ createdAt: z.string(), env: envFingerprintSchema }),
  fingerprintDiffs: z.array(
    z.looseObject({ kind: z.string(), what: z.string(), base: z.string(), head: z.string(), field: z.string().optional() }),
  ),
  cases: z.array(
    z.looseObject({
      id: z.string(),
      layer: z.string(),
      params: caseParamsSchema,
      baseMedian: finite,
      headMedian: finite,
      ratio: finite,
      ratioCi: interval,
      pValue: finite,
      verdict: verdictSchema,
      digestChanged: z.boolean(),
      method: z.enum(['slices', 'samples']).optional(),
      baseImpl: z.string().optional(),
      headImpl: z.string().optional(),
    }),
  ),
  onlyBase: z.array(z.string()),
  onlyHead: z.array(z.string()),
  failed: z.array(z.string()),
  geomean: z.looseObject({ ratio: finite, ci: interval }),
  summary: z.looseObject({
    regressed: z.number().int().nonnegative(),
    improved: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
    inconclusive: z.number().int().nonnegative(),
  }),
  warnings: z.array(z.string()).optional(),
}) as unknown as z.ZodType<Comparison>;

const sampleComparisonSchema = z.looseObject({ ratio: finite, ratioCi: interval, pValue: finite, verdict: verdictSchema });

const effectSchema = z.looseObject({
  effect: finite,
  repeats: z.number().int().nonnegative(),
  detectionRate: finite,
  detectionCi: interval,
  significantRate: finite,
  medianRatio: finite,
  verdicts: z.record(verdictSchema, z.number().int().nonnegative()),
  outcomes: z.array(sampleComparisonSchema).optional(),
});

export const calibrationSchema = z.looseObject({
  kind: z.literal('layerbench/calibration'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  env: envFingerprintSchema,
  timePerCase: finite,
  repeats: z.number().int().nonnegative(),
  threshold: finite,
  alpha: finite,
  falseAlarmRate: finite,
  falseAlarmCi: interval,
  aaRatio: z.looseObject({ median: finite, mad: finite }),
  aaOutcomes: z.array(sampleComparisonSchema).optional(),
  rounds: z.number().int().positive().optional(),
  effects: z.array(effectSchema),
  minimumDetectableEffect: finite.nullable(),
  overhead: z.looseObject({ medianNs: finite, madNs: finite, ci: interval }),
}) as unknown as z.ZodType<Calibration>;

