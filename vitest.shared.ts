// Shared vitest settings for every workspace package: tests run against the
// sources of sibling layers (no stale dist), and `#vectors` is the one test
// helper module (vector loaders and the streaming-equivalence checker).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const layer = (name: string) => `${root}packages/${name}/src/index.ts`;
// Exact names only, so that a subpath entry (`@layerbench/bench-runner/stats`)
// maps to its own folder's index.ts instead of `.../src/index.ts/stats`.
const exact = (name: string, replacement: string) => ({
  find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
  replacement,
});

export const sharedConfig = defineConfig({
  resolve: {
    alias: [
      exact('#vectors', `${root}vectors/load.ts`),
      exact('@layerbench/aes-core', layer('aes-core')),
      exact('@layerbench/cmac', layer('cmac')),
      exact('@layerbench/sha1-dispatch', layer('sha1-dispatch')),
      exact('@layerbench/esp', layer('esp')),
      exact('@layerbench/bench-runner', layer('bench-runner')),
      { find: /^@layerbench\/bench-runner\/([a-z-]+)$/, replacement: `${root}packages/bench-runner/src/$1/index.ts` },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: [`${root}vitest.tmpdir.ts`],
  },
});
