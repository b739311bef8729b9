// Bencher Metric Format: { [benchmark]: { [measure]: { value, lower_value, upper_value } } }.
// latency is the median ns/op with its 95% CI; throughput (operations per
// second) is added for cases with a byte count. Failed cases are left out.
import type { RunResult } from '../types.js';

export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

export type Bmf = Record<string, Record<string, BmfMetric>>;

export function toBmf(run: RunResult): Bmf {
  const out: Bmf = {};
  for (const c of run.cases) {
    if (c.status !== 'ok' || !c.stats) continue;
    const { median, ci, opsPerSec } = c.stats;
    const measures: Record<string, BmfMetric> = { latency: { value: median, lower_value: ci[0], upper_value: ci[1] } };
    if (c.bytesPerOp !== undefined && ci[0] > 0) {
      measures.throughput = { value: opsPerSec, lower_value: 1e9 / ci[1], upper_value: 1e9 / ci[0] };
    }
    out[c.id] = measures;
  }
  return out;
}
