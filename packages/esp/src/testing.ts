// @layerbench/esp/testing: the default-composition rules as pure functions,
// for tests; kept off the package's main entry. Same module instances as the
// main entry.
export { forcedComposition, pickComposition } from './composition.js';
