// @layerbench/sha1-dispatch/testing: hooks for tests, kept off the package's
// main entry. Same module instances as the main entry (one dispatcher).
export { resetDispatchForTests } from './dispatch.js';
export type { EnvSource } from './dispatch.js';
