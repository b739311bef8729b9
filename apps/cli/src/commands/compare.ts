// `layerbench compare <base.json> <head.json>`: per-case verdicts with ratio
// and interval, fingerprint differences first (the first hints of where a
// change came from), and an exit code a CI job can gate on.
import { compareResults } from '@layerbench/bench-runner/compare';
import { formatComparison, formatJson, formatMarkdown } from '@layerbench/bench-runner/reporters';
import { writeResultFile } from '@layerbench/bench-runner/results';
import type { Comparison } from '@layerbench/bench-runner';
import { anyText, formatOptionHelp, fraction, oneOf, parseArgs, valueOption } from '../args.js';
import { outputPath, readRunInput } from '../result-files.js';
import { styleFor } from '../terminal.js';
import type { Command, CommandContext } from './types.js';

const options = {
  threshold: valueOption('ratio', 'changes smaller than this are "unchanged" (e.g. 0.03 = 3%)', fraction('a relative change')),
  alpha: valueOption('p', 'significance level of the per-case test (e.g. 0.01)', fraction('a probability')),
  format: valueOption('name', 'table|markdown|json (json: the comparison file on stdout)', oneOf(['table', 'markdown', 'json'] as const)),
  out: valueOption('file', 'also write the comparison result file here', anyText),
};

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare two result files: verdict per case, fingerprint differences first',
  usage: [
    'Usage: layerbench compare <base.json> <head.json> [options]',
    '',
    'Compares the cases of two `layerbench run --out` files: per case the ratio',
    'head/base of the medians with its confidence interval, a significance test on',
    'the raw samples and a verdict (regressed, improved, unchanged, inconclusive).',
    'Differences of the environment fingerprints (runtime, OpenSSL, capabilities,',
    'dispatch decisions, layer versions) are listed first.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Exit codes: 0 nothing regressed, 1 a case regressed or its output digest',
    'changed, 2 bad input (usage, missing or corrupt result file).',
    '',
    'Example:',
    '  layerbench compare base.json head.json --threshold 0.05 --format markdown',
  ].join('\n'),
  run: compareFiles,
};

/** Exit 1 when any case regressed or computes something different now. */
export function comparisonExitCode(comparison: Comparison): number {
  const regressed = comparison.cases.some((result) => result.verdict === 'regressed' || result.digestChanged);
  return regressed ? 1 : 0;
}

/** One line that says what the exit code says, naming the cases behind it. */
export function comparisonVerdictLine(comparison: Comparison): string {
  const regressed = comparison.cases.filter((result) => result.verdict === 'regressed').map((result) => result.id);
  const digests = comparison.cases.filter((result) => result.digestChanged).map((result) => result.id);
  if (regressed.length === 0 && digests.length === 0) return 'no regression (exit 0)';
  const parts: string[] = [];
  if (regressed.length > 0) parts.push(`regressed: ${regressed.join(', ')}`);
  if (digests.length > 0) parts.push(`output digest changed: ${digests.join(', ')}`);
  return `${parts.join('; ')} (exit 1)`;
}

async function compareFiles(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = parseArgs(args, { options, positionals: { name: '<base.json> <head.json>', min: 2, max: 2 } });
  const chosen = parsed.options;
  const [basePath, headPath] = parsed.positionals as [string, string];
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const base = readRunInput(ctx, basePath);
  const head = readRunInput(ctx, headPath);
  const comparison = compareResults(base, head, {
    ...(chosen.threshold === undefined ? {} : { threshold: chosen.threshold }),
    ...(chosen.alpha === undefined ? {} : { alpha: chosen.alpha }),
  });
  if (out !== undefined) await writeResultFile(out, comparison);

  const code = comparisonExitCode(comparison);
  if (chosen.format === 'json') {
    ctx.stdout.write(formatJson(comparison).replace(/\n?$/, '\n'));
    return code;
  }
  const text = chosen.format === 'markdown' ? formatMarkdown(comparison) : formatComparison(comparison);
  ctx.stdout.write(text.replace(/\n?$/, '\n'));
  const style = styleFor(ctx.stdout, ctx.env);
  const line = comparisonVerdictLine(comparison);
  if (chosen.format !== 'markdown') ctx.stdout.write(`\n${code === 0 ? style.green(line) : style.red(line)}\n`);
  return code;
}
