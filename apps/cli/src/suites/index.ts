// The suite registry: every suite `layerbench run` knows, the default set
// `npm run bench` runs, and the selection of cases by --filter and --shard.
import type { BenchCase, MemCase } from '@layerbench/bench-runner';
import { UsageError } from '../args.js';
import { caseLayers } from '../between-runs.js';
import type { ShardSpec } from '../args.js';
import type { Layers } from '../layers.js';
import { aesSuite } from './aes.js';
import { cmacTimingSuite } from './cmac-timing.js';
import { cmacSuite } from './cmac.js';
import { espSuite } from './esp.js';
import { esptestSuite } from './esptest.js';
import { hmacSuite } from './hmac.js';
import { sha1Suite } from './sha1.js';
import type { SuiteDefinition, SuiteOptions } from './types.js';

/** The suites each layer's engineer owns, in the order `list` and `mem` show them. */
export const layerSuites: readonly SuiteDefinition[] = [
  aesSuite,
  cmacSuite,
  cmacTimingSuite,
  sha1Suite,
  hmacSuite,
  espSuite,
  esptestSuite,
];

/** The competitor-library cases (params.peer) of every other suite, side by side in one run. */
export const peersSuite: SuiteDefinition = {
  name: 'peers',
  description: 'the npm peer libraries (packages/peers) from every suite, side by side',
  defaultFormat: 'table',
  cases: (layers, options) =>
    layerSuites.flatMap((suite) => suite.cases(layers, options)).filter((benchCase) => benchCase.params.peer === true),
  memCases: (layers) =>
    layerSuites.flatMap((suite) => suite.memCases?.(layers) ?? []).filter((memCase) => memCase.params.peer === true),
};

export const allSuites: readonly SuiteDefinition[] = [...layerSuites, peersSuite];

/**
 * What `npm run bench` (`layerbench run` without suites) measures, and for how
 * long per case: the seed reproductions, sized to finish in about two minutes
 * on a shared 2-core machine.
 */
export const defaultRun = {
  suites: ['cmac-timing', 'sha1', 'esptest'],
  timePerCase: 0.15,
  esptestSeconds: 2,
} as const;

/**
 * The suites of a `run` or `list` command line: the named ones, or the
 * default set of `npm run bench` when none is named (so `list` shows exactly
 * what `run` would measure).
 */
export function suitesFor(names: readonly string[]): SuiteDefinition[] {
  return (names.length === 0 ? defaultRun.suites : names).map(suiteByName);
}

export function suiteByName(name: string): SuiteDefinition {
  const suite = allSuites.find((candidate) => candidate.name === name);
  if (suite === undefined) {
    throw new UsageError(`unknown suite '${name}' (suites: ${allSuites.map((known) => known.name).join(', ')})`);
  }
  return suite;
}

export interface BuiltCases {
  cases: BenchCase[];
  /** The suite each case id came from (the first one, when suites share a case). */
  suiteOf: Map<string, string>;
  /** Suites whose cases() threw: reported, and the other suites still run. */
  errors: { suite: string; error: Error }[];
}

/**
 * The cases of the given suites, once each: suites may share cases (peers
 * repeats the others' peer cases), and a shared id is the same measurement.
 */
export function buildCases(suites: readonly SuiteDefinition[], layers: Layers, options: SuiteOptions): BuiltCases {
  const cases: BenchCase[] = [];
  const suiteOf = new Map<string, string>();
  const errors: BuiltCases['errors'] = [];
  for (const suite of suites) {
    let suiteCases: BenchCase[];
    try {
      suiteCases = suite.cases(layers, options);
    } catch (error) {
      errors.push({ suite: suite.name, error: error instanceof Error ? error : new Error(String(error)) });
      continue;
    }
    const seen = new Set<string>();
    for (const benchCase of suiteCases) {
      if (seen.has(benchCase.id)) throw new Error(`suite '${suite.name}' has two cases with the id '${benchCase.id}'`);
      seen.add(benchCase.id);
      if (suiteOf.has(benchCase.id)) continue;
      suiteOf.set(benchCase.id, suite.name);
      cases.push(withPackages(benchCase));
    }
  }
  return { cases, suiteOf, errors };
}

/**
 * The case with the packages its code consists of (caseLayers: its layer,
 * the layers below it, the CLI), recorded in the result file so that any
 * reader of two runs (compare, check, layerbench-report) applies the same
 * unchanged-code guard. A case of a layer without a known stack is left as
 * it is (the guard never applies to it).
 */
function withPackages(benchCase: BenchCase): BenchCase {
  if (benchCase.packages !== undefined) return benchCase;
  const packages = caseLayers(benchCase);
  return packages === undefined ? benchCase : { ...benchCase, packages };
}

/** The memory cases of the given suites, once each by id. */
export function buildMemCases(suites: readonly SuiteDefinition[], layers: Layers): MemCase[] {
  const byId = new Map<string, MemCase>();
  for (const suite of suites) {
    for (const memCase of suite.memCases?.(layers) ?? []) {
      if (!byId.has(memCase.id)) byId.set(memCase.id, memCase);
    }
  }
  return [...byId.values()];
}

export interface Selection {
  /** A regular expression matched against case ids. */
  filter?: string;
  shard?: ShardSpec;
}

/**
 * Keeps the cases whose id matches the filter, then this shard's part of
 * them: the matching ids sorted, and every n-th from position k-1. Every case
 * lands in exactly one shard, the shards differ in size by at most one, and
 * the split depends only on the set of ids (not on suite order).
 */
export function selectCases<T extends { id: string }>(cases: readonly T[], selection: Selection): T[] {
  const pattern = selection.filter === undefined ? undefined : new RegExp(selection.filter);
  const matching = pattern === undefined ? [...cases] : cases.filter((benchCase) => pattern.test(benchCase.id));
  const shard = selection.shard;
  if (shard === undefined) return matching;
  const sortedIds = matching.map((benchCase) => benchCase.id).sort();
  const mine = new Set(sortedIds.filter((_, position) => position % shard.count === shard.index - 1));
  return matching.filter((benchCase) => mine.has(benchCase.id));
}

export type { SuiteDefinition, SuiteOptions } from './types.js';
