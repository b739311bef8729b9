// `layerbench list [suite...]`: the suites, or the case ids a run would
// measure with the same --filter and --shard (nothing is measured).
import { booleanOption, formatOptionHelp, oneOf, parseArgs, regexText, shardSpec, valueOption } from '../args.js';
import { importWorkspaceLayers } from '../layers.js';
import { prepareCases, suiteErrorLines } from '../measure.js';
import { allSuites, defaultRun, suitesFor } from '../suites/index.js';
import { styleFor } from '../terminal.js';
import type { Command, CommandContext } from './types.js';

const options = {
  filter: valueOption('regex', 'only cases whose id matches this regular expression', regexText),
  shard: valueOption('k/n', 'only the cases of shard k of n', shardSpec),
  suites: booleanOption('list the suites (name, default format, description) instead of cases'),
  format: valueOption(
    'name',
    'text|json (json: an array of { id, suite, layer, params })',
    oneOf(['text', 'json'] as const),
  ),
};

const argSpec = { options, positionals: { name: '[suite...]' } };

export const listCommand: Command = {
  name: 'list',
  summary: 'print the case ids a run would measure (or the suites), without measuring',
  usage: [
    'Usage: layerbench list [suite...] [options]',
    '',
    'Prints one case id per line of the given suites, or of the default suites of',
    `\`layerbench run\` (${defaultRun.suites.join(', ')}) when none is given: with the same`,
    'suites, --filter and --shard it shows exactly what `layerbench run` would measure.',
    'Name the suites to list others (`layerbench list --suites` lists them).',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Examples:',
    '  layerbench list --suites',
    '  layerbench list cmac --filter aes-128',
    '  layerbench list sha1 hmac --shard 1/3',
  ].join('\n'),
  argSpec,
  run: listCases,
};

async function listCases(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = parseArgs(args, argSpec);
  const chosen = parsed.options;
  const json = chosen.format === 'json';
  if (chosen.suites) {
    const rows = allSuites.map((suite) => ({
      name: suite.name,
      defaultFormat: suite.defaultFormat,
      description: suite.description,
    }));
    if (json) ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else {
      const width = Math.max(...rows.map((row) => row.name.length)) + 2;
      for (const row of rows)
        ctx.stdout.write(`${row.name.padEnd(width)}${row.defaultFormat.padEnd(9)}${row.description}\n`);
    }
    return 0;
  }

  const suites = suitesFor(parsed.positionals);
  // Listing measures nothing: the cases of the layers as built, even when their sources have moved on since.
  const { built, selected } = await prepareCases(
    {
      suites,
      selection: {
        ...(chosen.filter === undefined ? {} : { filter: chosen.filter }),
        ...(chosen.shard === undefined ? {} : { shard: chosen.shard }),
      },
    },
    await importWorkspaceLayers(),
  );
  if (json) {
    const rows = selected.map((benchCase) => ({
      id: benchCase.id,
      suite: built.suiteOf.get(benchCase.id),
      layer: benchCase.layer,
      params: benchCase.params,
    }));
    ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const benchCase of selected) ctx.stdout.write(`${benchCase.id}\n`);
  }
  const style = styleFor(ctx.stderr, ctx.env);
  for (const line of suiteErrorLines(built.errors)) ctx.stderr.write(`${style.red('error:')} ${line}\n`);
  return built.errors.length > 0 ? 1 : 0;
}
