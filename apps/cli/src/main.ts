#!/usr/bin/env node
// The `layerbench` command: global options, dispatch to one subcommand, exit
// codes, and Ctrl-C handling. `main(argv, ctx)` is exported so tests can run
// the CLI in-process; run as a program, this file wires it to the process.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from './args.js';
import { bisectCommand } from './commands/bisect.js';
import { calibrateCommand } from './commands/calibrate.js';
import { checkCommand } from './commands/check.js';
import { compareCommand } from './commands/compare.js';
import { envCommand } from './commands/env.js';
import { findCommand } from './commands/find.js';
import { listCommand } from './commands/list.js';
import { memCommand } from './commands/mem.js';
import { runCommand } from './commands/run.js';
import type { Command, CommandContext } from './commands/types.js';
import { InputFileError } from './result-files.js';
import { styleFor } from './terminal.js';

export const commands: readonly Command[] = [
  runCommand,
  listCommand,
  compareCommand,
  envCommand,
  memCommand,
  calibrateCommand,
  checkCommand,
  bisectCommand,
  findCommand,
];

export function cliVersion(): string {
  const packageJson = fileURLToPath(new URL('../package.json', import.meta.url));
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

function globalHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  return [
    'layerbench: which layer of the crypto stack made it slower, by how much, and why',
    '',
    'Usage: layerbench <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    '',
    'Options:',
    '  -h, --help     show this help, or `layerbench <command> --help` for one command',
    '  -V, --version  print the version',
    '',
    'Exit codes: 0 ok, 1 regression or failed case, 2 bad input, 3 incomplete bisect, 125 cannot tell (check), 130 interrupted.',
    'Environment: NO_COLOR disables colour; progress is shown on stderr only when it is a terminal.',
  ].join('\n');
}

function isHelpFlag(arg: string): boolean {
  return arg === '--help' || arg === '-h';
}

/** Options before a bare `--` ask for help for the command. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some(isHelpFlag);
}

export function defaultContext(): CommandContext {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: new AbortController().signal,
  };
}

/** Runs one `layerbench` invocation and returns its exit code. Never calls process.exit. */
export async function main(argv: readonly string[], context: Partial<CommandContext> = {}): Promise<number> {
  const ctx: CommandContext = { ...defaultContext(), ...context };
  const style = styleFor(ctx.stderr, ctx.env);
  const fail = (message: string, help: string): number => {
    ctx.stderr.write(`${style.red('layerbench:')} ${message} (see ${help})\n`);
    return 2;
  };

  const [first, ...args] = argv;
  if (first === undefined) {
    ctx.stderr.write(globalHelp() + '\n');
    return 2;
  }
  if (isHelpFlag(first)) {
    ctx.stdout.write(globalHelp() + '\n');
    return 0;
  }
  if (first === '--version' || first === '-V') {
    ctx.stdout.write(cliVersion() + '\n');
    return 0;
  }
  if (first === 'help') {
    const topic = args[0];
    if (topic === undefined) {
      ctx.stdout.write(globalHelp() + '\n');
      return 0;
    }
    const command = commands.find((candidate) => candidate.name === topic);
    if (command === undefined) return fail(`unknown command '${topic}'`, 'layerbench --help');
    ctx.stdout.write(command.usage + '\n');
    return 0;
  }
  if (first.startsWith('-')) return fail(`unknown option '${first}'`, 'layerbench --help');

  const command = commands.find((candidate) => candidate.name === first);
  if (command === undefined) return fail(`unknown command '${first}'`, 'layerbench --help');
  if (asksForHelp(args)) {
    ctx.stdout.write(command.usage + '\n');
    return 0;
  }
  try {
    return await command.run(args, ctx);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, `layerbench ${command.name} --help`);
    if (error instanceof InputFileError || isOverrideError(error)) {
      ctx.stderr.write(`${style.red('layerbench:')} ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}

/**
 * A layer refusing a LAYERBENCH_* override (unknown backend, bad mask): bad
 * input from the user's environment, so one line and exit 2, not a stack trace.
 * Recognised by type: the layers' errors carry a stable `code` and, when a
 * variable caused them, its name in `variable` (each layer has its own copy
 * of those classes, so `instanceof` cannot tell). Only the workspace's layers
 * run in this process; bisect's worker reports its layers' errors itself.
 */
function isOverrideError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, variable } = error as { code?: unknown; variable?: unknown };
  return typeof code === 'string' && code.startsWith('ERR_LAYERBENCH_') && typeof variable === 'string' && variable.startsWith('LAYERBENCH_');
}

/**
 * Ctrl-C once: abort (the running command stops after the current case).
 * Twice: exit now. The handler removes itself after the first signal, so the
 * second one gets the default action and ends the process even while a
 * synchronous timing loop blocks the event loop (the --out file on disk is
 * still the complete one written after the last finished case).
 */
function abortOnSigint(stderr: NodeJS.WritableStream): AbortController {
  const controller = new AbortController();
  const onSigint = (): void => {
    process.removeListener('SIGINT', onSigint);
    stderr.write('\nlayerbench: interrupted, finishing the current case (Ctrl-C again to exit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return controller;
}

function isProgramEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isProgramEntry()) {
  // `layerbench list | head`: a closed stdout ends the command quietly, as for any Unix tool.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const controller = abortOnSigint(process.stderr);
  main(process.argv.slice(2), { ...defaultContext(), signal: controller.signal }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`layerbench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
