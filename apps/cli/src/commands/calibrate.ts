// `layerbench calibrate`: what `compare` and `check` can tell apart on this
// machine. Runs the chosen suites K times, each in a fresh process exactly as
// `layerbench run` does, measures how far each case moves from process to
// process, stores that for this machine and runtime (compare and check use
// it), and reports what it gives: the cross-validated false-alarm rate of
// separate-run comparisons and each case's minimum detectable effect at this
// --time. `--interleaved` instead calibrates interleaved measurement in one
// process (what bisect does).
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { calibrationLoadLimit, calmBases, figureBases, minRunShare } from '@layerbench/bench-runner/compare';
import {
  CalibrationInterruptedError,
  calibrate,
  calibrateBetweenRunsAsync,
  calibrationDir,
  defaultCrossValidationPairs,
  inRunOrder,
  minNeighbourPairs,
  saveBetweenRunCalibration,
  severalProcessesOutlook,
  sittingGapFactor,
  sittingsOf,
  targetCaseFalseAlarms,
  targetPairFalseAlarms,
  withinFalseAlarmTargets,
} from '@layerbench/bench-runner/calibration';
import { formatJson } from '@layerbench/bench-runner/reporters';
import { readRunResult, writeResultFile } from '@layerbench/bench-runner/results';
import type { BetweenRunCalibration, Calibration, RunResult } from '@layerbench/bench-runner';
import {
  UsageError,
  anyText,
  booleanOption,
  formatOptionHelp,
  fraction,
  nonNegativeInteger,
  oneOf,
  parseArgs,
  positiveInteger,
  positiveNumber,
  regexText,
  valueOption,
} from '../args.js';
import { assertWorkspaceBuilt } from '../layers.js';
import { InputFileError, outputPath, readRunInput } from '../result-files.js';
import { defaultRun, suiteByName } from '../suites/index.js';
import { cpuChoice } from '../cpu.js';
import { sayer } from '../terminal.js';
import { calmStatesOf, defaultExtraProcesses, runInFreshProcess, shortOfFastState } from '../fresh-processes.js';
import type { Command, CommandContext } from './types.js';

/**
 * Processes of a case in the CPU's fast state that its spread between
 * neighbouring processes needs (minNeighbourPairs pairs). Without that split
 * all of a case's spread counts as shared by a run's processes, and more
 * processes a side do not narrow compare's interval: measured (CLI README,
 * "calibrate"), a +5% slowdown was detected between runs of 4 processes in
 * 12 of 36 comparisons with such a calibration, 25 of 25 with a fitting one.
 */
export const neighbourSplitProcesses = minNeighbourPairs + 1;

const options = {
  time: valueOption(
    'seconds',
    `seconds of measurement per case, as in \`run --time\` (default 1; ${defaultRun.timePerCase} for the default suites)`,
    positiveNumber('seconds'),
  ),
  processes: valueOption(
    'n',
    'fresh processes, each one full run (default 8, at least 4)',
    positiveInteger('processes'),
  ),
  'extra-processes': valueOption(
    'n',
    `up to n more processes while a case has fewer than ${neighbourSplitProcesses} processes in the CPU's fast state (default --processes/2 rounded up; 0: exactly --processes)`,
    nonNegativeInteger('processes'),
  ),
  filter: valueOption('regex', 'only cases whose id matches', regexText),
  threshold: valueOption(
    'ratio',
    "noise threshold of the comparisons (default: compare's)",
    fraction('a relative change'),
  ),
  alpha: valueOption('p', "significance level (default: compare's)", fraction('a probability')),
  format: valueOption('name', 'text|json', oneOf(['text', 'json'] as const)),
  out: valueOption('file', 'also write the calibration result file here', anyText),
  'no-store': booleanOption(
    'print it (and write --out) only: the stored calibration compare and check use stays as it is',
  ),
  'keep-runs': valueOption(
    'dir',
    "keep each process's run result file here (run-1.json, ...; the folder is created; runs already there are kept and numbered on from)",
    anyText,
  ),
  'from-runs': valueOption(
    'dir',
    'calibrate from the run result files already in this folder (e.g. an earlier --keep-runs) instead of running',
    anyText,
  ),
  pairs: valueOption(
    'n',
    `pairs of processes the cross-validation compares, at most (default ${defaultCrossValidationPairs}; with more processes, a fixed sample in which each process takes part about equally)`,
    positiveInteger('pairs'),
  ),
  cpu: valueOption('n|auto|none', 'the CPU each run measures on, as in `run --cpu` (default: not pinned)', cpuChoice),
  quiet: booleanOption('no progress on stderr', 'q'),
  interleaved: booleanOption('calibrate interleaved measurement in one process instead (what bisect uses)'),
  repeats: valueOption('n', 'with --interleaved: comparisons per effect size (default 20)', positiveInteger('repeats')),
};

const argSpec = { options, positionals: { name: '[suite...]' } };

export const calibrateCommand: Command = {
  name: 'calibrate',
  summary: 'measure what compare and check can tell apart on this machine (false alarms, smallest detectable change)',
  usage: [
    'Usage: layerbench calibrate [suite...] [options]',
    '',
    'Runs the suites (default: those of `layerbench run`) --processes times, each in a',
    'fresh process as `layerbench run --out` does, and measures how far every case',
    'moves from one process to the next: two runs of identical code differ by that',
    `much. While a case has fewer than ${neighbourSplitProcesses} processes in the shared CPU's fast state,`,
    'up to --extra-processes more follow: the spread between such neighbouring',
    "processes is what lets runs of several processes narrow compare's interval.",
    'The spread is stored for this machine and runtime (in',
    `${calibrationDir({ ...process.env })}, or $LAYERBENCH_CALIBRATION_DIR), and`,
    '`compare` and `check` then use it (the stored calibration with the same --time, or',
    "the nearest). It prints what that allows, with compare's own machinery:",
    '- the false-alarm rate: each pair of processes compared, using the spread measured',
    `  by the other processes only (so no process judges itself; of more than ${defaultCrossValidationPairs} pairs,`,
    '  a fixed sample: --pairs);',
    '- the share of comparisons that detect an injected slowdown of 2% ... 100%, and each',
    "  case's minimum detectable effect (the smallest detected in every pair).",
    'Calibrate with the load the comparisons will see: the spread grows with it.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Exit codes: 0 done, 1 a process failed, 2 bad input, 130 interrupted (Ctrl-C stops',
    'the running process, or the comparing of pairs, at once; nothing is stored).',
    '',
    'Example:',
    '  layerbench calibrate sha1 hmac --time 0.3 --processes 8',
  ].join('\n'),
  argSpec,
  run: runCalibration,
};

const percent = (share: number, digits = 1): string => `${(share * 100).toFixed(digits)}%`;

/** A minimum detectable effect in words: beyond +900% (x10) the figure only says "nothing this run can see". */
export function describeMde(mde: number | undefined, digits = 0): string {
  if (mde === undefined) return 'none of those tested';
  return mde > 9 ? 'more than x10 (nothing these processes can tell apart)' : percent(mde, digits);
}

export function formatCalibrationText(calibration: Calibration): string {
  const lines = [
    `Interleaved calibration: ${calibration.timePerCase} s per case, ${calibration.repeats} repeats, threshold ${percent(calibration.threshold)}, alpha ${calibration.alpha}`,
    `  ${calibration.env.cpuModel} x ${calibration.env.cpuCount}, node ${calibration.env.node}`,
    '',
    `False-alarm rate (A/A): ${percent(calibration.falseAlarmRate)} [${percent(calibration.falseAlarmCi[0])}, ${percent(calibration.falseAlarmCi[1])}]` +
      `   A/A ratio median ${calibration.aaRatio.median.toFixed(4)} (MAD ${calibration.aaRatio.mad.toFixed(4)})`,
    '',
    '  extra work  detected  95% interval      significant  median ratio',
  ];
  for (const effect of calibration.effects) {
    lines.push(
      `  ${percent(effect.effect).padStart(10)}  ${percent(effect.detectionRate, 0).padStart(8)}  ` +
        `[${percent(effect.detectionCi[0], 0)}, ${percent(effect.detectionCi[1], 0)}]`.padEnd(16) +
        `  ${percent(effect.significantRate, 0).padStart(11)}  ${effect.medianRatio.toFixed(4).padStart(12)}`,
    );
  }
  lines.push(
    '',
    calibration.minimumDetectableEffect === null
      ? 'Minimum detectable effect: none of the effects was detected with >= 95% power (try a longer --time)'
      : `Minimum detectable effect: ${percent(calibration.minimumDetectableEffect)} (detected with >= 95% power)`,
    `Timing overhead of an empty case: ${calibration.overhead.medianNs.toFixed(1)} ns/op (MAD ${calibration.overhead.madNs.toFixed(1)})`,
  );
  return lines.join('\n');
}

/** The between-run calibration for people: what compare can and cannot tell on this machine. */
export function formatBetweenRunText(
  calibration: BetweenRunCalibration,
  stored?: string,
  keptIn?: string,
  sittings = 1,
): string {
  const ids = Object.keys(calibration.cases);
  const fa = calibration.falseAlarms;
  const withinTargets = withinFalseAlarmTargets(fa);
  const targets = `at most ${percent(targetPairFalseAlarms, 0)} of pairs with a case called regressed and ${percent(targetCaseFalseAlarms, 0)} of case comparisons regressed or improved`;
  const loads = calibration.load.flat();
  const bounds = calibrationLoadLimit(calibration);
  const lines = [
    `Between-run calibration: ${calibration.processes} fresh processes of \`run ${calibration.suites.join(' ')}` +
      `${calibration.filter === undefined ? '' : ` --filter '${calibration.filter}'`} --time ${calibration.timePerCase}\` (${ids.length} cases)`,
    `  ${calibration.env.cpuModel} x ${calibration.env.cpuCount}, node ${calibration.env.node}, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}` +
      (bounds === undefined
        ? ''
        : ` (at its processes' ends at most ${bounds.read.toFixed(2)}: compare and check use it for runs that end at a load average up to ${bounds.limit.toFixed(2)})`),
    `  threshold ${percent(calibration.threshold)}, alpha ${calibration.alpha}`,
    ...(sittings > 1
      ? [
          `  from ${sittings} sittings (processes more than ${sittingGapFactor} times the median spacing apart): their spreads include what moved between sittings, which runs minutes apart do not meet. Measured on nine sittings, each judged with a calibration of the other eight: a +5% was found in 48 of 144 comparisons, 62 with each sitting's own (bench-runner README, "Calibrations from other sittings, held out"); it found more where a sitting's own had no neighbour split`,
        ]
      : []),
    '',
    `Spread of one case between processes (sd of log figure, median / 90th percentile over cases), per figure of a slice:`,
    ...figureBases
      .filter((basis) => calibration.pooled[basis] !== undefined)
      .map(
        (basis) =>
          `  ${basis.padEnd(16)} ${percent(calibration.pooled[basis]!.p50, 2).padStart(7)} / ${percent(calibration.pooled[basis]!.p90, 2)}`,
      ),
    `  compare and check use the ${calibration.basis} figure, and take no case as steadier than ${percent(calibration.floor.sigma, 2)}` +
      ` (the ${calibration.floor.quantile * 100}th percentile of the cases: ${withinTargets ? `the smallest floor at which cross-validated A/A comparisons met the targets, ${targets}` : `no floor met the targets, ${targets}: the largest`})`,
    ...(calmBases.every((basis) => calibration.pooled[basis] === undefined)
      ? []
      : [
          `  runs of several processes (\`run --processes k\`) are compared on the calm figure (${calmBases.filter((basis) => calibration.pooled[basis] !== undefined).join(' or ')}, per case the one with the smaller spread) of their processes in the fast state, with this spread pooled with their own; the figures below are for one-process runs`,
        ]),
    '',
    `False alarms of separate-run A/A comparisons (${pairsCompared(calibration)} against the spread of the other processes; a lower bound: a case's mode rarer than one process in ${calibration.processes} may not be among them):`,
    `  ${fa.flagged} of ${fa.compared} case comparisons called regressed or improved (${percent(fa.compared ? fa.flagged / fa.compared : 0, 2)});` +
      ` ${fa.pairsFlagged} of ${fa.pairs} pairs would exit 1 (${percent(fa.pairs ? fa.pairsFlagged / fa.pairs : 0)})`,
    ...(withinTargets
      ? []
      : [
          `  above the targets: two one-process runs of unchanged code can be called regressed or improved here by timing alone (compare still calls byte-identical code unchanged); a case in a mode of its own in one process is beyond any floor, and runs of several processes (\`run --processes\`) show such a mode in their own spread`,
        ]),
    '',
    'Injected slowdown -> share of case comparisons called regressed:',
  ];
  for (const d of calibration.detection) {
    lines.push(
      `  +${percent(d.effect, 0).padStart(4)}  ${percent(d.compared ? d.detected / d.compared : 0).padStart(6)}`,
    );
  }
  const mdes = ids.map((id) => calibration.cases[id]!.minimumDetectableEffect ?? null);
  const within = (limit: number) => mdes.filter((m) => m !== null && m <= limit + 1e-12).length;
  const sortedMdes = mdes.filter((m): m is number => m !== null).sort((a, b) => a - b);
  const medianMde = sortedMdes.length > ids.length / 2 ? sortedMdes[Math.floor(ids.length / 2)] : undefined;
  lines.push(
    '',
    `Minimum detectable effect at --time ${calibration.timePerCase} (detected in every pair): median ${describeMde(medianMde)};` +
      ` <= 3%: ${within(0.03)} cases, <= 5%: ${within(0.05)}, <= 10%: ${within(0.1)}, <= 100%: ${within(1)}, of ${ids.length}`,
  );
  const spread = (id: string) => calibration.cases[id]!.sigma[calibration.basis] ?? 0;
  const widest = [...ids].sort((a, b) => spread(b) - spread(a)).slice(0, 5);
  lines.push(
    `Most variable cases (${calibration.basis}): ${widest.map((id) => `${id} ${percent(spread(id), 1)}`).join(', ')}`,
  );
  lines.push('', ...severalProcessesLines(calibration, keptIn));
  if (stored !== undefined) lines.push('', `Stored for compare and check: ${stored}`);
  return lines.join('\n');
}

/** Process counts a side whose minimum detectable effect calibrate reports. */
const processCounts = [1, 2, 4, 8] as const;

/**
 * What runs of several processes a side can tell: the minimum detectable
 * effect for 1, 2, 4 and 8 processes (bench-runner's severalProcessesOutlook),
 * and per case how its spread splits into the part that changes between
 * neighbouring processes (averaged by more processes) and the part a run's
 * processes share (not).
 */
function severalProcessesLines(calibration: BetweenRunCalibration, keptIn?: string): string[] {
  const outlooks = processCounts.map((k) => severalProcessesOutlook(calibration, k));
  const ids = Object.keys(calibration.cases);
  const mdeAt = (i: number) => {
    const sorted = ids
      .map((id) => outlooks[i]![id]!.minimumDetectableEffect)
      .filter((m): m is number => m !== null)
      .sort((a, b) => a - b);
    return describeMde(sorted.length > ids.length / 2 ? sorted[Math.floor(ids.length / 2)] : undefined, 1);
  };
  // The split is shown as runs of four processes a side are judged (one-process runs use another figure).
  const at4 = outlooks[processCounts.indexOf(4)]!;
  const split = ids.some((id) => at4[id]!.neighbour !== undefined);
  // Too few processes for any neighbour pairs at all, or (more) too few of a case's in the fast state.
  const fewProcesses = calibration.processes <= minNeighbourPairs;
  const lines = [
    'Runs of several processes a side (`run --processes k` for both runs), as compare judges them when their processes spread as these did:',
    split
      ? `  each case's spread splits into what changed between neighbouring processes (averaged over a run's processes) and what the rest says consecutive processes share (not averaged; at least ${percent(minRunShare, 0)} of the spread: a shift over longer than these minutes is not seen here)`
      : `  no spread between neighbouring processes was measured (${fewProcesses ? 'fewer than 6 processes' : "fewer than 6 processes of a case met the CPU's fast state"}): all of it counts as shared by a run's processes, so more processes do not narrow the interval`,
    `  minimum detectable effect, median over cases: ${processCounts.map((k, i) => `${k} process${k === 1 ? '' : 'es'} ${mdeAt(i)}`).join(', ')}`,
  ];
  const shown = ids.length <= 12 ? ids : ids.slice(0, 12);
  const width = Math.max(...shown.map((id) => id.length));
  for (const id of shown) {
    const o = at4[id]!;
    const parts =
      o.neighbour === undefined
        ? `${percent(o.sigma, 2)} (${o.basis})`
        : `${percent(o.sigma, 2)} (${o.basis}): ${percent(o.neighbour, 2)} between neighbours, ${percent(o.run, 2)} shared`;
    lines.push(
      `  ${id.padEnd(width)}  ${parts}; 4 processes a side: ${describeMde(o.minimumDetectableEffect ?? undefined, 1)}`,
    );
  }
  if (shown.length < ids.length)
    lines.push(`  ... and ${ids.length - shown.length} more cases (--format json has them all)`);
  // Cases whose calm processes were too few for a neighbour spread: more processes, from another sitting too, add up.
  const unsplit = ids.filter((id) => at4[id]!.neighbour === undefined).length;
  if (unsplit > 0 && !fewProcesses) {
    const folder = keptIn ?? '<dir>';
    lines.push(
      `  ${unsplit} of ${ids.length} cases without that split (too few processes met the CPU's fast state while they ran): ` +
        `calibrate again later with \`--keep-runs ${folder}\`, then \`calibrate --from-runs ${folder}\` takes the processes of every sitting`,
    );
  }
  return lines;
}

/** How many sittings these processes came from (sittingsOf, over them in the order they ran). */
function sittingCount(runs: readonly RunResult[]): number {
  return Math.max(0, ...sittingsOf(inRunOrder(runs))) + 1;
}

/** The pairs of n processes. */
const pairsOf = (n: number): number => (n * (n - 1)) / 2;

/** Which pairs of processes the cross-validation compared: every one, or a sample of them. */
function pairsCompared(calibration: BetweenRunCalibration): string {
  const all = pairsOf(calibration.processes);
  return calibration.falseAlarms.pairs < all
    ? `${calibration.falseAlarms.pairs} of the ${all} pairs of processes, a fixed sample in which each process takes part about equally, each`
    : 'each pair';
}

/** Computes, stores and prints the calibration of these runs (130: interrupted while comparing, nothing stored). */
async function finishCalibration(
  chosen: ReturnType<typeof parseArgs<typeof options>>['options'],
  runs: RunResult[],
  out: string | undefined,
  ctx: CommandContext,
): Promise<number> {
  const say = sayer(ctx, chosen.quiet, 'calibrate');
  const maxPairs = chosen.pairs ?? defaultCrossValidationPairs;
  const all = pairsOf(runs.length);
  say(
    all <= maxPairs
      ? `comparing every pair of processes (cross-validated, ${all} pairs) ...`
      : `comparing ${maxPairs} of the ${all} pairs of processes (cross-validated; --pairs to change) ...`,
  );
  let calibration: BetweenRunCalibration;
  try {
    calibration = await calibrateBetweenRunsAsync(runs, {
      ...(chosen.threshold === undefined ? {} : { threshold: chosen.threshold }),
      ...(chosen.alpha === undefined ? {} : { alpha: chosen.alpha }),
      maxPairs,
      onProgress: say,
      signal: ctx.signal,
    });
  } catch (error) {
    if (!(error instanceof CalibrationInterruptedError)) throw error;
    ctx.stderr.write('layerbench calibrate: interrupted while comparing pairs of processes; nothing stored\n');
    return 130;
  }
  const stored = chosen['no-store'] ? undefined : saveBetweenRunCalibration(calibration, calibrationDir(ctx.env));
  if (out !== undefined) writeResultFile(out, calibration);
  ctx.stdout.write(
    (chosen.format === 'json'
      ? formatJson(calibration)
      : formatBetweenRunText(calibration, stored, chosen['keep-runs'] ?? chosen['from-runs'], sittingCount(runs))
    ).replace(/\n?$/, '\n'),
  );
  return 0;
}

/** The highest N of the run-N.json files in a --keep-runs folder (0: none). */
function lastKeptRun(folder: string): number {
  let last = 0;
  for (const name of readdirSync(folder)) {
    const n = /^run-(\d+)\.json$/.exec(name);
    if (n) last = Math.max(last, Number(n[1]));
  }
  return last;
}

/** --from-runs: the run files of a folder, validated, in name order. */
function runsFrom(ctx: CommandContext, dir: string): RunResult[] {
  const folder = resolve(ctx.cwd, dir);
  let names: string[];
  try {
    names = readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  } catch {
    throw new InputFileError(`--from-runs ${dir}: cannot read that folder`);
  }
  return names.map((name) => readRunInput(ctx, join(folder, name)));
}

async function betweenRuns(
  chosen: ReturnType<typeof parseArgs<typeof options>>['options'],
  suites: string[],
  ctx: CommandContext,
): Promise<number> {
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  if (chosen['from-runs'] !== undefined) {
    if (
      suites.length > 0 ||
      chosen.time !== undefined ||
      chosen.processes !== undefined ||
      chosen['extra-processes'] !== undefined ||
      chosen.filter !== undefined
    ) {
      throw new UsageError('--from-runs takes the suites, --time and processes from the run files: give none of them');
    }
    const runs = runsFrom(ctx, chosen['from-runs']);
    try {
      return await finishCalibration(chosen, runs, out, ctx);
    } catch (error) {
      if (error instanceof RangeError) throw new InputFileError(`--from-runs ${chosen['from-runs']}: ${error.message}`);
      throw error;
    }
  }
  const processes = chosen.processes ?? 8;
  if (processes < 4)
    throw new UsageError(`--processes ${processes} is too few: leave-two-out cross-validation needs at least 4`);
  const useDefaults = suites.length === 0;
  for (const name of suites) suiteByName(name);
  // Each process would fail the same way: said once, before any starts.
  assertWorkspaceBuilt();
  const names = useDefaults ? [...defaultRun.suites] : suites;
  const time = chosen.time ?? (useDefaults ? defaultRun.timePerCase : 1);
  const say = sayer(ctx, chosen.quiet, 'calibrate');
  if (chosen['keep-runs'] !== undefined) {
    try {
      mkdirSync(resolve(ctx.cwd, chosen['keep-runs']), { recursive: true });
    } catch {
      // Not creatable (a file there, no permission): outputPath below says so as bad input.
    }
  }
  const keep = chosen['keep-runs'] === undefined ? undefined : outputPath(ctx, join(chosen['keep-runs'], 'run-1.json'));
  const work = keep === undefined ? mkdtempSync(join(tmpdir(), 'layerbench-calibrate-')) : dirname(keep);
  // A folder kept before keeps its runs: these are numbered on from them (--from-runs then reads them all).
  const first = keep === undefined ? 1 : lastKeptRun(work) + 1;
  try {
    const runs: RunResult[] = [];
    const states: Map<string, number | null>[] = [];
    const extra = chosen['extra-processes'] ?? defaultExtraProcesses(processes);
    for (let k = 1; k <= processes + extra; k++) {
      // The top-up: looks at the state probe beside each case only, never at its figures.
      const short = k > processes ? shortOfFastState(states, neighbourSplitProcesses) : [];
      if (k > processes && short.length === 0) break;
      const file = join(work, `run-${first + k - 1}.json`);
      const args = [...names, '--time', String(time), '--quiet', '--out', file];
      if (useDefaults) args.push('--esptest-seconds', String(defaultRun.esptestSeconds));
      if (chosen.filter !== undefined) args.push('--filter', chosen.filter);
      if (chosen.cpu !== undefined) args.push('--cpu', String(chosen.cpu));
      say(
        k > processes
          ? `process ${k} (at most ${processes + extra}): ${short.length} case(s) with fewer than ${neighbourSplitProcesses} processes in the CPU's fast state`
          : `process ${k} of ${processes}: layerbench run ${names.join(' ')} --time ${time}`,
      );
      const ended = await runInFreshProcess(ctx, args);
      if (ended === undefined) {
        ctx.stderr.write(
          `layerbench calibrate: interrupted after ${k - 1} of ${Math.max(k, processes)} processes; nothing stored\n`,
        );
        return 130;
      }
      if (ended.code !== 0) {
        ctx.stderr.write(`layerbench calibrate: process ${k} failed (exit ${ended.code}):\n${ended.stderr}`);
        return ended.code === 2 ? 2 : 1;
      }
      const run = readRunResult(file);
      runs.push(run);
      states.push(calmStatesOf(run));
    }
    if (runs.length > processes)
      say(
        `${runs.length - processes} more process(es), ${runs.length} in all: cases had fewer than ${neighbourSplitProcesses} processes in the CPU's fast state`,
      );
    return await finishCalibration(chosen, runs, out, ctx);
  } finally {
    if (keep === undefined) rmSync(work, { recursive: true, force: true });
  }
}

async function runCalibration(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen, positionals } = parseArgs(args, argSpec);
  if (!chosen.interleaved) {
    if (chosen.repeats !== undefined) throw new UsageError('--repeats goes with --interleaved');
    return betweenRuns(chosen, positionals, ctx);
  }
  if (positionals.length > 0 || chosen.processes !== undefined || chosen.filter !== undefined) {
    throw new UsageError('--interleaved times a fixed workload: it takes no suites, --processes or --filter');
  }
  if (chosen['no-store'])
    throw new UsageError('--no-store goes with a between-run calibration: --interleaved stores nothing');
  if (chosen.pairs !== undefined)
    throw new UsageError('--pairs goes with a between-run calibration: --interleaved compares no pairs of processes');
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const showProgress = ctx.stderr.isTTY === true && !chosen.quiet;
  if (!chosen.quiet && !showProgress)
    ctx.stderr.write('calibrate: interleaved A/A and A/B comparisons of a fixed workload in this process\n');
  let calibration: Calibration;
  try {
    calibration = await calibrate({
      ...(chosen.time === undefined ? {} : { timePerCase: chosen.time }),
      ...(chosen.repeats === undefined ? {} : { repeats: chosen.repeats }),
      ...(chosen.threshold === undefined ? {} : { threshold: chosen.threshold }),
      ...(chosen.alpha === undefined ? {} : { alpha: chosen.alpha }),
      signal: ctx.signal,
      ...(showProgress ? { onProgress: (message: string) => ctx.stderr.write(`\r\u001b[K${message}`) } : {}),
    });
  } catch (error) {
    if (!(error instanceof CalibrationInterruptedError)) throw error;
    if (showProgress) ctx.stderr.write('\r\u001b[K');
    ctx.stderr.write('layerbench calibrate: interrupted; nothing written\n');
    return 130;
  }
  if (showProgress) ctx.stderr.write('\r\u001b[K');
  if (out !== undefined) writeResultFile(out, calibration);
  ctx.stdout.write(
    (chosen.format === 'json' ? formatJson(calibration) : formatCalibrationText(calibration)).replace(/\n?$/, '\n'),
  );
  return 0;
}
