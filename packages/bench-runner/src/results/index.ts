// @layerbench/bench-runner/results: the result files. Each kind's zod schema
// is the one definition and its TypeScript type is inferred from it; reads
// validate, writes are atomic. The bisect result of `layerbench bisect` is
// here too (bisect-schema.ts), and the find result of `layerbench find`
// (find-schema.ts), so their readers depend on the engine only.
export * from './schemas.js';
export {
  writeResultFile,
  writeTextFileAtomic,
  checkOutputPath,
  OutputPathError,
  readResultFile,
  readRunResult,
  readComparison,
  readCalibration,
  readBetweenRunCalibration,
  stringifyResult,
  ResultFileError,
  supportedSchemaVersions,
} from './file.js';
export type { ResultFileProblem } from './file.js';
export {
  bisectResultSchema,
  bisectCaseSchema,
  bisectEffectSchema,
  bisectLayerShareSchema,
  bisectVariantSchema,
  bisectVariantEnvSchema,
  bisectSideSchema,
  stackChangeSchema,
  readBisectResult,
  BISECT_KIND,
  BISECT_SCHEMA_VERSIONS,
} from './bisect-schema.js';
export type {
  BisectResult,
  BisectCase,
  BisectEffect,
  BisectLayerShare,
  BisectVariant,
  BisectVariantEnv,
  StackChange,
} from './bisect-schema.js';
export {
  findResultSchema,
  findStepSchema,
  readFindResult,
  FIND_KIND,
  FIND_SCHEMA_VERSIONS,
} from './find-schema.js';
export type { FindResult, FindStep } from './find-schema.js';
