// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const espSuite: SuiteDefinition = {
  name: 'esp',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
