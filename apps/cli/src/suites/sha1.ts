// Placeholder: replaced by the layer's own suite.
import type { SuiteDefinition } from './types.js';

export const sha1Suite: SuiteDefinition = {
  name: 'sha1',
  description: 'not yet implemented',
  defaultFormat: 'table',
  cases: () => [],
};
