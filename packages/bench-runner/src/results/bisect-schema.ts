// The bisect result file (kind 'layerbench/bisect', schemaVersion 2), written
// by `layerbench bisect`: which variants ran in how many processes, each case's
// total change, its A/A control and each layer's swaps with the attribution,
// the layers' version / dispatch / capability changes, and whether the bisect
// finished. Beside the run and comparison schemas so every reader (the cli,
// ci-report) depends on the engine only; the zod schema is the one definition
// and the types are inferred from it. Unknown fields are dropped on read.
import { z } from 'zod';
import { finite, positive, positiveInterval, probability } from './numbers.js';
import { readResultFile } from './file.js';
import {
  dispatchDecisionSchema,
  layerCommitsSchema,
  layerFingerprintSchema,
  verdictSchema as verdict,
} from './schemas.js';

/** head / base with its interval at confidence 1 - alpha, p-value and verdict (the one verdict rule). */
export const bisectEffectSchema = z.object({
  ratio: positive,
  ci: positiveInterval,
  pValue: probability,
  verdict,
});

export const bisectLayerShareSchema = z.object({
  layer: z.string(),
  /** good+L / good: the bad version of the layer alone in the good stack. */
  swapIn: bisectEffectSchema.optional(),
  /** bad / bad-L: what taking the layer back to its good version undoes. */
  swapOut: bisectEffectSchema.optional(),
  share: finite.optional(),
  /** Which swaps reproduce the change (significant, same direction, beyond the A/A control). */
  reproduced: z.enum(['both', 'in', 'out', 'neither']),
  /** Both do, or the two swaps together do (explainedBy): the layer is attributed. */
  explains: z.boolean(),
  /** The two swaps together: exp(mean of log in and log out), the layer's main effect. */
  together: bisectEffectSchema.optional(),
  /** How an explaining layer was established: each swap alone, or the two together. */
  explainedBy: z.enum(['each', 'together']).optional(),
  problem: z.string().optional(),
});

export const bisectCaseSchema = z.object({
  id: z.string(),
  layer: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).optional()),
  bytesPerOp: finite.optional(),
  /** ok: compared; failed: the good or bad stack cannot run it; not-measured: the bisect stopped before it could be. */
  status: z.enum(['ok', 'failed', 'not-measured']),
  total: bisectEffectSchema.optional(),
  /** The A/A control: the good stack in processes of its own against the good stack. */
  control: bisectEffectSchema.optional(),
  layers: z.array(bisectLayerShareSchema),
  /**
   * Swapped layers whose code this case does not run (a cmac case and
   * sha1-dispatch): their swaps were not measured for it, and it has no share
   * of theirs in `layers`.
   */
  layersNotRun: z.array(z.string()).optional(),
  attributed: z.array(z.string()),
  /** Layers that reproduce the change one way only (named, not attributed). */
  oneWay: z.array(z.string()),
  notes: z.array(z.string()),
  problem: z.string().optional(),
  /** The implementation each variant's run reported, when it differs between variants. */
  implementations: z.record(z.string(), z.string()).optional(),
  /** Per variant: the geometric mean over its processes of each process's median visit value, ns/op. */
  medians: z.record(z.string(), positive),
  /** Per variant: how many processes gave values (the replicates). */
  processes: z.record(z.string(), z.number().int()),
  /** Pooled between-process standard deviation of this case (log scale) and its degrees of freedom. */
  processSd: finite.optional(),
  df: z.number().int().optional(),
  digestChanged: z.boolean().optional(),
});

export const bisectVariantEnvSchema = z.object({
  node: z.string(),
  v8: z.string(),
  openssl: z.string(),
  capabilities: z.string().optional(),
  dispatch: z.array(dispatchDecisionSchema),
  missing: z.array(z.string()),
  /** The folder each layer was loaded from in the variant's processes, and the content hash of its runnable code. */
  loadedLayers: z.array(z.object({ layer: z.string(), folder: z.string(), contentHash: z.string().optional() })),
  /** Why a worker of this variant broke the one-copy rule (the variant then failed). */
  oneCopyProblem: z.string().optional(),
  error: z.string().optional(),
});

export const bisectVariantSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Which side each layer came from in this variant. */
  take: z.record(z.string(), z.enum(['good', 'bad'])),
  status: z.enum(['ok', 'failed']),
  /** Worker processes that ran this variant. */
  processes: z.number().int(),
  problem: z.string().optional(),
  env: bisectVariantEnvSchema.optional(),
});

/** One difference between the good and bad stacks and the layer whose swap reproduces it. */
export const stackChangeSchema = z.object({
  kind: z.enum(['layer', 'runtime', 'openssl', 'capabilities', 'dispatch']),
  what: z.string(),
  good: z.string(),
  bad: z.string(),
  /** The layer(s) whose swap into the good stack shows the bad value. */
  causedBy: z.array(z.string()),
});

export const bisectSideSchema = z.object({
  spec: z.string(),
  layers: z.array(layerFingerprintSchema),
});

export const bisectResultSchema = z.object({
  kind: z.literal('layerbench/bisect'),
  schemaVersion: z.literal(2),
  createdAt: z.string(),
  options: z.object({
    suites: z.array(z.string()),
    filter: z.string().optional(),
    /** Seconds measured per case per variant, over all its processes and rounds. */
    timePerCase: finite,
    rounds: z.number().int().positive(),
    /** Worker processes per variant; every round visits each of them. */
    processes: z.number().int().positive(),
    /** Paired: every process hosted every variant, and comparisons were made within processes. */
    paired: z.boolean().optional(),
    /** The percentile of each visit's samples that stood for the visit. */
    visitPercentile: finite,
    threshold: finite,
    alpha: finite,
    /** Whether the peer libraries' cases were measured (only when the runtime or the engine differs, or asked). */
    peers: z.boolean(),
  }),
  machine: z.object({
    cpuModel: z.string(),
    cpuCount: z.number().int(),
    os: z.string(),
    machineId: z.string().optional(),
    /** The CPU every measuring process was pinned to (all variants alike). */
    measuredOnCpu: z.number().int().nonnegative().optional(),
    /** Why the measuring processes were not pinned to one CPU. */
    cpuNote: z.string().optional(),
  }),
  /** Load average (1 min) when the measuring started and ended. */
  load: z.object({ start: finite, end: finite }).optional(),
  good: bisectSideSchema,
  bad: bisectSideSchema,
  /** The layers that differ between the sides and were swapped. */
  layers: z.array(z.string()),
  changes: z.array(stackChangeSchema),
  variants: z.array(bisectVariantSchema),
  cases: z.array(bisectCaseSchema),
  /**
   * Cases selected but not measured: everything they run (their layer, the
   * layers below it, the engine, the runtime) is the same code on both
   * sides, so they cannot have changed; measuring them would be an A/A test.
   */
  identicalCode: z.array(z.string()).optional(),
  /**
   * For each attributed layer whose two sides are commits of one repository
   * (or the bad one its workspace), the commits between them that changed
   * its folder.
   */
  layerCommits: z.array(layerCommitsSchema).optional(),
  summary: z.object({
    regressed: z.number().int(),
    improved: z.number().int(),
    unchanged: z.number().int(),
    inconclusive: z.number().int(),
    failed: z.number().int(),
    notMeasured: z.number().int(),
    /** Cases whose A/A control was itself regressed or improved. */
    controlMoved: z.number().int(),
    /** How many regressed or improved cases each layer explains. */
    attributed: z.record(z.string(), z.number().int()),
  }),
  /** False when the bisect did not finish: the numbers cover what was measured, and it is never green. */
  complete: z.boolean(),
  /** What is missing when not complete. */
  incomplete: z
    .object({
      reason: z.string(),
      interrupted: z.boolean(),
      roundsDone: z.number().int(),
      roundsPlanned: z.number().int(),
    })
    .optional(),
});

export type BisectEffect = z.infer<typeof bisectEffectSchema>;
export type BisectLayerShare = z.infer<typeof bisectLayerShareSchema>;
export type BisectVariantEnv = z.infer<typeof bisectVariantEnvSchema>;
export type BisectCase = z.infer<typeof bisectCaseSchema>;
export type BisectVariant = z.infer<typeof bisectVariantSchema>;
export type StackChange = z.infer<typeof stackChangeSchema>;
export type BisectResult = z.infer<typeof bisectResultSchema>;
export const BISECT_KIND = 'layerbench/bisect';
/** The bisect schema versions this reader knows (1 had one process per variant and no A/A control: not read). */
export const BISECT_SCHEMA_VERSIONS: readonly number[] = [2];

/** Reads and validates a bisect result file; errors name the file and the field (bench-runner's ResultFileError). */
export function readBisectResult(file: string): BisectResult {
  return readResultFile(file, bisectResultSchema, BISECT_KIND, BISECT_SCHEMA_VERSIONS);
}
