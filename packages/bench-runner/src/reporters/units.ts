// Human-readable numbers for the console and Markdown reporters: durations
// in ns/µs/ms/s, rates with k/M/G, ratios as signed percentages.

/** A duration given in nanoseconds, with 4 significant digits and a fitting unit. */
export function formatNs(ns: number): string {
  const abs = Math.abs(ns);
  if (abs < 1e3) return `${precise(ns)} ns`;
  if (abs < 1e6) return `${precise(ns / 1e3)} µs`;
  if (abs < 1e9) return `${precise(ns / 1e6)} ms`;
  return `${precise(ns / 1e9)} s`;
}

function precise(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 10) return value.toFixed(2);
  return value.toFixed(3);
}

/** A rate (per second) with a k/M/G suffix. */
export function formatRate(perSecond: number): string {
  const abs = Math.abs(perSecond);
  if (abs >= 1e9) return `${(perSecond / 1e9).toFixed(2)}G`;
  if (abs >= 1e6) return `${(perSecond / 1e6).toFixed(2)}M`;
  if (abs >= 1e3) return `${(perSecond / 1e3).toFixed(2)}k`;
  return perSecond.toFixed(1);
}

/** A ratio head/base as a signed change: 1.032 -> '+3.2%'. */
export function formatChange(ratio: number): string {
  const pct = (ratio - 1) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

/** A p-value to 2 significant digits, small ones in exponent form. */
export function formatP(p: number): string {
  if (p < 1e-4) return p.toExponential(1);
  return p.toPrecision(2);
}
