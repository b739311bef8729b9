// From measured whole-message timings to decisions: each implementation's time
// is fitted as a line, fixed cost + cost per byte (a per-call overhead and a
// per-block speed, which is what SHA-1 costs), and choices come from where the
// lines cross. A fit uses every measured size, so one noisy point on a shared
// machine cannot move a crossover on its own, as it could when reading the
// table point by point.
import type { Sha1ImplName } from './implementations.js';
import type { SizeMeasurement } from './measurements.js';

export interface CostLine {
  impl: Sha1ImplName;
  fixedNs: number;
  nsPerByte: number;
}

/** Least squares on relative error (weights 1/t^2), so small sizes count as much as large ones. */
export function fitCostLine(rows: readonly SizeMeasurement[], impl: Sha1ImplName): CostLine | undefined {
  let sw = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  let points = 0;
  for (const r of rows) {
    if (r.impl !== impl || !(r.nsPerOp > 0)) continue;
    const w = 1 / (r.nsPerOp * r.nsPerOp);
    sw += w;
    sx += w * r.size;
    sy += w * r.nsPerOp;
    sxx += w * r.size * r.size;
    sxy += w * r.size * r.nsPerOp;
    points++;
  }
  const det = sw * sxx - sx * sx;
  if (points < 2 || det <= 0) return undefined;
  const nsPerByte = (sw * sxy - sx * sy) / det;
  return { impl, fixedNs: Math.max(0, (sy - nsPerByte * sx) / sw), nsPerByte };
}

export function costAt(line: CostLine, size: number): number {
  return line.fixedNs + line.nsPerByte * size;
}

/** The smallest size from which `line` is no dearer than every other line (Infinity if never). */
export function cheapestFrom(line: CostLine, others: readonly CostLine[]): number {
  let from = 0;
  for (const other of others) {
    if (other === line) continue;
    if (line.nsPerByte >= other.nsPerByte) {
      if (line.fixedNs > other.fixedNs || line.nsPerByte > other.nsPerByte) return Infinity;
      continue;
    }
    // The epsilon keeps an exact crossing (200.00000000000003) from rounding up a whole byte.
    from = Math.max(from, Math.ceil((line.fixedNs - other.fixedNs) / (other.nsPerByte - line.nsPerByte) - 1e-9));
  }
  return Math.max(0, from);
}

export interface SizeBand {
  minSize: number;
  impl: Sha1ImplName;
}

/** The lower envelope of the lines: which implementation is cheapest from which size on. */
export function cheapestBands(lines: readonly CostLine[]): SizeBand[] {
  const starts = new Set<number>([0]);
  for (const a of lines) {
    for (const b of lines) {
      if (a === b || a.nsPerByte === b.nsPerByte) continue;
      const x = (a.fixedNs - b.fixedNs) / (b.nsPerByte - a.nsPerByte);
      if (x > 0 && Number.isFinite(x)) starts.add(Math.ceil(x - 1e-9));
    }
  }
  const bands: SizeBand[] = [];
  for (const start of [...starts].sort((x, y) => x - y)) {
    let best: CostLine | undefined;
    for (const l of lines) if (best === undefined || costAt(l, start) < costAt(best, start)) best = l;
    if (best && bands[bands.length - 1]?.impl !== best.impl) bands.push({ minSize: start, impl: best.impl });
  }
  return bands;
}

export function describeLine(line: CostLine): string {
  return `${line.impl} ${Math.round(line.fixedNs)} ns + ${line.nsPerByte.toFixed(3)} ns/B`;
}

/** The node:crypto crossover of a set of measurements: where node's line goes under every `pure` line. */
export function crossoverOf(rows: readonly SizeMeasurement[], pure: readonly Sha1ImplName[]): number {
  const node = fitCostLine(rows, 'node');
  if (node === undefined) return Infinity;
  const others = pure.map((n) => fitCostLine(rows, n)).filter((l): l is CostLine => l !== undefined);
  return cheapestFrom(node, others);
}
