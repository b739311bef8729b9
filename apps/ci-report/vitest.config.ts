import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The cli's bisect-file API from its sources, like the layers (no build needed for tests).
export default mergeConfig(sharedConfig, {
  resolve: {
    alias: {
      '@layerbench/cli/bisect': fileURLToPath(new URL('../cli/src/bisect/public.ts', import.meta.url)),
    },
  },
});
