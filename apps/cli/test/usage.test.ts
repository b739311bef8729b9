// The CLI's contract with its user: help, version, and bad input rejected
// with one line and exit 2 — checked on the built bin and in-process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { Capture, lines, runCli } from './spawn-cli.js';

const commandNames = ['run', 'list', 'compare', 'env', 'mem', 'calibrate', 'check', 'bisect', 'find'];
const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('help and version', () => {
  it('--help lists every command and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^layerbench: /);
    expect(result.stdout).toContain('Usage: layerbench <command> [options]');
    for (const name of commandNames) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(result.stderr).toBe('');
  });

  it('--version prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${packageVersion}\n`);
  });

  it.each(['run', 'list', 'compare', 'env', 'mem', 'calibrate', 'check'])(
    '%s --help and help <command> print its usage',
    async (name) => {
      const viaFlag = await runCli([name, '--help']);
      expect(viaFlag.code).toBe(0);
      expect(viaFlag.stdout).toMatch(new RegExp(`^Usage: layerbench ${name}`));
      const viaHelp = await runCli(['help', name]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    },
  );

  it('without a command prints the help on stderr and exits 2', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: layerbench <command>');
  });
});

describe('bad input: one line on stderr, exit 2', () => {
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['--frobnicate'], /unknown option '--frobnicate'/],
    [['run', '--bogus'], /unknown option '--bogus'/],
    [['run', '--time', '-1'], /--time must be a positive number of seconds, got '-1'/],
    [['run', '--time=abc'], /--time must be a positive number of seconds, got 'abc'/],
    [['run', '--time'], /--time needs a value/],
    [['run', '--shard', '3/2'], /--shard must be k\/n with 1 <= k <= n, got '3\/2'/],
    [['run', '--shard', 'x'], /--shard must be k\/n/],
    [
      ['run', '--format', 'xml'],
      /--format must be one of table\|ntpsec\|esptest\|speed\|markdown\|json\|bmf, got 'xml'/,
    ],
    [['run', '--filter', '(('], /--filter is not a valid regular expression/],
    [
      ['run', 'no-such-suite'],
      /unknown suite 'no-such-suite' \(suites: aes, cmac, cmac-timing, sha1, hmac, esp, esptest, peers\)/,
    ],
    [
      ['run', '--out', '/no/such/folder/x.json'],
      /cannot write \/no\/such\/folder\/x\.json: folder \/no\/such\/folder does not exist/,
    ],
    [['compare', 'only-one.json'], /missing argument <base\.json> <head\.json>/],
    [['compare', 'a.json', 'b.json', '--threshold', '2'], /--threshold must be a relative change between 0 and 1/],
    [['env', 'extra'], /unexpected argument 'extra'/],
    [['mem', '--count', '0'], /--count must be a positive whole number/],
    [['calibrate', '--repeats', 'many'], /--repeats must be a positive whole number/],
    [['calibrate', '--extra-processes', '-1'], /--extra-processes must be a whole number of processes \(0 or more\)/],
    [
      ['calibrate', '--from-runs', '/tmp', '--extra-processes', '2'],
      /--from-runs takes the suites, --time and processes/,
    ],
    [['help', 'nothing'], /unknown command 'nothing'/],
  ];
  it.each(cases)('layerbench %j', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/^layerbench: /);
  });

  it('check reports bad input with exit 128 so that git bisect run stops', async () => {
    for (const args of [
      ['check'],
      ['check', '--baseline', 'missing.json'],
      ['check', '--baseline', 'x', '--time', '0'],
    ]) {
      const result = await runCli(args);
      expect(result.code).toBe(128);
      expect(lines(result.stderr)).toHaveLength(1);
    }
  });

  it('no colour when stderr is not a terminal, whatever NO_COLOR says', async () => {
    for (const env of [{}, { NO_COLOR: '1' }]) {
      const result = await runCli(['run', '--bogus'], { env });
      expect(result.stderr).not.toContain('\u001b[');
    }
  });
});

describe('main() in-process', () => {
  it('returns exit codes and writes to the given streams', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    expect(await main(['--version'], { stdout, stderr })).toBe(0);
    expect(stdout.text).toBe(`${packageVersion}\n`);
    expect(await main(['run', '--time', 'soon'], { stdout, stderr })).toBe(2);
    expect(stderr.text).toBe(
      "layerbench: --time must be a positive number of seconds, got 'soon' (see layerbench run --help)\n",
    );
  });

  it('colours errors on a TTY unless NO_COLOR is set', async () => {
    const tty = new Capture();
    tty.isTTY = true;
    await main(['nope'], { stdout: new Capture(), stderr: tty, env: {} });
    expect(tty.text).toContain('\u001b[31mlayerbench:\u001b[39m');
    const plain = new Capture();
    plain.isTTY = true;
    await main(['nope'], { stdout: new Capture(), stderr: plain, env: { NO_COLOR: '1' } });
    expect(plain.text).toBe("layerbench: unknown command 'nope' (see layerbench --help)\n");
  });
});

describe('a layer refusing a LAYERBENCH_* override', () => {
  it.each([
    ['LAYERBENCH_AES_BACKEND', 'bogus', /AES backend 'bogus'/],
    ['LAYERBENCH_SHA1_IMPL', 'bogus', /unknown SHA-1 implementation 'bogus'/],
    ['LAYERBENCH_CAPS', '~nonsense', /unknown capability/],
    ['LAYERBENCH_ESP_COMPOSITION', 'bogus', /expected <aes backend>/],
  ])('%s=%s: one line naming the variable, exit 2', async (name, value, reason) => {
    const result = await runCli(['env'], { env: { [name]: value } });
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^layerbench: ${name}`));
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
