// What other packages (ci-report) need of a bisect result file: its schema and
// types, and its Markdown/table forms. Exported as `@layerbench/cli/bisect`.
export { bisectResultSchema, BISECT_KIND, BISECT_SCHEMA_VERSIONS, readBisectResult } from './result.js';
export type { BisectResult, BisectCase, BisectEffect, BisectVariant, StackChange } from './result.js';
export { formatBisectMarkdown, formatBisectTable, describeLayerChange, headline, formatEffect, formatRatio, bisectIcon, incompleteText } from './format.js';
export type { MarkdownOptions } from './format.js';
