// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const hmacSuite: SuiteDefinition = {
  name: 'hmac',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
