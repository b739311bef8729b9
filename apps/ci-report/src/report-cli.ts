// `layerbench-report`: result files in, Markdown (job summary / PR comment)
// and a self-contained HTML report out. Exit 0 (1 with --fail-on-regression
// when something regressed), 2 for bad usage or an unusable input file.
import { writeFileSync } from 'node:fs';
import { formatReportHtml } from './html.js';
import { readReportInputs, ReportInputError } from './inputs.js';
import { formatReportMarkdown, overallVerdict } from './markdown.js';

export const USAGE = `Usage: layerbench-report <result.json>... [options]

Reads layerbench run, compare and bisect result files (run files of several CI
shards or machines are merged by env.machineId) and writes a report.

Options:
  --markdown <file>     write the Markdown report (headline verdict, attributed layers,
                        changed cases, fingerprint differences; under 65,536 characters)
  --html <file>         write one self-contained HTML file with the charts
  --title <text>        the HTML report's title (default "layerbench report")
  --fail-on-regression  exit 1 when a case regressed or a bisection did not finish
  -h, --help            show this help

Without --markdown or --html the Markdown report goes to stdout.
Exit codes: 0 written, 1 regression or incomplete bisection (with --fail-on-regression),
2 bad usage or input file.`;

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A command line `layerbench-report` refuses (exit 2). */
export class UsageProblem extends Error {}

/** The options and files of one command line; UsageProblem when it is not valid. */
export function parseReportArgs(argv: readonly string[]) {
  const files: string[] = [];
  const chosen: { markdown?: string; html?: string; title?: string; failOnRegression: boolean; help: boolean } = {
    failOnRegression: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageProblem(`${arg} needs a value`);
      return v;
    };
    if (arg === '--markdown') chosen.markdown = value();
    else if (arg === '--html') chosen.html = value();
    else if (arg === '--title') chosen.title = value();
    else if (arg === '--fail-on-regression') chosen.failOnRegression = true;
    else if (arg === '--help' || arg === '-h') chosen.help = true;
    else if (arg.startsWith('-')) throw new UsageProblem(`unknown option '${arg}'`);
    else files.push(arg);
  }
  if (!chosen.help && files.length === 0) throw new UsageProblem('no result file given');
  return { files, ...chosen };
}

export function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): number {
  let args;
  try {
    args = parseReportArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageProblem)) throw err;
    io.stderr.write(`layerbench-report: ${err.message} (see layerbench-report --help)\n`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(USAGE + '\n');
    return 0;
  }
  let inputs;
  try {
    inputs = readReportInputs(args.files);
  } catch (err) {
    if (!(err instanceof ReportInputError)) throw err;
    io.stderr.write(`layerbench-report: ${err.message}\n`);
    return 2;
  }
  const markdown = formatReportMarkdown(inputs);
  if (args.markdown !== undefined) writeFileSync(args.markdown, markdown + '\n');
  if (args.html !== undefined) writeFileSync(args.html, formatReportHtml(inputs, args.title));
  if (args.markdown === undefined && args.html === undefined) io.stdout.write(markdown + '\n');
  const verdict = overallVerdict(inputs);
  return args.failOnRegression && (verdict.regressed || verdict.incomplete.length > 0) ? 1 : 0;
}
