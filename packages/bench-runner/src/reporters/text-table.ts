// Column alignment for the plain-text reporters.

/** Renders rows as space-separated columns; `right[i]` right-aligns column i. */
export function renderTextTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all
    .map((row) =>
      row
        .map((cell, i) => (right[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
