// The command-line argument parser every `layerbench` command uses: a spec of
// options in, typed values out, and a one-line UsageError (exit 2) for
// anything the spec does not allow. Written by hand rather than on
// util.parseArgs so that every message is ours, names the flag and says what
// was expected.

/** Bad command-line input. main() prints the message on one line and exits 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Turns the raw text of a value into the option's type, or throws UsageError. */
export type ValueParser<T> = (raw: string, flag: string) => T;

export interface BooleanOption {
  kind: 'boolean';
  description: string;
  short?: string;
}

export interface ValueOption<T> {
  kind: 'value';
  description: string;
  /** Shown in help: `--time <seconds>`. */
  valueName: string;
  parse: ValueParser<T>;
  short?: string;
}

export interface RepeatedOption<T> {
  kind: 'repeated';
  description: string;
  valueName: string;
  parse: ValueParser<T>;
  short?: string;
}

export type OptionSpec = BooleanOption | ValueOption<unknown> | RepeatedOption<unknown>;

export interface PositionalSpec {
  /** Shown in help and in messages: `<base.json>`, `[suite...]`. */
  name: string;
  min?: number;
  /** Default: no limit. */
  max?: number;
}

export interface ArgSpec<O extends Record<string, OptionSpec>> {
  options: O;
  positionals?: PositionalSpec;
}

export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: O[K] extends BooleanOption
    ? boolean
    : O[K] extends RepeatedOption<infer T>
      ? T[]
      : O[K] extends ValueOption<infer T>
        ? T | undefined
        : never;
};

export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  options: OptionValues<O>;
  positionals: string[];
  /** Everything after a bare `--`, untouched. */
  rest: string[];
  /**
   * The command line as it was read, in order: each option by its long name
   * with its value as written (none for a boolean), and each positional.
   * A command that prints a command to run next builds it from these
   * (`argWords`), never by scanning the raw arguments, which cannot tell a
   * value that looks like a flag (`--filter --out`) from the flag.
   */
  words: ArgWord[];
}

/** One word of a parsed command line: an option (by long name) or a positional. */
export type ArgWord = { option: string; value?: string } | { positional: string };

/**
 * Writes parsed words back as arguments that parse to the same thing: an
 * option as `--name value`, or `--name=value` when its value starts with `-`
 * (which parseArgs would not take as a separate value).
 */
export function argWords(words: readonly ArgWord[]): string[] {
  return words.flatMap((word) => {
    if ('positional' in word) return [word.positional];
    const flag = `--${word.option}`;
    if (word.value === undefined) return [flag];
    return word.value.startsWith('-') ? [`${flag}=${word.value}`] : [flag, word.value];
  });
}

export function booleanOption(description: string, short?: string): BooleanOption {
  return short === undefined ? { kind: 'boolean', description } : { kind: 'boolean', description, short };
}

export function valueOption<T>(valueName: string, description: string, parse: ValueParser<T>): ValueOption<T> {
  return { kind: 'value', valueName, description, parse };
}

export function repeatedOption<T>(valueName: string, description: string, parse: ValueParser<T>): RepeatedOption<T> {
  return { kind: 'repeated', valueName, description, parse };
}

/**
 * Parses `args` (without the command name). Long options are written
 * `--name value` or `--name=value`; booleans take no value; repeated options
 * collect every occurrence; a value option given twice keeps the last one;
 * a bare `--` ends option parsing.
 */
export function parseArgs<O extends Record<string, OptionSpec>>(
  args: readonly string[],
  spec: ArgSpec<O>,
): ParsedArgs<O> {
  const byShort = new Map<string, string>();
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(spec.options)) {
    if (option.short !== undefined) byShort.set(option.short, name);
    values[name] = option.kind === 'boolean' ? false : option.kind === 'repeated' ? [] : undefined;
  }
  const positionals: string[] = [];
  const words: ArgWord[] = [];
  let rest: string[] = [];

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      rest = args.slice(i + 1);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      words.push({ positional: arg });
      continue;
    }
    let name: string;
    let inlineValue: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inlineValue = eq === -1 ? undefined : arg.slice(eq + 1);
    } else {
      const long = byShort.get(arg.slice(1));
      if (long === undefined) throw new UsageError(`unknown option '${arg}'`);
      name = long;
    }
    const option = Object.keys(spec.options).includes(name) ? spec.options[name] : undefined;
    if (option === undefined) throw new UsageError(`unknown option '--${name}'`);
    const flag = `--${name}`;
    if (option.kind === 'boolean') {
      if (inlineValue !== undefined) throw new UsageError(`${flag} takes no value, got '${flag}=${inlineValue}'`);
      values[name] = true;
      words.push({ option: name });
      continue;
    }
    let raw = inlineValue;
    if (raw === undefined) {
      const next = args[i + 1];
      // A following option is never taken as this option's value ('--out --quiet' is a mistake),
      // but a negative number is ('--threshold -1' gets the range error, not "missing").
      if (next === undefined || (next.startsWith('-') && next !== '-' && !/^-\d/.test(next))) {
        throw new UsageError(`${flag} needs a value: ${flag} <${option.valueName}>`);
      }
      raw = next;
      i++;
    }
    const parsed = option.parse(raw, flag);
    words.push({ option: name, value: raw });
    if (option.kind === 'repeated') (values[name] as unknown[]).push(parsed);
    else values[name] = parsed;
  }

  const positional = spec.positionals;
  const max = positional?.max ?? (positional === undefined ? 0 : Infinity);
  if (positionals.length > max) {
    throw new UsageError(`unexpected argument '${positionals[max]}'`);
  }
  const min = positional?.min ?? 0;
  if (positionals.length < min) {
    throw new UsageError(`missing argument ${positional!.name}`);
  }
  return { options: values as OptionValues<O>, positionals, rest, words };
}

/** The OPTIONS section of a command's help, one option per line. */
export function formatOptionHelp(options: Record<string, OptionSpec>): string {
  const rows = Object.entries(options).map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `;
    const value = option.kind === 'boolean' ? '' : ` <${option.valueName}>`;
    const repeat = option.kind === 'repeated' ? ' (repeatable)' : '';
    return { left: `  ${short}--${name}${value}`, right: option.description + repeat };
  });
  const width = Math.max(0, ...rows.map((row) => row.left.length)) + 2;
  return rows.map((row) => row.left.padEnd(width) + row.right).join('\n');
}

// ---- value parsers shared by the commands ----

/** A finite number above `least`; `expected` completes "<flag> must be ...". */
function numberAbove(least: number, expected: string): ValueParser<number> {
  return (raw, flag) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value <= least) {
      throw new UsageError(`${flag} must be ${expected}, got '${raw}'`);
    }
    return value;
  };
}

export function positiveNumber(what: string): ValueParser<number> {
  return numberAbove(0, `a positive number of ${what}`);
}

/** A ratio above 1, such as a slowdown (x4): `what` says what it is a ratio of. */
export function ratioAboveOne(what: string): ValueParser<number> {
  return numberAbove(1, `a ratio above 1 (${what}, e.g. 4)`);
}

/** A whole number of at least `least` (1: positive, 0: zero or more). */
function wholeNumber(what: string, least: 0 | 1): ValueParser<number> {
  return (raw, flag) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < least) {
      throw new UsageError(
        least === 1
          ? `${flag} must be a positive whole number of ${what}, got '${raw}'`
          : `${flag} must be a whole number of ${what} (0 or more), got '${raw}'`,
      );
    }
    return value;
  };
}

export const positiveInteger = (what: string): ValueParser<number> => wholeNumber(what, 1);

export const nonNegativeInteger = (what: string): ValueParser<number> => wholeNumber(what, 0);

/** A fraction strictly between 0 and 1 (thresholds, significance levels). */
export function fraction(what: string): ValueParser<number> {
  return (raw, flag) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 1) {
      throw new UsageError(`${flag} must be ${what} between 0 and 1 (exclusive), got '${raw}'`);
    }
    return value;
  };
}

export function oneOf<T extends string>(choices: readonly T[]): ValueParser<T> {
  return (raw, flag) => {
    if (!(choices as readonly string[]).includes(raw)) {
      throw new UsageError(`${flag} must be one of ${choices.join('|')}, got '${raw}'`);
    }
    return raw as T;
  };
}

export const anyText: ValueParser<string> = (raw, flag) => {
  if (raw === '') throw new UsageError(`${flag} must not be empty`);
  return raw;
};

/** `text` with every character a regular expression gives a meaning to escaped: matches `text` literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An argument as a POSIX shell reads it back (single-quoted unless plain), for the commands hints print. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-][\w@%+=:,./~-]*$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A JavaScript regular expression; returned as its source text so results can record it. */
export const regexText: ValueParser<string> = (raw, flag) => {
  try {
    new RegExp(raw);
  } catch (error) {
    throw new UsageError(`${flag} is not a valid regular expression: ${(error as Error).message}`);
  }
  return raw;
};

export interface ShardSpec {
  /** 1-based index of this shard. */
  index: number;
  count: number;
  /** As written: 'k/n'. */
  text: string;
}

export const shardSpec: ValueParser<ShardSpec> = (raw, flag) => {
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || !(index >= 1 && count >= 1 && index <= count)) {
    throw new UsageError(`${flag} must be k/n with 1 <= k <= n, got '${raw}'`);
  }
  return { index, count, text: `${index}/${count}` };
};
