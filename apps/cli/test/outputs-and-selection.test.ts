// What a user meets on the command line: every command that writes a file
// checks the path before it measures or reads anything (one line, exit 2);
// `list` shows exactly the cases `run` measures with the same suites, filter
// and shard; `env --json` is the machine-readable fingerprint.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { Capture, heavyTestTimeout } from './spawn-cli.js';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('output paths are checked before anything is measured or read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-out-'));
  const cases: [string, string[]][] = [
    ['run', ['run', 'sha1', '--out', dir]],
    ['compare', ['compare', 'no-base.json', 'no-head.json', '--out', dir]],
    ['calibrate', ['calibrate', '--out', dir]],
    ['bisect', ['bisect', '--good', 'git:HEAD', '--out', dir]],
    ['run (missing folder)', ['run', 'sha1', '--out', join(dir, 'missing', 'r.json')]],
  ];
  it.each(cases)('%s: one line, exit 2, nothing on stdout', async (_name, args) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^layerbench: cannot write .*: (it is a folder; give a file name|folder .* does not exist)$/m,
    );
  });
});

describe('list shows what run measures', () => {
  it(
    'list --shard 1/4 and run --shard 1/4 select the same cases of the default suites',
    async () => {
      const listed = await cli(['list', '--shard', '1/4', '--format', 'json']);
      expect(listed.code).toBe(0);
      const listedIds = (JSON.parse(listed.stdout) as { id: string; suite: string }[]).map((row) => row.id);
      const suites = new Set((JSON.parse(listed.stdout) as { suite: string }[]).map((row) => row.suite));
      // The default suites of `run` (not every suite: that was the bug).
      for (const suite of suites) expect(['cmac-timing', 'sha1', 'esptest']).toContain(suite);
      const measured = await cli([
        'run',
        '--shard',
        '1/4',
        '--format',
        'json',
        '--time',
        '0.001',
        '--esptest-seconds',
        '0.001',
        '--quiet',
      ]);
      expect(measured.code).toBe(0);
      const runIds = (JSON.parse(measured.stdout) as { cases: { id: string }[] }).cases.map((c) => c.id);
      expect(runIds).toEqual(listedIds);
    },
    heavyTestTimeout,
  );

  it('list with named suites lists those suites', async () => {
    const listed = await cli(['list', 'aes', '--filter', 'cbc']);
    expect(listed.code).toBe(0);
    const ids = listed.stdout.trim().split('\n');
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^aes\/.*cbc/);
  });
});

describe('env --json', () => {
  it('prints the env fingerprint as one JSON object, like --format json', async () => {
    const result = await cli(['env', '--json']);
    expect(result.code).toBe(0);
    const env = JSON.parse(result.stdout) as {
      machineId: string;
      dispatch: unknown[];
      layers: { name: string }[];
      node: string;
    };
    expect(env.node).toBe(process.versions.node);
    expect(env.machineId).toMatch(/\S/);
    expect(env.layers.map((layer) => layer.name)).toEqual(
      expect.arrayContaining(['@layerbench/aes-core', '@layerbench/sha1-dispatch']),
    );
    expect(env.dispatch.length).toBeGreaterThan(0);
  });

  it('refuses --json with --format text', async () => {
    const result = await cli(['env', '--json', '--format', 'text']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--json and --format text contradict each other/);
  });
});
