// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const cmacTimingSuite: SuiteDefinition = {
  name: 'cmac-timing',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
