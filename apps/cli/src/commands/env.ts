// `layerbench env`: the environment fingerprint a run would record — the
// capability word, every dispatch decision with its reason, the runtime and
// each layer's identity — so "what changed?" starts with facts.
import { collectEnv } from '@layerbench/bench-runner';
import { formatJson } from '@layerbench/bench-runner/reporters';
import type { EnvFingerprint } from '@layerbench/bench-runner';
import { booleanOption, formatOptionHelp, oneOf, parseArgs, UsageError, valueOption } from '../args.js';
import { describeLayers } from '../layer-env.js';
import { importWorkspaceLayers, workspaceBuildProblems } from '../layers.js';
import { styleFor } from '../terminal.js';
import type { Command, CommandContext } from './types.js';

const options = {
  format: valueOption('name', 'text|json (json: the env fingerprint object)', oneOf(['text', 'json'] as const)),
  json: booleanOption('the env fingerprint as one JSON object on stdout (same as --format json)'),
};

const argSpec = { options };

export const envCommand: Command = {
  name: 'env',
  summary: 'print the capability word, dispatch decisions, runtime and layer versions',
  usage: [
    'Usage: layerbench env [options]',
    '',
    'Prints what every result file records about this machine and these layers:',
    'the `CPU capabilities:` word, each dispatch decision with its reason, the Node,',
    'V8 and OpenSSL versions, the CPU, and each layer package with its version, git',
    'commit and the content hash of its built code.',
    '',
    'Options:',
    formatOptionHelp(options),
  ].join('\n'),
  argSpec,
  run: printEnv,
};

function columns(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]! + 2)))
      .join('')
      .trimEnd(),
  );
}

export function formatEnvText(env: EnvFingerprint): string {
  const lines = [`CPU capabilities: ${env.capabilities ?? '(not reported)'}`, '', 'Dispatch decisions:'];
  if (env.dispatch.length === 0) lines.push('  (none reported)');
  lines.push(
    ...columns(
      env.dispatch.map((decision) => [
        `  ${decision.layer}`,
        decision.decision,
        `-> ${decision.impl}`,
        decision.reason,
      ]),
    ),
  );
  lines.push(
    '',
    'Runtime:',
    `  node ${env.node}   V8 ${env.v8}   OpenSSL ${env.openssl}`,
    `  ${env.os}`,
    `  ${env.cpuModel} x ${env.cpuCount}   load ${env.loadAvgStart.map((load) => load.toFixed(2)).join(' ')}`,
    `  machine id ${env.machineId}`,
    '',
    'Layers:',
  );
  lines.push(
    ...columns(
      env.layers.map((layer) => [
        `  ${layer.name}`,
        layer.version,
        layer.source ?? '',
        layer.commit === undefined ? 'commit -' : `commit ${layer.commit.slice(0, 12)}`,
        layer.contentHash === undefined
          ? 'content -'
          : `content ${layer.contentHash.replace(/^sha256:/, '').slice(0, 12)}`,
      ]),
    ),
  );
  return lines.join('\n');
}

async function printEnv(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen } = parseArgs(args, argSpec);
  if (chosen.json && chosen.format === 'text') throw new UsageError('--json and --format text contradict each other');
  const json = chosen.json || chosen.format === 'json';
  const report = describeLayers(await importWorkspaceLayers());
  const env = collectEnv(
    report.capabilities === undefined
      ? { dispatch: report.dispatch, layers: report.layers }
      : { capabilities: report.capabilities, dispatch: report.dispatch, layers: report.layers },
  );
  const style = styleFor(ctx.stderr, ctx.env);
  for (const note of report.missing) ctx.stderr.write(`${style.dim('note:')} ${note}\n`);
  // The fingerprint is of dist/, as built: said when the sources have moved on since.
  for (const problem of workspaceBuildProblems()) ctx.stderr.write(`${style.yellow('stale build:')} ${problem}\n`);
  ctx.stdout.write(json ? formatJson(env).replace(/\n?$/, '\n') : `${formatEnvText(env)}\n`);
  return 0;
}
