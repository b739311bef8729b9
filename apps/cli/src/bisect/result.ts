// The bisect result file (kind 'layerbench/bisect', schemaVersion 1): which
// variants ran, each case's total change and layer shares, the layers'
// version/dispatch/capability changes. The zod schema is the one definition;
// the TypeScript types are inferred from it. Read with bench-runner's
// readResultFile so errors name the file and the field, like run results.
// Unknown fields are dropped on read (a newer writer's extras do not break it).
import { z } from 'zod';
import { envFingerprintSchema } from '@layerbench/bench-runner/results';

// The run result's own definitions of a dispatch decision and a layer identity.
// Plain objects (unknown keys dropped on read) so the inferred types take the engine's interfaces.
const dispatchDecisionSchema = z.object(envFingerprintSchema.shape.dispatch.element.shape);
const layerFingerprintSchema = z.object(envFingerprintSchema.shape.layers.element.shape);

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const verdict = z.enum(['regressed', 'improved', 'unchanged', 'inconclusive']);

export const effectSchema = z.object({
  ratio: finite,
  ci: z.tuple([finite, finite]),
  pValue: finite,
  verdict,
});

export const layerShareSchema = z.object({
  layer: z.string(),
  swapIn: effectSchema.optional(),
  swapOut: effectSchema.optional(),
  share: finite.optional(),
  explains: z.boolean(),
  problem: z.string().optional(),
});

export const bisectCaseSchema = z.object({
  id: z.string(),
  layer: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).optional()),
  bytesPerOp: finite.optional(),
  status: z.enum(['ok', 'failed']),
  total: effectSchema.optional(),
  layers: z.array(layerShareSchema),
  attributed: z.array(z.string()),
  interaction: z.string().optional(),
  problem: z.string().optional(),
  /** The implementation each variant's run reported, when it differs between variants. */
  implementations: z.record(z.string(), z.string()).optional(),
  /** Median over the rounds of each variant's visit values, ns/op. */
  medians: z.record(z.string(), finite),
  digestChanged: z.boolean().optional(),
});

export const workerEnvSchema = z.object({
  node: z.string(),
  v8: z.string(),
  openssl: z.string(),
  capabilities: z.string().optional(),
  dispatch: z.array(dispatchDecisionSchema),
  missing: z.array(z.string()),
  /** The folder each layer was loaded from in the variant's processes, and the content hash of its runnable code (absent in older files). */
  loadedLayers: z.array(z.object({ layer: z.string(), folder: z.string(), contentHash: z.string().optional() })).optional(),
  /** Why a worker of this variant broke the one-copy rule (the variant then failed). */
  oneCopyProblem: z.string().optional(),
  error: z.string().optional(),
});

export const variantSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Which side each layer came from in this variant. */
  take: z.record(z.string(), z.enum(['good', 'bad'])),
  status: z.enum(['ok', 'failed']),
  problem: z.string().optional(),
  env: workerEnvSchema.optional(),
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

export const sideSchema = z.object({
  spec: z.string(),
  layers: z.array(layerFingerprintSchema),
});

export const bisectResultSchema = z.object({
  kind: z.literal('layerbench/bisect'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  options: z.object({
    suites: z.array(z.string()),
    filter: z.string().optional(),
    timePerCase: finite,
    rounds: z.number().int().positive(),
    /** Worker processes per variant (absent in older files: 1). */
    processes: z.number().int().positive().optional(),
    /** The percentile of each visit's samples that stood for the visit (absent in older files: 50). */
    visitPercentile: finite.optional(),
    threshold: finite,
    alpha: finite,
  }),
  machine: z.object({ cpuModel: z.string(), cpuCount: z.number().int(), os: z.string(), machineId: z.string().optional() }),
  good: sideSchema,
  bad: sideSchema,
  /** The layers that differ between the sides and were swapped. */
  layers: z.array(z.string()),
  changes: z.array(stackChangeSchema),
  variants: z.array(variantSchema),
  cases: z.array(bisectCaseSchema),
  summary: z.object({
    regressed: z.number().int(),
    improved: z.number().int(),
    unchanged: z.number().int(),
    inconclusive: z.number().int(),
    failed: z.number().int(),
    /** How many regressed or improved cases each layer explains. */
    attributed: z.record(z.string(), z.number().int()),
  }),
  interrupted: z.boolean().optional(),
});

export type BisectEffect = z.infer<typeof effectSchema>;
export type BisectCase = z.infer<typeof bisectCaseSchema>;
export type BisectVariant = z.infer<typeof variantSchema>;
export type StackChange = z.infer<typeof stackChangeSchema>;
export type BisectResult = z.infer<typeof bisectResultSchema>;
export const BISECT_KIND = 'layerbench/bisect';
