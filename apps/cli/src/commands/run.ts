// `layerbench run [suite...]`: measure suites and print them in the suite's
// own format (the NTPsec table, esptest lines, ...) or one chosen format.
import {
  formatEsptest,
  formatJson,
  formatMarkdown,
  formatNtpsec,
  formatSpeed,
  formatTable,
  toBmf,
} from '@layerbench/bench-runner/reporters';
import type { RunResult } from '@layerbench/bench-runner';
import { minCalmProcessesPerSide } from '@layerbench/bench-runner/compare';
import {
  anyText,
  booleanOption,
  formatOptionHelp,
  oneOf,
  nonNegativeInteger,
  parseArgs,
  positiveInteger,
  positiveNumber,
  regexText,
  shardSpec,
  valueOption,
} from '../args.js';
import { cpuChoice, runCpuOptionHelp } from '../cpu.js';
import type { LayerReport } from '../layer-env.js';
import { extraProcessesFor, measureInProcesses } from '../fresh-processes.js';
import { failureLines, measure, suiteErrorLines } from '../measure.js';
import type { MeasureRequest } from '../measure.js';
import { outputPath } from '../result-files.js';
import { allSuites, defaultRun, suitesFor } from '../suites/index.js';
import type { SuiteDefinition } from '../suites/index.js';
import type { DefaultFormat } from '../suites/types.js';
import { styleFor } from '../terminal.js';
import type { Command, CommandContext } from './types.js';

export const runFormats = ['table', 'ntpsec', 'esptest', 'speed', 'markdown', 'json', 'bmf'] as const;
export type RunFormat = (typeof runFormats)[number];

const options = {
  filter: valueOption('regex', 'only cases whose id matches this regular expression', regexText),
  time: valueOption(
    'seconds',
    `seconds of measurement per case (default 1; ${defaultRun.timePerCase} for the default suites)`,
    positiveNumber('seconds'),
  ),
  format: valueOption('name', `output: ${runFormats.join('|')} (default: each suite's own format)`, oneOf(runFormats)),
  out: valueOption('file', 'write the result file here, rewritten after every finished case', anyText),
  shard: valueOption('k/n', 'run only shard k of n (for a CI matrix); every case is in exactly one shard', shardSpec),
  cpu: valueOption('n|auto|none', runCpuOptionHelp, cpuChoice),
  processes: valueOption(
    'k',
    `measure in k fresh processes one after the other, each --time per case (default 1); compare then takes the spread between them from the files, and with a calibration compares the calm figures of at least ${minCalmProcessesPerSide} processes a side in the CPU's fast state (use k >= 4)`,
    positiveInteger('processes'),
  ),
  'extra-processes': valueOption(
    'n',
    "with --processes k: up to n more processes while a case has fewer than k processes in the shared CPU's fast state, which compare compares (default k/2 rounded up; 0: exactly k)",
    nonNegativeInteger('processes'),
  ),
  quiet: booleanOption('no progress on stderr', 'q'),
  'esptest-seconds': valueOption(
    'seconds',
    `length of each esptest loop (default 5; ${defaultRun.esptestSeconds} for the default suites)`,
    positiveNumber('seconds'),
  ),
  compat: booleanOption(
    "esptest lines use esptest's own Mb/s figure (packets x 1400 / seconds / 250000, truncated: half the true rate)",
  ),
};

const argSpec = { options, positionals: { name: '[suite...]' } };

export const runCommand: Command = {
  name: 'run',
  summary: 'measure suites and print their tables (default: the suites of `npm run bench`)',
  usage: [
    'Usage: layerbench run [suite...] [options]',
    '',
    'Measures the cases of the given suites and prints them. Without suites it runs',
    `the default set (${defaultRun.suites.join(', ')}) sized to finish in about two minutes.`,
    '',
    `Suites: ${allSuites.map((suite) => suite.name).join(', ')}`,
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Machine-readable output (json, bmf) goes to stdout and nothing else does; progress',
    'goes to stderr only when it is a terminal. Ctrl-C stops after the current case and',
    'keeps the finished cases in --out.',
    '',
    'Exit codes: 0 every case ran with the right output, 1 a case failed or its output',
    'digest was wrong, 2 bad input, 130 interrupted.',
    '',
    'Examples:',
    '  layerbench run cmac-timing --format ntpsec',
    '  layerbench run esptest --esptest-seconds 5 --compat',
    '  layerbench run sha1 hmac --time 2 --out head.json',
    '  layerbench run sha1 --time 1 --processes 5 --out base.json',
    '  layerbench run --shard 2/4 --format json > shard2.json',
  ].join('\n'),
  argSpec,
  run: runSuites,
};

function renderRun(run: RunResult, format: Exclude<RunFormat, 'json' | 'bmf'>, compat: boolean): string {
  switch (format) {
    case 'table':
      return formatTable(run);
    case 'ntpsec':
      return formatNtpsec(run);
    case 'esptest':
      // run prints the capability line before measuring (as esptest does); the reporter's copy would repeat it.
      return formatEsptest(run, { compat })
        .split('\n')
        .filter((line) => !line.startsWith('CPU capabilities: '))
        .join('\n');
    case 'speed':
      return formatSpeed(run);
    case 'markdown':
      return formatMarkdown(run);
  }
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The line esptest prints before measuring, and human output here starts with. */
export function capabilityLine(report: LayerReport): string {
  return `CPU capabilities: ${report.capabilities ?? '(not reported)'}`;
}

/** Every dispatch decision with its reason: printed with esptest output, which the seed's cause hid in. */
export function dispatchLines(report: LayerReport): string[] {
  return report.dispatch.map(
    (decision) => `Dispatch: ${decision.layer}: ${decision.decision} -> ${decision.impl} (${decision.reason})`,
  );
}

async function runSuites(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = parseArgs(args, argSpec);
  const chosen = parsed.options;
  const useDefaults = parsed.positionals.length === 0;
  const suites: SuiteDefinition[] = suitesFor(parsed.positionals);
  const format = chosen.format;
  // json/bmf are one document each; markdown is a document too (its header names the capability word).
  const preamble = format !== 'json' && format !== 'bmf' && format !== 'markdown';
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const timePerCase = chosen.time ?? (useDefaults ? defaultRun.timePerCase : undefined);
  const esptestSeconds = chosen['esptest-seconds'] ?? (useDefaults ? defaultRun.esptestSeconds : undefined);
  const style = styleFor(ctx.stderr, ctx.env);
  // Only esptest output: the dispatch decisions follow the capability line before measuring, as in the seed.
  const onlyEsptest =
    format === 'esptest' || (format === undefined && suites.every((suite) => suite.defaultFormat === 'esptest'));

  const request: MeasureRequest = {
    suites,
    selection: {
      ...(chosen.filter === undefined ? {} : { filter: chosen.filter }),
      ...(chosen.shard === undefined ? {} : { shard: chosen.shard }),
    },
    ...(timePerCase === undefined ? {} : { timePerCase }),
    ...(esptestSeconds === undefined ? {} : { esptestSeconds }),
    ...(out === undefined ? {} : { out }),
    quiet: chosen.quiet,
    ...(chosen.cpu === undefined ? {} : { cpu: chosen.cpu }),
    filterMustMatch: true,
    onStart: ({ report, cases }) => {
      if (preamble)
        ctx.stdout.write(`${[capabilityLine(report), ...(onlyEsptest ? dispatchLines(report) : [])].join('\n')}\n`);
      if (cases.length === 0) ctx.stderr.write(`${style.yellow('warning:')} no cases selected\n`);
    },
  };
  const processes = chosen.processes ?? 1;
  const extra = extraProcessesFor(chosen['extra-processes'], processes, '--processes k (2 or more)');
  const measurement =
    processes > 1
      ? await measureInProcesses(request, childRunArgs(args), processes, 'run', ctx, extra)
      : await measure(request, ctx);
  if (typeof measurement === 'number') return measurement;
  const { run } = measurement;

  if (format === 'json') ctx.stdout.write(withNewline(formatJson(run)));
  else if (format === 'bmf') ctx.stdout.write(`${JSON.stringify(toBmf(run), null, 2)}\n`);
  else if (format !== undefined) ctx.stdout.write(withNewline(renderRun(run, format, chosen.compat)));
  else {
    // Each suite in its own format, in the order given.
    const groups = suites
      .map((suite) => ({
        suite,
        cases: run.cases.filter((result) => measurement.suiteOf.get(result.id) === suite.name),
      }))
      .filter((group) => group.cases.length > 0);
    for (const group of groups) {
      const suiteFormat: DefaultFormat = group.suite.defaultFormat;
      if (groups.length > 1) {
        ctx.stdout.write(`\n== ${group.suite.name}: ${group.suite.description}\n\n`);
        if (suiteFormat === 'esptest' && !onlyEsptest)
          ctx.stdout.write(
            dispatchLines(measurement.report)
              .map((line) => `${line}\n`)
              .join(''),
          );
      }
      ctx.stdout.write(withNewline(renderRun({ ...run, cases: group.cases }, suiteFormat, chosen.compat)));
    }
  }

  for (const line of suiteErrorLines(measurement.suiteErrors)) ctx.stderr.write(`${style.red('error:')} ${line}\n`);
  const failures = failureLines(run);
  for (const line of failures) ctx.stderr.write(`${style.red(line)}\n`);
  if (run.interrupted === true) {
    const kept = out === undefined ? '' : ` (kept in ${chosen.out})`;
    const done =
      processes > 1
        ? `${run.processes ?? 0} of ${processes} processes`
        : `${run.cases.length} of ${measurement.selected.length} cases`;
    ctx.stderr.write(`layerbench: interrupted after ${done}${kept}\n`);
    return 130;
  }
  return failures.length > 0 || measurement.suiteErrors.length > 0 ? 1 : 0;
}

/** The arguments of this run without --processes and --out: what each child process runs. */
export function childRunArgs(args: readonly string[]): string[] {
  const child: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.startsWith('--') ? arg.slice(2).split('=')[0] : undefined;
    if (
      name === 'processes' ||
      name === 'extra-processes' ||
      name === 'out' ||
      name === 'format' ||
      name === 'quiet' ||
      arg === '-q'
    ) {
      // --name value (not --name=value) takes the next argument with it; --quiet and -q take none.
      if (name !== undefined && name !== 'quiet' && !arg.includes('=')) i++;
      continue;
    }
    child.push(arg);
  }
  return child;
}
