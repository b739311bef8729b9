// The shape of one `layerbench` subcommand. main.ts dispatches argv[0] to one of these.

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
  /** Returns the exit code: 0 ok, 1 regression/failure, 2 bad input (usage or unreadable files), 125 cannot tell. */
  run(args: string[], ctx: CommandContext): Promise<number>;
}
