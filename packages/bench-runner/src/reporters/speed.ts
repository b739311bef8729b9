// An `openssl speed`-style table: one row per algorithm and implementation,
// one column per message size (params.size), in 1000s of bytes per second.
// Cells over 10000 bytes/s print as ' %11.2fk' (thousands), smaller ones as
// ' %11.2f ', as openssl does.
import type { CaseResult, RunResult } from '../types.js';

function rowLabel(c: CaseResult): string {
  const impl = c.params.impl ?? c.implementation;
  return [c.params.algorithm ?? c.id, impl].filter((part) => part !== undefined && part !== '').join(' ');
}

function sizeOf(c: CaseResult): number | undefined {
  if (typeof c.params.size === 'number') return c.params.size;
  return c.bytesPerOp;
}

export function speedCell(bytesPerSecond: number | undefined): string {
  if (bytesPerSecond === undefined) return ` ${'-'.padStart(11)} `;
  if (bytesPerSecond > 10000) return ` ${(bytesPerSecond / 1000).toFixed(2).padStart(11)}k`;
  return ` ${bytesPerSecond.toFixed(2).padStart(11)} `;
}

export function formatSpeed(run: RunResult): string {
  const rows = new Map<string, Map<number, number>>();
  const sizes = new Set<number>();
  for (const c of run.cases) {
    const size = sizeOf(c);
    if (size === undefined) continue;
    sizes.add(size);
    const label = rowLabel(c);
    const row = rows.get(label) ?? new Map<number, number>();
    if (c.status === 'ok' && c.stats) row.set(size, c.stats.opsPerSec * size);
    rows.set(label, row);
  }
  const columns = [...sizes].sort((a, b) => a - b);
  const labelWidth = Math.max(13, ...[...rows.keys()].map((l) => l.length + 1));
  // openssl's 13-character columns; wider when a heading ('1048576 bytes') would touch its neighbour.
  const columnWidth = Math.max(13, ...columns.map((s) => `${s} bytes`.length + 1));
  const lines = [
    "The 'numbers' are in 1000s of bytes per second processed.",
    'type'.padEnd(labelWidth - 1) + columns.map((s) => `${s} bytes`.padStart(columnWidth)).join(''),
  ];
  for (const [label, row] of rows) {
    lines.push(label.padEnd(labelWidth) + columns.map((s) => speedCell(row.get(s)).padStart(columnWidth)).join(''));
  }
  return `${lines.join('\n')}\n`;
}
