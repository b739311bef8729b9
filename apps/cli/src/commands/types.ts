// The shape of one `layerbench` subcommand. main.ts dispatches argv[0] to one of these.
import type { ArgSpec, OptionSpec } from '../args.js';

export interface CommandContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on SIGINT: long commands stop after the current case and keep what finished. */
  signal: AbortSignal;
}

export interface Command {
  name: string;
  /** One line for `layerbench --help`. */
  summary: string;
  /** The full text of `layerbench <name> --help`. */
  usage: string;
  /** The options and positionals `run` parses with (the documented-commands test parses with it too). */
  argSpec: ArgSpec<Record<string, OptionSpec>>;
  /** Returns the exit code: 0 ok, 1 regression/failure, 2 bad input (usage or unreadable files), 125 cannot tell. */
  run(args: string[], ctx: CommandContext): Promise<number>;
}
