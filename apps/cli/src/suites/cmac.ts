// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const cmacSuite: SuiteDefinition = {
  name: 'cmac',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
