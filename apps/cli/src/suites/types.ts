// What a suite file exports: a named factory of bench cases over a Layers
// composition (and, optionally, the keyed objects whose memory `mem` reports).
import type { BenchCase, MemCase } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';

export interface SuiteOptions {
  /** Seconds of the esptest fixed-time loops (default 5). */
  esptestSeconds?: number;
}

export type DefaultFormat = 'table' | 'ntpsec' | 'esptest' | 'speed';

export interface SuiteDefinition {
  name: string;
  description: string;
  /** The reporter `layerbench run <suite>` uses when --format is not given. */
  defaultFormat: DefaultFormat;
  cases(layers: Layers, options: SuiteOptions): BenchCase[];
  memCases?(layers: Layers): MemCase[];
}
