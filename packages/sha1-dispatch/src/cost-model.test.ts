// The cost-line model: fits, crossings and the cheapest-band envelope.
import { describe, expect, it } from 'vitest';
import { cheapestBands, cheapestFrom, costAt, fitCostLine } from './cost-model.js';
import type { SizeMeasurement } from './measurements.js';

const rowsOf = (impl: SizeMeasurement['impl'], fixed: number, perByte: number, sizes: number[]): SizeMeasurement[] =>
  sizes.map((size) => ({ size, impl, nsPerOp: fixed + perByte * size }));
const sizes = [64, 256, 1024, 4096, 16384];

describe('fitCostLine', () => {
  it('recovers an exact line', () => {
    const line = fitCostLine(rowsOf('wasm', 200, 1.3, sizes), 'wasm')!;
    expect(line.fixedNs).toBeCloseTo(200, 6);
    expect(line.nsPerByte).toBeCloseTo(1.3, 9);
    expect(costAt(line, 1000)).toBeCloseTo(1500, 6);
  });

  it('one wild point moves the fit less than it moves the table', () => {
    const rows = rowsOf('wasm', 200, 1.3, [...sizes, 1792]);
    rows.find((r) => r.size === 1792)!.nsPerOp *= 1.5;
    const line = fitCostLine(rows, 'wasm')!;
    expect(costAt(line, 1792) / (200 + 1.3 * 1792)).toBeLessThan(1.15);
  });

  it('needs two points', () => {
    expect(fitCostLine(rowsOf('node', 1000, 0.5, [64]), 'node')).toBeUndefined();
  });
});

describe('crossings', () => {
  const unrolled = { impl: 'unrolled' as const, fixedNs: 100, nsPerByte: 1.6 };
  const wasm = { impl: 'wasm' as const, fixedNs: 200, nsPerByte: 1.3 };
  const node = { impl: 'node' as const, fixedNs: 1000, nsPerByte: 0.55 };

  it('cheapestFrom is where a line goes under all others', () => {
    expect(cheapestFrom(wasm, [unrolled])).toBe(334); // 100/0.3
    expect(cheapestFrom(node, [unrolled, wasm])).toBe(1067); // 800/0.75 against wasm
    expect(cheapestFrom(unrolled, [wasm])).toBe(Infinity);
  });

  it('cheapestBands is the lower envelope', () => {
    expect(cheapestBands([unrolled, wasm, node])).toEqual([
      { minSize: 0, impl: 'unrolled' },
      { minSize: 334, impl: 'wasm' },
      { minSize: 1067, impl: 'node' },
    ]);
    expect(cheapestBands([wasm])).toEqual([{ minSize: 0, impl: 'wasm' }]);
  });
});
