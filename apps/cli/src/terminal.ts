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

/**
 * A command's stderr lines, `<command>: <message>`: said even when stderr is
 * not a terminal (a CI log shows what a long command is doing), unless --quiet.
 */
export function sayer(ctx: CommandContext, quiet: boolean | undefined, command: string): (message: string) => void {
  return (message) => {
    if (quiet !== true) ctx.stderr.write(`${command}: ${message}\n`);
  };
}

/** A duration for a progress line: whole seconds under two minutes, else whole minutes. */
export function roughDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/**
 * The time left of a run of equal rounds, for the line that starts round
 * `round` of `rounds`: the mean length of the rounds done so far times the
 * rounds still to run (this one included). Empty before the first round is
 * done, when there is nothing to go by. `now` is in milliseconds.
 */
export function roundsLeft(now: () => number = Date.now): (round: number, rounds: number) => string {
  let start: number | undefined;
  return (round, rounds) => {
    const t = now();
    if (round <= 1 || start === undefined) {
      start = t;
      return '';
    }
    const perRound = (t - start) / (round - 1);
    return ` (about ${roughDuration(perRound * (rounds - round + 1))} left)`;
  };
}
