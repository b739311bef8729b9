// What the CLI may do to a terminal: colour only on a TTY and never when
// NO_COLOR is set (https://no-color.org), progress only when stderr is a TTY.
import type { CommandContext } from './commands/types.js';

type Stream = CommandContext['stdout'];

/** Colour is used when the stream is a TTY, NO_COLOR is unset or empty, and TERM is not 'dumb'. */
export function colorEnabled(stream: Stream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

export interface Style {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const identity = (text: string): string => text;
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function styleFor(stream: Stream, env: NodeJS.ProcessEnv): Style {
  if (!colorEnabled(stream, env)) {
    return { red: identity, green: identity, yellow: identity, bold: identity, dim: identity };
  }
  return { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), bold: sgr(1, 22), dim: sgr(2, 22) };
}

/** Progress goes to stderr, and only when stderr is a TTY and --quiet was not given. */
export function progressStream(ctx: CommandContext, quiet: boolean): Stream | undefined {
  return !quiet && ctx.stderr.isTTY === true ? ctx.stderr : undefined;
}
