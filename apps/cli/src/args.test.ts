import { describe, expect, it } from 'vitest';
import {
  UsageError,
  argWords,
  booleanOption,
  fraction,
  formatOptionHelp,
  nonNegativeInteger,
  oneOf,
  parseArgs,
  positiveInteger,
  positiveNumber,
  regexText,
  repeatedOption,
  shardSpec,
  valueOption,
} from './args.js';

const spec = {
  options: {
    time: valueOption('seconds', 'seconds per case', positiveNumber('seconds')),
    quiet: booleanOption('no progress', 'q'),
    filter: repeatedOption('regex', 'case id filter', regexText),
    shard: valueOption('k/n', 'this shard', shardSpec),
    format: valueOption('name', 'output format', oneOf(['table', 'json'] as const)),
    repeats: valueOption('n', 'repeats', positiveInteger('repeats')),
    alpha: valueOption('p', 'significance', fraction('a probability')),
  },
  positionals: { name: '[suite...]' },
};

function usageMessage(args: string[], s: Parameters<typeof parseArgs>[1] = spec): string {
  try {
    parseArgs(args, s);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(args)}`);
}

describe('parseArgs', () => {
  it('reads both value forms, booleans, repeats, positionals and --', () => {
    const parsed = parseArgs(['aes', '--time', '0.5', '-q', '--filter=a', 'cmac', '--filter', 'b', '--', '--x'], spec);
    expect(parsed.options.time).toBe(0.5);
    expect(parsed.options.quiet).toBe(true);
    expect(parsed.options.filter).toEqual(['a', 'b']);
    expect(parsed.options.shard).toBeUndefined();
    expect(parsed.positionals).toEqual(['aes', 'cmac']);
    expect(parsed.rest).toEqual(['--x']);
  });

  it('defaults: booleans false, repeated empty, values undefined', () => {
    const parsed = parseArgs([], spec);
    expect(parsed.options).toEqual({
      time: undefined,
      quiet: false,
      filter: [],
      shard: undefined,
      format: undefined,
      repeats: undefined,
      alpha: undefined,
    });
  });

  it('parses shards and typed values', () => {
    const parsed = parseArgs(['--shard=2/3', '--format', 'json', '--repeats', '4', '--alpha', '0.01'], spec);
    expect(parsed.options.shard).toEqual({ index: 2, count: 3, text: '2/3' });
    expect(parsed.options.format).toBe('json');
    expect(parsed.options.repeats).toBe(4);
    expect(parsed.options.alpha).toBe(0.01);
  });

  it('rejects bad input with one-line messages naming the flag', () => {
    expect(usageMessage(['--bogus'])).toBe("unknown option '--bogus'");
    expect(usageMessage(['-x'])).toBe("unknown option '-x'");
    expect(usageMessage(['--time'])).toBe('--time needs a value: --time <seconds>');
    expect(usageMessage(['--time', '--quiet'])).toBe('--time needs a value: --time <seconds>');
    expect(usageMessage(['--time', '-1'])).toBe("--time must be a positive number of seconds, got '-1'");
    expect(usageMessage(['--time=abc'])).toBe("--time must be a positive number of seconds, got 'abc'");
    expect(usageMessage(['--time='])).toBe("--time must be a positive number of seconds, got ''");
    expect(usageMessage(['--shard', '3/2'])).toBe("--shard must be k/n with 1 <= k <= n, got '3/2'");
    expect(usageMessage(['--shard', '0/2'])).toBe("--shard must be k/n with 1 <= k <= n, got '0/2'");
    expect(usageMessage(['--shard', '1'])).toBe("--shard must be k/n with 1 <= k <= n, got '1'");
    expect(usageMessage(['--quiet=yes'])).toBe("--quiet takes no value, got '--quiet=yes'");
    expect(usageMessage(['--format', 'xml'])).toBe("--format must be one of table|json, got 'xml'");
    expect(usageMessage(['--repeats', '1.5'])).toBe("--repeats must be a positive whole number of repeats, got '1.5'");
    expect(usageMessage(['--alpha', '1'])).toBe("--alpha must be a probability between 0 and 1 (exclusive), got '1'");
    expect(usageMessage(['--filter', '('])).toMatch(/^--filter is not a valid regular expression: /);
  });

  it('whole numbers: positive, or zero or more', () => {
    expect(positiveInteger('processes')('3', '--processes')).toBe(3);
    expect(() => positiveInteger('processes')('0', '--processes')).toThrow(
      "--processes must be a positive whole number of processes, got '0'",
    );
    expect(nonNegativeInteger('processes')('0', '--extra-processes')).toBe(0);
    for (const raw of ['-1', '1.5', 'two', '']) {
      expect(() => nonNegativeInteger('processes')(raw, '--extra-processes')).toThrow(
        `--extra-processes must be a whole number of processes (0 or more), got '${raw}'`,
      );
    }
  });

  it('enforces positional counts', () => {
    const two = { options: {}, positionals: { name: '<base.json> <head.json>', min: 2, max: 2 } };
    expect(parseArgs(['a', 'b'], two).positionals).toEqual(['a', 'b']);
    expect(usageMessage(['a'], two)).toBe('missing argument <base.json> <head.json>');
    expect(usageMessage(['a', 'b', 'c'], two)).toBe("unexpected argument 'c'");
    expect(usageMessage(['a'], { options: {} })).toBe("unexpected argument 'a'");
  });

  it('does not treat inherited object keys as options', () => {
    expect(usageMessage(['--constructor'])).toBe("unknown option '--constructor'");
  });

  it('formats option help one per line', () => {
    const help = formatOptionHelp(spec.options);
    expect(help.split('\n')).toHaveLength(Object.keys(spec.options).length);
    expect(help).toContain('-q, --quiet');
    expect(help).toContain('--filter <regex>');
    expect(help).toContain('(repeatable)');
  });

  it('records the command line as read, and argWords writes it back so that it parses the same', () => {
    const args = ['aes', '-q', '--filter=--time', '--time', '0.5', '--filter', 'b', '--shard=1/2', '--', '--x'];
    const parsed = parseArgs(args, spec);
    expect(parsed.words).toEqual([
      { positional: 'aes' },
      { option: 'quiet' },
      { option: 'filter', value: '--time' },
      { option: 'time', value: '0.5' },
      { option: 'filter', value: 'b' },
      { option: 'shard', value: '1/2' },
    ]);
    const written = argWords(parsed.words);
    expect(written).toEqual(['aes', '--quiet', '--filter=--time', '--time', '0.5', '--filter', 'b', '--shard', '1/2']);
    const again = parseArgs(written, spec);
    expect(again.options).toEqual(parsed.options);
    expect(again.positionals).toEqual(parsed.positionals);
  });
});
