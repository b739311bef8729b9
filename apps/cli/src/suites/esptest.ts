// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const esptestSuite: SuiteDefinition = {
  name: 'esptest',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
