// The result files (schemaVersion 1) and everything inside them, defined once
// as zod schemas; every TypeScript type of a result is inferred from its
// schema (below each one), so the two cannot drift apart. Reading a file
// validates it against these, so a reporter never sees a half-formed result.
// Objects are loose: fields added later within version 1 survive a read-write
// round trip (and appear in the types as unknown extra keys).
//
// File kinds: 'layerbench/run' (runResultSchema), 'layerbench/compare'
// (comparisonSchema), 'layerbench/calibration' (calibrationSchema), and
// 'layerbench/bisect' and 'layerbench/find', whose schemas live beside these
// in ./bisect-schema.ts and ./find-schema.ts (their numbers in ./numbers.ts).
import { z } from 'zod';
import { finite, nonNegative, positive, positiveInterval, probability } from './numbers.js';

const timings = z.array(positive);
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
 * - peer: true when the implementation is a competitor library from packages/peers
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
  /**
   * A run of several processes (mergeProcessRuns): the 1-minute load average
   * at the end of each process but the last that ended a minute or more
   * into the run, in the order they ran (loadAvgStart is the first's start,
   * loadAvgEnd the last's end).
   */
  processLoadAvgEnds: z.array(finite).optional(),
  /** The capability word as printed after 'CPU capabilities: '. */
  capabilities: z.string().optional(),
  dispatch: z.array(dispatchDecisionSchema),
  layers: z.array(layerFingerprintSchema),
  /** Stable hash of the machine identity (cpu model, count, os, hostname-free): merges CI shards per machine. */
  machineId: z.string(),
  hostname: z.string().optional(),
  /** The CPU the measuring process was pinned to (layerbench --cpu). */
  measuredOnCpu: z.number().int().nonnegative().optional(),
  /** Why the measuring process was not pinned to one CPU. */
  cpuNote: z.string().optional(),
});
export type EnvFingerprint = z.infer<typeof envFingerprintSchema>;

export const caseStatsSchema = z.looseObject({
  /** Samples. */
  n: count,
  /** ns/op. */
  median: positive,
  mean: positive,
  min: positive,
  max: positive,
  p99: positive,
  /** Median absolute deviation, ns. */
  mad: nonNegative,
  /** Bootstrap 95% CI of the median, ns. */
  ci: positiveInterval,
  /** = median. */
  nsPerOp: positive,
  opsPerSec: positive,
  /** 1e6 bytes/s (0 for a case of no bytes). */
  mbPerSec: nonNegative.optional(),
  /** 1e6 bits/s. */
  mbitPerSec: nonNegative.optional(),
});
export type CaseStats = z.infer<typeof caseStatsSchema>;

export const caseErrorSchema = z.looseObject({ name: z.string(), message: z.string() });
export type CaseError = z.infer<typeof caseErrorSchema>;

/**
 * Which figure of a case a comparison uses: per slice the median or the
 * fastest batch, either as measured or divided by the reference workload
 * timed beside it (the same statistic of the reference).
 */
export const figureBasisSchema = z.enum([
  'median',
  'median-relative',
  'fastest',
  'fastest-relative',
  'fastest-low',
  'calm-relative',
  'calm-fastest',
]);
export type FigureBasis = z.infer<typeof figureBasisSchema>;

/**
 * The calm bases, each with the field of a run of several processes that
 * holds the calm level of each of its process figures (one per figure, in
 * the same order): which processes' calm figures compare may compare.
 */
export const calmLevelsField = {
  'calm-relative': 'processCalmLevels',
  'calm-fastest': 'processProbeLevels',
} as const;
export type CalmBasis = keyof typeof calmLevelsField;

export const caseResultSchema = z
  .looseObject({
    id: z.string(),
    layer: z.string(),
    /**
     * The packages the case's code consists of, by their names in
     * env.layers (BenchCase.packages): which packages' content hashes the
     * unchanged-code guard compares (compare.ts, codeUnchanged).
     */
    packages: z.array(z.string()).optional(),
    params: caseParamsSchema,
    bytesPerOp: finite.optional(),
    status: z.enum(['ok', 'failed']),
    error: caseErrorSchema.optional(),
    implementation: z.string().optional(),
    digest: z.string().optional(),
    expectedDigest: z.string().optional(),
    digestOk: z.boolean().optional(),
    /** Raw samples, ns per operation (each the mean of one batch). */
    samples: timings,
    /**
     * Median of each consecutive time slice of the measurement (each slice a
     * separate run of the case's timing loop). compareResults tests these rather
     * than the pooled samples, because samples within a slice are not independent.
     */
    sliceMedians: timings.optional(),
    stats: caseStatsSchema.optional(),
    /**
     * The reference workload timed between this case's slices (`work` names
     * it; see reference.ts): its median ns per call in the slice before the
     * first, between each two, and after the last.
     */
    reference: z.looseObject({ work: z.string(), sliceMedians: timings, sliceFastest: timings.optional() }).optional(),
    /**
     * Each slice median divided by the geometric mean of the reference slices
     * on either side of it: the case relative to the reference, with whatever
     * slowed both (other jobs, frequency) cancelled.
     */
    relativeSliceMedians: timings.optional(),
    /**
     * The fastest batch of each slice, ns per call: what the code costs when
     * nothing else took the CPU during the batch (other jobs only ever add time).
     */
    sliceFastest: timings.optional(),
    /** For fixed-time loops (esptest): operations completed in `seconds`. */
    fixedTime: z.looseObject({ seconds: finite, ops: count, elapsedSeconds: finite.optional() }).optional(),
    /**
     * The state probe (run options.stateProbe names its work; see reference.ts)
     * timed just before and just after this case, fastest batch, ns per call:
     * what state the shared CPU was in while the case ran.
     */
    stateProbe: timings.optional(),
    /**
     * The state probe in short slices beside the reference slices (before the
     * first slice, between each two, after the last; fastest batch, ns per
     * call): which of this case's slices ran while the shared CPU was in its
     * slow state (compare's 'calm-relative' figures leave those out).
     */
    sliceStateProbes: timings.optional(),
    /**
     * A run of several fresh processes (`run --processes k`): per figure basis,
     * the case's figure in each process, in process order (see
     * compare/processes.ts). The slice arrays above then hold every process's
     * slices one after the other; `compare` uses these instead, so the spread
     * between the processes is measured in the file itself.
     */
    /**
     * With processFigures['calm-relative'] (which holds the calm figures only
     * of the processes that had enough calm slices): each of those processes'
     * calm level (the fastest of its slice probes, ns per call), in the same
     * order: which processes' calm figures compare may compare
     * (compare/processes.ts).
     */
    processCalmLevels: timings.optional(),
    /**
     * With processFigures['calm-fastest'] (the fastest-low figures of the
     * processes that timed the state probe beside their slices): each of
     * those processes' calm level, in the same order, as processCalmLevels
     * for the calm-relative figures.
     */
    processProbeLevels: timings.optional(),
    processFigures: z.partialRecord(figureBasisSchema, timings).optional(),
  })
  .superRefine((c, ctx) => {
    // The levels say which process each calm figure came from: one level per figure, in the same order.
    for (const basis of Object.keys(calmLevelsField) as CalmBasis[]) {
      const key = calmLevelsField[basis];
      const levels = c[key];
      if (levels === undefined) continue;
      const calm = c.processFigures?.[basis];
      if (calm?.length !== levels.length) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `holds ${levels.length} level(s) for ${calm?.length ?? 0} calm figure(s) (processFigures['${basis}']): one per figure`,
        });
      }
    }
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
    /** The reference workload timed between slices (absent: no relative figures). */
    reference: z.string().optional(),
    /** The state probe timed between cases (absent: not probed). */
    stateProbe: z.string().optional(),
  }),
  env: envFingerprintSchema,
  /** Each case once: compare and check match the two files' cases by id. */
  cases: z.array(caseResultSchema).superRefine((cases, ctx) => {
    const first = new Map<string, number>();
    cases.forEach((c, i) => {
      const earlier = first.get(c.id);
      if (earlier === undefined) first.set(c.id, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, 'id'],
          message: `'${c.id}' is also cases[${earlier}].id: each case once`,
        });
    });
  }),
  /** Empty-case timing overhead of this run, ns/op. */
  overheadNs: finite.optional(),
  /** True when the run was interrupted (Ctrl-C): the cases present are complete. */
  interrupted: z.boolean().optional(),
  /** Fresh processes the run was measured in, one after the other (absent: one). */
  processes: z.number().int().positive().optional(),
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
  ratio: positive,
  /** Interval of the ratio at confidence 1 - alpha. */
  ratioCi: positiveInterval,
  /** Two-sided, from the same bootstrap draws: p < alpha exactly when ratioCi excludes 1. */
  pValue: probability,
  verdict: verdictSchema,
  /** The interval's confidence level, 1 - alpha (absent in files written before 0.2). */
  confidence: finite.optional(),
});
export type SampleComparison = z.infer<typeof sampleComparisonSchema>;

/**
 * What compare assumed about the difference between two separate runs of
 * identical code: `source` says whether it was measured on this machine
 * (`layerbench calibrate`) or is the conservative default.
 */
export const runNoiseSummarySchema = z.looseObject({
  source: z.enum(['calibration', 'default']),
  basis: figureBasisSchema,
  /** The calibration file it came from. */
  file: z.string().optional(),
  /** When that calibration was made, with how many processes, at what time per case. */
  createdAt: z.string().optional(),
  processes: z.number().int().optional(),
  timePerCase: finite.optional(),
  /** One line for people: where the figures came from and what they allow. */
  description: z.string(),
});
export type RunNoiseSummary = z.infer<typeof runNoiseSummarySchema>;

export const caseComparisonSchema = z.looseObject({
  id: z.string(),
  layer: z.string(),
  params: caseParamsSchema,
  baseMedian: positive,
  headMedian: positive,
  /** head / base of medians: > 1 is slower. */
  ratio: positive,
  ratioCi: positiveInterval,
  pValue: probability,
  verdict: verdictSchema,
  digestChanged: z.boolean(),
  /**
   * What was compared: per-slice figures on a basis (both sides had >= 5
   * slices), or, for results without slices, the pooled samples.
   */
  method: z.enum([...figureBasisSchema.options, 'samples']).optional(),
  /** The between-run spread assumed for this case: sd of log(figure) between processes, and its degrees of freedom. */
  betweenRuns: z
    .looseObject({
      sigma: finite,
      dof: z.number().positive(),
      /**
       * Where sigma came from: 'runs' the spread between the processes of the
       * two files themselves, 'calibration' a stored calibration, 'pooled'
       * both (calm figures of several processes whose spread agrees with the
       * calibration's), 'default' the conservative assumption (absent in
       * files written before 0.3).
       */
      source: z.enum(['runs', 'calibration', 'pooled', 'default']).optional(),
      /**
       * Runs of several processes judged with a calibration that measured the
       * spread between neighbouring processes (CaseSpread.sigmaNeighbour):
       * the process-to-process part of sigma (averaged over each side's
       * processes) and the run-to-run part (not averaged), sd of log.
       */
      parts: z.looseObject({ process: finite, run: finite }).optional(),
    })
    .optional(),
  /**
   * The state probe's head / base ratio while this case ran, when beyond its
   * own noise: the interval allows up to stateRatio^1.5 of the change to be
   * the machine's state (compare/noise.ts, addStateShift).
   */
  stateRatio: finite.optional(),
  /** Processes behind each side's figure (absent: one each). */
  processes: z.looseObject({ base: z.number().int().positive(), head: z.number().int().positive() }).optional(),
  /**
   * The verdict the numbers gave when it was not allowed to stand: the
   * environments differ, or (with codeUnchanged, under the unchanged-code
   * guard) the code is byte-identical, so the difference is the machine's.
   */
  suppressedVerdict: verdictSchema.optional(),
  /** Every layer this case runs (its own, those below it, the engine and the runtime) is byte-identical on both sides. */
  codeUnchanged: z.boolean().optional(),
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

/**
 * The commits between two ends that changed one layer's folder (git log
 * good..bad -- folder): a layer bisect attributed a change to, or one whose
 * built code differs between the two runs compare compared.
 */
const commitSchema = z.object({ commit: z.string(), subject: z.string() });

export const layerCommitsSchema = z.object({
  layer: z.string(),
  /** The layer's folder in the repository, e.g. `packages/aes-core`. */
  folder: z.string(),
  good: z.string(),
  bad: z.string(),
  /**
   * Oldest first; README, changelog and test files left out (they do not
   * change the built code). When the good commit is not an ancestor of the
   * bad one, those on the bad side since their common ancestor (git log
   * good..bad).
   */
  commits: z.array(commitSchema),
  /** The bad side was a workspace whose folder had changes in no commit (compare: both runs were of one commit). */
  uncommitted: z.boolean(),
  /**
   * Only when the good commit is not an ancestor of the bad one (a base run
   * of main made after the head's branch left it): the commits that changed
   * the folder on the good side since their common ancestor (git log
   * bad..good), oldest first.
   */
  goodSideCommits: z.array(commitSchema).optional(),
  /** Why no commit is listed (commits is then empty), e.g. a commit this checkout does not hold (a shallow clone). */
  unlisted: z.string().optional(),
});

export type LayerCommits = z.infer<typeof layerCommitsSchema>;

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
  geomean: z.looseObject({ ratio: positive, ci: positiveInterval }),
  summary: verdictCountsSchema,
  /** Reasons to distrust the timings: an overloaded machine, different machines. */
  warnings: z.array(z.string()).optional(),
  /** The between-run spread assumed (absent in files written before 0.2). */
  noise: runNoiseSummarySchema.optional(),
  /**
   * Why the two runs cannot be compared for speed (different CPU, core count
   * or runtime): regressed/improved verdicts were withheld unless asked for.
   */
  incomparable: z.array(z.string()).optional(),
  /** Verdicts were given across different environments because it was asked for. */
  acrossEnvironments: z.boolean().optional(),
  /**
   * For each layer whose built code differs between the runs, the commits
   * between the runs' commits that changed its folder, when the comparing
   * checkout held both (the CLI's compare; absent otherwise).
   */
  layerCommits: z.array(layerCommitsSchema).optional(),
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

/** One case in a between-run calibration: how much its figure moves from one fresh process to the next. */
export const caseSpreadSchema = z.looseObject({
  /** Processes that measured it. */
  n: z.number().int().positive(),
  /** Median over the processes of its median figure, ns per call. */
  medianNs: positive,
  /** Per basis, the sample sd of log(figure) over the processes (a basis some run lacks is absent). */
  sigma: z.partialRecord(figureBasisSchema, nonNegative),
  /**
   * Processes a basis's sd was measured over when fewer than n: the
   * calm figures ('calm-relative', 'calm-fastest') only of the processes whose calm levels agree.
   */
  processesOn: z.partialRecord(figureBasisSchema, z.number().int().positive()).optional(),
  /**
   * The lowest calm level (ns per probe call) of the processes its calm
   * spread was measured over: compare uses that spread only for processes
   * within calmLevelTolerance of it (the state it was measured in, or a
   * faster one).
   */
  calmLevel: finite.optional(),
  /**
   * Per calm basis ('calm-relative', 'calm-fastest'), the lowest calm level
   * of the processes its spread was measured over (calmLevel is the
   * calm-relative one, kept for readers of earlier calibrations).
   */
  calmLevels: z.partialRecord(figureBasisSchema, finite).optional(),
  /**
   * Per basis, the spread between neighbouring processes (the calibration's
   * processes in the order they ran): sqrt(mean squared successive
   * difference of log figure / 2), over the same processes as sigma. What
   * moves from one process to the next (code placement, JIT, the CPU's
   * state within seconds) shows here and in sigma; what stays for minutes
   * (a state shared by consecutive processes) only in sigma. Compare splits
   * sigma into a process part (this) and a run part (the rest) for runs of
   * several processes (compare/processes.ts). Absent: fewer than
   * minNeighbourPairs neighbouring pairs, or a calibration written before.
   */
  sigmaNeighbour: z.partialRecord(figureBasisSchema, nonNegative).optional(),
  /**
   * Calibration processes left out of the calm spread, each alone in a mode
   * of its own (beyond 10% and 10 sds of the others, its neighbours not; at
   * most one in six). compare then compares calm figures only of runs with at least
   * three calm processes a side, so that such a mode shows in their own
   * spread.
   */
  calmModes: z.number().int().positive().optional(),
  /** Smallest tested slowdown detected in every cross-validation pair (null: none of those tested). */
  minimumDetectableEffect: finite.nullable().optional(),
});
export type CaseSpread = z.infer<typeof caseSpreadSchema>;

/**
 * `layerbench calibrate`: the separate-process A/A spread of every case on
 * one machine and runtime at one time per case, the basis compare should
 * use, and what that gives: the cross-validated false-alarm rate and the
 * minimum detectable effect.
 */
export const betweenRunCalibrationSchema = z.looseObject({
  kind: z.literal('layerbench/between-runs'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  env: envFingerprintSchema,
  suites: z.array(z.string()),
  filter: z.string().optional(),
  timePerCase: finite,
  processes: z.number().int().positive(),
  /** Load average (1 min) at the start and end of each process. */
  load: z.array(z.tuple([finite, finite])),
  threshold: finite,
  alpha: finite,
  /** The figures with the smaller typical spread on this machine. */
  basis: figureBasisSchema,
  /** Per basis, the median and 90th percentile of the per-case sigmas. */
  pooled: z.partialRecord(figureBasisSchema, z.looseObject({ p50: finite, p90: finite })),
  /**
   * No case is taken as steadier between runs than this: the `quantile` of
   * the cases' spreads on the basis, the smallest candidate that kept the
   * cross-validated share of A/A pairs with a case called regressed at or
   * below 5%.
   */
  floor: z.looseObject({ quantile: finite, sigma: nonNegative }),
  cases: z.record(z.string(), caseSpreadSchema),
  /**
   * Leave-two-out: each pair of processes compared with the spread estimated
   * from the others. `cases` flagged regressed or improved of `compared`;
   * `pairsFlagged` pairs (of `pairs`) with at least one case regressed.
   */
  falseAlarms: z.looseObject({
    flagged: count,
    compared: count,
    pairsFlagged: count,
    pairs: count,
  }),
  /** Per injected slowdown: the share of (pair, case) comparisons called regressed. */
  detection: z.array(z.looseObject({ effect: finite, detected: count, compared: count })),
});
export type BetweenRunCalibration = z.infer<typeof betweenRunCalibrationSchema>;
