// What other packages (ci-report) need of a bisect result file: its schema and
// types, and its Markdown/table forms. Exported as `@layerbench/cli/bisect`.
export { bisectResultSchema, BISECT_KIND } from './bisect-result.js';
export type { BisectResult, BisectCase, BisectEffect, BisectVariant, StackChange } from './bisect-result.js';
export { formatBisectMarkdown, formatBisectTable, describeLayerChange, headline, formatEffect, formatRatio } from './bisect-format.js';
export type { MarkdownOptions } from './bisect-format.js';
