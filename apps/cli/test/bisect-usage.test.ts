// bisect and find reject bad input with one line and exit 2, before building or measuring anything.
import { describe, expect, it } from 'vitest';
import { runCli } from './spawn-cli.ts';

describe('bisect/find usage', () => {
  it.each([
    [['bisect'], /--good is required/],
    [['bisect', '--good', 'svn:123'], /--good: unknown source 'svn:123'/],
    [['bisect', '--good', 'git:HEAD', '--bad', 'aes=workspace'], /--bad: unknown layer 'aes'/],
    [['bisect', '--good', 'git:HEAD', '--layers', 'sha1'], /--layers: unknown layer 'sha1'/],
    [
      ['bisect', '--good', 'git:HEAD', '--processes', '1'],
      /--processes must be at least 2: the process is the unit of replication/,
    ],
    [['bisect', '--good', 'git:no-such-ref-xyz'], /git:no-such-ref-xyz is not a commit/],
    [['bisect', '--good', 'node@16'], /exact version like node@16\.20\.2/],
    [
      ['bisect', '--paired', '--quiet', '--good', 'workspace', '--bad', 'node@16.20.2'],
      /--paired needs one runtime on both sides, and they differ \(v20\.\d+\.\d+ .* vs v16\.20\.2 /,
    ],
    [['find', '--good', 'HEAD'], /--filter is required/],
    [['find', '--good', 'HEAD', '--bad', 'HEAD', '--filter', 'x'], /HEAD is not a descendant of HEAD/],
    [['bisect', '--good', 'workspace', '--paired', '--separate'], /--paired and --separate exclude each other/],
    [
      ['find', '--good', 'HEAD~1', '--filter', 'x', '--paired', '--separate'],
      /--paired and --separate exclude each other/,
    ],
    [
      ['find', '--good', 'HEAD~1', '--filter', 'x', '--out', '/nonexistent-layerbench-dir/find.json'],
      /nonexistent-layerbench-dir/,
    ],
  ])('%j exits 2 with one line', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('documents the side syntax in --help', async () => {
    const run = await runCli(['bisect', '--help']);
    expect(run.code).toBe(0);
    for (const form of ['git:<ref>', 'dir:<path>', 'tgz:<npm pack file>', 'node@<x.y.z>', '<layer>=<source>'])
      expect(run.stdout).toContain(form);
  });
});
