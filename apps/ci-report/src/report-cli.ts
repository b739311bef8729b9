// `layerbench-report`: result files in, Markdown (job summary / PR comment)
// and a self-contained HTML report out. Exit 0 (1 with --fail-on-regression
// when something regressed), 2 for bad usage, an unusable input file, inputs
// that are ambiguous, or an output path that cannot be written (checked
// before anything is read or rendered).
import { calibrationDir } from '@layerbench/bench-runner/calibration';
import { checkOutputPath, OutputPathError, writeTextFileAtomic } from '@layerbench/bench-runner/results';
import { formatReportHtml } from './html.js';
import { readReportInputs, ReportInputError } from './inputs.js';
import { formatReportMarkdown, overallVerdict } from './markdown.js';

export const USAGE = `Usage: layerbench-report <result.json>... [options]

Reads layerbench run, compare, bisect and find result files and writes a report.
Run files that are shards of one run (distinct --shard k/n, same machine,
layers, dispatch and options) are merged; every other run file is a run of its
own. To compare two runs, name them with --base and --head (each one file, or
the shards of one run); the report then compares them itself, by --calibration,
else by the calibration stored for the runs' machine and runtime (where
\`layerbench calibrate\` stores it: $LAYERBENCH_CALIBRATION_DIR, else
$XDG_CACHE_HOME/layerbench/calibration or ~/.cache/layerbench/calibration),
else with the conservative default spread between runs, as \`layerbench
compare\` does.

Options:
  --markdown <file>     write the Markdown report (headline verdict, attributed layers,
                        changed cases, fingerprint differences; under 65,536 characters)
  --html <file>         write one self-contained HTML file with the charts
  --base <run.json>     the run to compare against (repeat for its shards)
  --head <run.json>     the run compared with --base (repeat for its shards)
  --calibration <file>  judge --base against --head by this between-run calibration
                        (\`layerbench calibrate --out\`) instead of the stored one, by
                        \`layerbench compare\`'s rule: not for runs busier than its processes;
                        noted when made for other runs
  --title <text>        the HTML report's title (default "layerbench report")
  --fail-on-regression  exit 1 when a case regressed or a bisection or find did not finish
  -h, --help            show this help

Without --markdown or --html the Markdown report goes to stdout.
Exit codes: 0 written, 1 regression or incomplete bisection or find (with --fail-on-regression),
2 bad usage, input file or output path.

Examples:
  layerbench-report results/*.json --markdown report.md --html report.html
  layerbench-report --base base.json --head head.json --html compare.html --fail-on-regression`;

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A command line `layerbench-report` refuses (exit 2). */
export class UsageProblem extends Error {}

export interface ReportArgs {
  files: string[];
  base: string[];
  head: string[];
  calibration?: string;
  markdown?: string;
  html?: string;
  title?: string;
  failOnRegression: boolean;
  help: boolean;
}

/** The options and files of one command line; UsageProblem when it is not valid. */
export function parseReportArgs(argv: readonly string[]): ReportArgs {
  const chosen: ReportArgs = { files: [], base: [], head: [], failOnRegression: false, help: false };
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
    else if (arg === '--base') chosen.base.push(value());
    else if (arg === '--head') chosen.head.push(value());
    else if (arg === '--calibration') {
      if (chosen.calibration !== undefined) throw new UsageProblem('--calibration is given twice');
      chosen.calibration = value();
    } else if (arg === '--fail-on-regression') chosen.failOnRegression = true;
    else if (arg === '--help' || arg === '-h') chosen.help = true;
    else if (arg.startsWith('-')) throw new UsageProblem(`unknown option '${arg}'`);
    else chosen.files.push(arg);
  }
  if (!chosen.help && chosen.files.length === 0 && chosen.base.length === 0 && chosen.head.length === 0) {
    throw new UsageProblem('no result file given');
  }
  if (chosen.calibration !== undefined && chosen.base.length === 0 && chosen.head.length === 0) {
    throw new UsageProblem('--calibration goes with --base and --head: the report compares only those runs itself');
  }
  return chosen;
}

export function main(
  argv: readonly string[],
  io: Io = { stdout: process.stdout, stderr: process.stderr },
  env: Record<string, string | undefined> = process.env,
): number {
  const fail = (message: string): number => {
    io.stderr.write(`layerbench-report: ${message}\n`);
    return 2;
  };
  let args: ReturnType<typeof parseReportArgs>;
  try {
    args = parseReportArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageProblem)) throw err;
    return fail(`${err.message} (see layerbench-report --help)`);
  }
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let markdownPath: string | undefined;
  let htmlPath: string | undefined;
  let inputs: ReturnType<typeof readReportInputs>;
  try {
    // Where the report goes is checked before any input is read or rendered.
    markdownPath = args.markdown === undefined ? undefined : checkOutputPath(args.markdown);
    htmlPath = args.html === undefined ? undefined : checkOutputPath(args.html);
    inputs = readReportInputs(args.files, {
      base: args.base,
      head: args.head,
      ...(args.calibration === undefined ? { calibrationDir: calibrationDir(env) } : { calibration: args.calibration }),
    });
  } catch (err) {
    if (err instanceof OutputPathError || err instanceof ReportInputError) return fail(err.message);
    throw err;
  }
  const markdown = formatReportMarkdown(inputs);
  if (markdownPath !== undefined) writeTextFileAtomic(markdownPath, `${markdown}\n`);
  if (htmlPath !== undefined) writeTextFileAtomic(htmlPath, formatReportHtml(inputs, args.title));
  if (markdownPath === undefined && htmlPath === undefined) io.stdout.write(`${markdown}\n`);
  const verdict = overallVerdict(inputs);
  return args.failOnRegression && (verdict.regressed || verdict.incomplete.length > 0) ? 1 : 0;
}
