import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The bisect scenario suite (scenarios/): real bisects on throwaway commits,
// one at a time (they measure, so two at once would only add noise), with the
// measured output in the log. `npm run scenarios`.
export default defineConfig({
  resolve: sharedConfig.resolve,
  test: {
    include: ['scenarios/**/*.scenarios.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 30 * 60_000,
    hookTimeout: 5 * 60_000,
    reporters: ['verbose'],
    globalSetup: sharedConfig.test?.globalSetup,
  },
});
