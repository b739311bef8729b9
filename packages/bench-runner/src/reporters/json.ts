// JSON output of any result (run, comparison, calibration, BMF): indented,
// with number arrays such as samples kept on one line.
import { stringifyResult } from '../results/file.js';

export function formatJson(value: unknown): string {
  return `${stringifyResult(value)}\n`;
}
