// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const aesSuite: SuiteDefinition = {
  name: 'aes',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
