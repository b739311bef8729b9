// The find result file (kind 'layerbench/find', schemaVersion 1), written by
// `layerbench find --out`: the case searched for, the ancestry path between
// the good and the bad commit, the whole change with its A/A control, every
// step the binary search took, and its answer (the first changed commit, or
// why it cannot say). Beside the other result schemas so every reader (the
// cli, ci-report) depends on the engine only.
import { z } from 'zod';
import { finite } from './numbers.js';
import { readResultFile } from './file.js';
import { bisectEffectSchema } from './bisect-schema.js';

const commitSchema = z.object({ commit: z.string(), subject: z.string() });

export const findStepSchema = z.object({
  commit: z.string(),
  subject: z.string(),
  /** 1-based position on the ancestry path (good excluded, bad the last). */
  position: z.number().int().positive(),
  /** changed: like bad; same: like good; skip: does not build, the case fails there, or cannot tell. */
  outcome: z.enum(['changed', 'same', 'skip']),
  /** The commit against good. */
  vsGood: bisectEffectSchema.optional(),
  /** Paired only: the commit against the bad commit, measured in the same processes. */
  vsBad: bisectEffectSchema.optional(),
  /** Paired only: the commit against halfway between good and bad (log scale), threshold 0. */
  fromHalfway: bisectEffectSchema.optional(),
  /** Worker processes the step's values came from (after any extra batch). */
  processes: z.number().int().nonnegative().optional(),
  /** Why the commit was skipped. */
  reason: z.string().optional(),
  /** The line find printed for this step. */
  text: z.string(),
});

export const findResultSchema = z.object({
  kind: z.literal('layerbench/find'),
  schemaVersion: z.literal(1),
  createdAt: z.string(),
  /** The case searched for (absent when the filter did not name exactly one). */
  caseId: z.string().optional(),
  options: z.object({
    suites: z.array(z.string()),
    filter: z.string(),
    /** Seconds measured per commit per step, over its processes and rounds. */
    timePerStep: finite,
    rounds: z.number().int().positive(),
    processes: z.number().int().positive(),
    /** Paired: each process hosted every commit of a step; false: --separate. */
    paired: z.boolean(),
    visitPercentile: finite,
    threshold: finite,
    alpha: finite,
  }),
  machine: z.object({
    cpuModel: z.string(),
    cpuCount: z.number().int(),
    os: z.string(),
    machineId: z.string().optional(),
    node: z.string(),
  }),
  good: commitSchema.extend({ ref: z.string() }),
  bad: commitSchema.extend({ ref: z.string() }),
  /** The commits on the ancestry path, oldest first, bad the last. */
  commits: z.array(commitSchema),
  /** Bad against good, in the first step. */
  whole: bisectEffectSchema.optional(),
  /** The A/A control of the first step: the good commit again against good. */
  control: bisectEffectSchema.optional(),
  steps: z.array(findStepSchema),
  /**
   * found: `first` is the first changed commit; unchanged: nothing to find;
   * cannot-tell: the whole change is unclear or not beyond the control, or only
   * skipped commits are left (`candidates`); interrupted: `candidates` holds
   * the commits left, or nothing is known yet; failed: good or bad could not be
   * measured, or the filter did not name one case.
   */
  answer: z.object({
    status: z.enum(['found', 'unchanged', 'cannot-tell', 'interrupted', 'failed']),
    first: commitSchema.optional(),
    candidates: z.array(commitSchema),
    message: z.string(),
  }),
  /** The exit code find returned with this file. */
  exitCode: z.number().int(),
  /** False when find was interrupted: never a pass. */
  complete: z.boolean(),
});

export type FindStep = z.infer<typeof findStepSchema>;
export type FindResult = z.infer<typeof findResultSchema>;
export const FIND_KIND = 'layerbench/find';
export const FIND_SCHEMA_VERSIONS: readonly number[] = [1];

/** Reads and validates a find result file; errors name the file and the field (ResultFileError). */
export function readFindResult(file: string): FindResult {
  return readResultFile(file, findResultSchema, FIND_KIND, FIND_SCHEMA_VERSIONS);
}
