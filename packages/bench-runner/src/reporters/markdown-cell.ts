// The one Markdown table-cell escaper of layerbench (bench-runner's reports,
// ci-report, bisect): a backslash, a pipe or a line break inside a cell would
// otherwise end the cell or the row.

/** Escapes `text` for one cell of a GitHub-flavoured Markdown table. */
export function markdownCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
