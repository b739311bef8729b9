// Shared vitest settings for every workspace package: tests run against the
// sources of sibling layers (no stale dist), and `#vectors` is the one test
// helper module (vector loaders and the streaming-equivalence checker).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const layer = (name: string) => `${root}packages/${name}/src/index.ts`;

export const sharedConfig = defineConfig({
  resolve: {
    alias: {
      '#vectors': `${root}vectors/load.ts`,
      '@layerbench/aes-core': layer('aes-core'),
      '@layerbench/cmac': layer('cmac'),
      '@layerbench/sha1-dispatch': layer('sha1-dispatch'),
      '@layerbench/esp': layer('esp'),
      '@layerbench/bench-runner': layer('bench-runner'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
