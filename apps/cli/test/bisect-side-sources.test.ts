// Layer sources and the composition loader: the workspace, a built folder, an
// npm pack tarball, a layer that throws at import (named plainly), and a
// bisection where some mixes cannot run while the others are still measured.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBisectResult } from '@layerbench/bench-runner/results';
import { LayerLoadError, loadLayers } from '../src/bisect/worker/load-layers.ts';
import { findRepoRoot, LayerResolver, LayerSourceError } from '../src/bisect/side-sources.ts';
import { CODE_LAYERS, type CodeLayerName } from '../src/bisect/side-spec.ts';
import { writeStamp } from '../../../scripts/build-stamp.mjs';
import { runCli } from './spawn-cli.ts';

const root = findRepoRoot(process.cwd());
const workspaceDirs = () =>
  Object.fromEntries(CODE_LAYERS.map((l) => [l, join(root, 'packages', l)])) as Record<CodeLayerName, string>;

describe('layer sources', () => {
  let dir: string;
  let resolver: LayerResolver;
  let broken: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'layerbench-sources-'));
    resolver = new LayerResolver({ repoRoot: root, cacheDir: join(dir, 'cache') });
    // A built cmac whose entry throws at import: an interface that no longer loads.
    broken = join(dir, 'cmac-broken');
    mkdirSync(broken);
    cpSync(join(root, 'packages/cmac/package.json'), join(broken, 'package.json'));
    mkdirSync(join(broken, 'dist'));
    writeFileSync(join(broken, 'dist/index.js'), "throw new Error('cmac 9.9: createCmac was removed');\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves the workspace packages and refuses a folder holding another package', () => {
    expect(resolver.resolveLayer('esp', { kind: 'workspace' }).dir).toBe(join(root, 'packages/esp'));
    expect(() =>
      resolver.resolveLayer('esp', { kind: 'dir', path: join(root, 'packages/cmac'), whole: false }),
    ).toThrow(/esp from dir:.*holds @layerbench\/cmac, expected @layerbench\/esp/);
    expect(() => resolver.resolveLayer('esp', { kind: 'dir', path: join(dir, 'nowhere'), whole: false })).toThrow(
      LayerSourceError,
    );
    expect(() => resolver.resolveLayer('esp', { kind: 'git', ref: 'no-such-ref-xyz' })).toThrow(
      /git:no-such-ref-xyz is not a commit/,
    );
  });

  it('refuses a layer whose dist/ was built from other sources than its src/ holds', () => {
    // A built copy of the workspace's cmac, stamped, whose source then changes (an edit without a rebuild).
    const copy = join(dir, 'cmac-stale');
    for (const sub of ['package.json', 'dist', 'src'])
      cpSync(join(root, 'packages/cmac', sub), join(copy, sub), { recursive: true });
    writeStamp(copy);
    expect(resolver.resolveLayer('cmac', { kind: 'dir', path: copy, whole: false }).dir).toBe(copy);
    writeFileSync(join(copy, 'src/cmac.ts'), '// edited after the build\n', { flag: 'a' });
    expect(() => resolver.resolveLayer('cmac', { kind: 'dir', path: copy, whole: false })).toThrow(
      /^cmac from dir:.*: dist\/ was built from other sources than src\/ holds now \(changed since the build: src\/cmac\.ts\); run `npm run build` in .*cmac-stale$/,
    );
  });

  it('unpacks an npm pack tarball into the cache and loads it', async () => {
    const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: join(root, 'packages/sha1-dispatch'),
      encoding: 'utf8',
    });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    const layer = resolver.resolveLayer('sha1-dispatch', { kind: 'tgz', path: join(dir, tarball) });
    expect(layer.dir).toMatch(/cache\/tgz\/[0-9a-f]{16}\/package$/);
    const { layers } = await loadLayers({ ...workspaceDirs(), 'sha1-dispatch': layer.dir });
    expect(Buffer.from(layers.sha1.sha1(new TextEncoder().encode('abc'))).toString('hex')).toBe(
      'a9993e364706816aba3e25717850c26c9cd0d89d',
    );
    expect(() => resolver.resolveLayer('esp', { kind: 'tgz', path: join(dir, 'missing.tgz') })).toThrow(
      /tgz:.*cannot read/,
    );
  });

  it('names the layer that throws at import', async () => {
    const failure = await loadLayers({ ...workspaceDirs(), cmac: broken }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LayerLoadError);
    expect((failure as LayerLoadError).layer).toBe('cmac');
    expect((failure as Error).message).toMatch(
      /^cmac \(.*cmac-broken\) throws at import: Error: cmac 9\.9: createCmac was removed$/,
    );
  });

  it('bisect reports the mixes that cannot run and measures the others', { timeout: 300_000 }, async () => {
    const out = join(dir, 'bisect.json');
    const run = await runCli(
      [
        'bisect',
        '--good',
        'workspace',
        '--bad',
        `cmac=dir:${broken},node@16.20.2`,
        '--suite',
        'sha1',
        '--filter',
        '^sha1/64/unrolled$',
        '--time',
        '0.2',
        '--rounds',
        '3',
        '--processes',
        '2',
        '--out',
        out,
        '--quiet',
      ],
      { cwd: root },
    );
    // No case both stacks can run: bad input, said on stderr, and the file says why.
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no case could be compared/);
    const result = readBisectResult(out);
    expect(result.layers).toEqual(['cmac', 'runtime']);
    const status = Object.fromEntries(result.variants.map((v) => [v.id, v.status]));
    expect(status).toEqual({
      good: 'ok',
      bad: 'failed',
      control: 'ok',
      'good+cmac': 'failed',
      'bad-cmac': 'ok',
      'good+runtime': 'ok',
      'bad-runtime': 'failed',
    });
    expect(result.variants.find((v) => v.id === 'bad')!.problem).toMatch(
      /cmac .* throws at import: Error: cmac 9\.9: createCmac was removed/,
    );
    const c = result.cases[0]!;
    expect(c.status).toBe('failed');
    expect(c.problem).toMatch(/^the all-bad stack has no values: this mix cannot run: cmac/);
    // The runtime swapped in alone was still measured.
    expect(c.layers.find((l) => l.layer === 'runtime')!.swapIn).toBeDefined();
    expect(run.stdout).toMatch(/good\+cmac \(good stack, cmac from bad\) cannot run: cmac/);
  });
});
