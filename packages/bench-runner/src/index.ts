// @layerbench/bench-runner, the engine: cases in, RunResult out. The rest is
// in subpath entries: /stats (statistics and the verdict rule), /results
// (schemas, types, result files), /compare (two runs -> a Comparison),
// /calibration (what this machine can detect), /reporters (tables, Markdown,
// the seeds' formats, units).
//
// Contract with `layerbench bisect`: its workers load bench-runner of any
// version as a layer and call this root entry's `openCase` (one case kept
// warm for many short visits) or, from engines before it, `runCases`; both
// stay here with compatible signatures.
export type * from './types.js';
export {
  runCases,
  openCase,
  runCase,
  measureOverhead,
  consecutiveMedians,
  defaultSlices,
  DigestMismatchError,
} from './run.js';
export type { RunCasesOptions, OpenCase } from './run.js';
export { runInterleaved, defaultRounds } from './interleaved.js';
export type { InterleavedOptions } from './interleaved.js';
export { collectEnv, layerFingerprint, machineId, contentHash } from './env.js';
export { measureMemory, ensureExposedGc, forcedGc } from './memory.js';
export type { MeasureMemoryOptions } from './memory.js';
