#!/usr/bin/env node
// The `layerbench` command: global options, dispatch to one subcommand, exit
// codes, and Ctrl-C handling. `main(argv, ctx)` is exported so tests can run
// the CLI in-process; run as a program, this file wires it to the process.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, UsageError } from './args.js';
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

/** What one `layerbench` command line asks for, before anything runs. */
export type Invocation =
  | { kind: 'missing-command' }
  | { kind: 'global-help' }
  | { kind: 'version' }
  | { kind: 'command-help'; command: Command }
  | { kind: 'command'; command: Command; args: string[] };

/** Resolves argv to an Invocation; an unknown command or global option is a UsageError. */
export function resolveInvocation(argv: readonly string[]): Invocation {
  const [first, ...args] = argv;
  if (first === undefined) return { kind: 'missing-command' };
  if (isHelpFlag(first)) return { kind: 'global-help' };
  if (first === '--version' || first === '-V') return { kind: 'version' };
  const named = (name: string): Command => {
    const command = commands.find((candidate) => candidate.name === name);
    if (command === undefined) throw new UsageError(`unknown command '${name}'`);
    return command;
  };
  if (first === 'help')
    return args[0] === undefined ? { kind: 'global-help' } : { kind: 'command-help', command: named(args[0]) };
  if (first.startsWith('-')) throw new UsageError(`unknown option '${first}'`);
  const command = named(first);
  return asksForHelp(args) ? { kind: 'command-help', command } : { kind: 'command', command, args };
}

/**
 * Checks a command line as far as it can be without running it: the command
 * exists and its options and arguments parse. Throws the UsageError `main`
 * would print. (The test of the documented command lines uses it.)
 */
export function parseInvocation(argv: readonly string[]): Invocation {
  const invocation = resolveInvocation(argv);
  if (invocation.kind === 'command') parseArgs(invocation.args, invocation.command.argSpec);
  return invocation;
}

/** Runs one `layerbench` invocation and returns its exit code. Never calls process.exit. */
export async function main(argv: readonly string[], context: Partial<CommandContext> = {}): Promise<number> {
  const ctx: CommandContext = { ...defaultContext(), ...context };
  const style = styleFor(ctx.stderr, ctx.env);
  const fail = (message: string, help: string): number => {
    ctx.stderr.write(`${style.red('layerbench:')} ${message} (see ${help})\n`);
    return 2;
  };

  let invocation: Invocation;
  try {
    invocation = resolveInvocation(argv);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, 'layerbench --help');
    throw error;
  }
  switch (invocation.kind) {
    case 'missing-command':
      ctx.stderr.write(`${globalHelp()}\n`);
      return 2;
    case 'global-help':
      ctx.stdout.write(`${globalHelp()}\n`);
      return 0;
    case 'version':
      ctx.stdout.write(`${cliVersion()}\n`);
      return 0;
    case 'command-help':
      ctx.stdout.write(`${invocation.command.usage}\n`);
      return 0;
  }
  const { command, args } = invocation;
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
  return (
    typeof code === 'string' &&
    code.startsWith('ERR_LAYERBENCH_') &&
    typeof variable === 'string' &&
    variable.startsWith('LAYERBENCH_')
  );
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

/**
 * Runs `layerbench` as the process: argv, exit code, Ctrl-C, a closed stdout.
 * Called by the committed bin (bin/layerbench.js) and when this file is run directly.
 */
export function runAsProgram(): void {
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

if (isProgramEntry()) runAsProgram();
