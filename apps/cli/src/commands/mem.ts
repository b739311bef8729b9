// `layerbench mem [suite...]`: bytes per keyed object (cipher, CMAC context,
// HMAC state, ESP SA) of every layer and peer — the NTPsec question "how much
// memory does a ctx take?" answered with numbers.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureExposedGc, measureMemory } from '@layerbench/bench-runner';
import { formatJson } from '@layerbench/bench-runner/reporters';
import type { MemResult } from '@layerbench/bench-runner';
import { UsageError, formatOptionHelp, oneOf, parseArgs, positiveInteger, regexText, valueOption } from '../args.js';
import { loadWorkspaceLayers } from '../layers.js';
import { allSuites, buildMemCases, selectCases, suiteByName } from '../suites/index.js';
import type { Command, CommandContext } from './types.js';

const options = {
  filter: valueOption('regex', 'only objects whose id matches this regular expression', regexText),
  count: valueOption('n', "objects kept alive per measurement (default: bench-runner's)", positiveInteger('objects')),
  format: valueOption('name', 'table|json', oneOf(['table', 'json'] as const)),
};

const argSpec = { options, positionals: { name: '[suite...]' } };

export const memCommand: Command = {
  name: 'mem',
  summary: 'bytes per keyed object (context, key schedule) of every layer and peer',
  usage: [
    'Usage: layerbench mem [suite...] [options]',
    '',
    'Creates N objects of each kind with a forced garbage collection before and',
    'after, and prints the growth per object: V8 heap, external memory, the',
    'ArrayBuffers part of external, and total = heap + external. Runs itself again',
    'with --expose-gc when that flag is missing.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Exit codes: 0 every object measured, 1 a measurement failed, 2 bad input (including',
    'suites or a --filter with no memory case: nothing measured is not a pass).',
  ].join('\n'),
  argSpec,
  run: measureObjects,
};

function isLayerbenchProcess(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(new URL('../main.js', import.meta.url)));
  } catch {
    return false;
  }
}

export function formatMemTable(results: readonly MemResult[]): string {
  const header = ['object', 'heap B', 'external B', 'arrayBuffers B', 'total B'];
  const rows = results.map((result) =>
    result.status === 'ok'
      ? [
          result.id,
          ...[
            result.perObject.heapUsed,
            result.perObject.external,
            result.perObject.arrayBuffers,
            result.perObject.total,
          ].map((bytes) => Math.round(bytes).toString()),
        ]
      : [result.id, `failed: ${result.error?.message ?? 'no error recorded'}`, '', '', ''],
  );
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

async function measureObjects(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = parseArgs(args, argSpec);
  const chosen = parsed.options;
  const suites = parsed.positionals.length === 0 ? allSuites : parsed.positionals.map(suiteByName);
  // Nothing to measure is bad input, said before anything runs (a typo in CI must not pass).
  const layers = await loadWorkspaceLayers();
  const memCases = selectCases(
    buildMemCases(suites, layers),
    chosen.filter === undefined ? {} : { filter: chosen.filter },
  );
  if (memCases.length === 0) {
    const names = suites.map((suite) => suite.name).join(', ');
    const withMemory = allSuites
      .filter((suite) => buildMemCases([suite], layers).length > 0)
      .map((suite) => suite.name);
    throw new UsageError(
      chosen.filter === undefined
        ? `${names} has no memory cases (suites with memory cases: ${withMemory.join(', ')})`
        : `--filter '${chosen.filter}' matches no memory case of ${names}`,
    );
  }
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
    // Re-running the process with --expose-gc is right only when this process is the layerbench CLI
    // (main() called from another program must not re-run that program).
    if (!isLayerbenchProcess()) throw new Error('layerbench mem needs a forced GC: run node with --expose-gc');
    // The measurement runs in a child that inherits stdio; the parent stops here
    // and exits with the child's code (process.exitCode).
    if (!ensureExposedGc()) return typeof process.exitCode === 'number' ? process.exitCode : 0;
  }

  const results = await measureMemory(memCases, chosen.count === undefined ? {} : { count: chosen.count });
  ctx.stdout.write((chosen.format === 'json' ? formatJson(results) : formatMemTable(results)).replace(/\n?$/, '\n'));
  return results.some((result) => result.status === 'failed') ? 1 : 0;
}
