// @layerbench/cli as a library: run the `layerbench` command in-process, and
// the pieces the commands are built from (argument parser, suite registry,
// layer reports, one measurement).
export { main, commands, cliVersion } from './main.js';
export type { Command, CommandContext } from './commands/types.js';
export { UsageError, parseArgs } from './args.js';
export type { ArgSpec, ParsedArgs, ShardSpec } from './args.js';
export {
  allSuites,
  layerSuites,
  peersSuite,
  defaultRun,
  suiteByName,
  buildCases,
  buildMemCases,
  selectCases,
} from './suites/index.js';
export type { Selection, SuiteDefinition, SuiteOptions } from './suites/index.js';
export { loadWorkspaceLayers } from './layers.js';
export type { Layers } from './layers.js';
export { describeLayers, workspaceLayerFingerprints } from './layer-env.js';
export type { LayerReport } from './layer-env.js';
export { measure } from './measure.js';
export type { MeasureRequest, Measurement } from './measure.js';
