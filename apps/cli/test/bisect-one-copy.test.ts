// One copy of each layer per measuring worker, on every runtime the runtime
// layer supports (Node 16.20.2 with --experimental-loader, 18.20.8, the
// current 20, 22 and 24 with module.register). A second checkout ("other")
// whose node_modules resolve @layerbench/* to its own packages, like a git
// worktree bisect builds: esp taken from it must still get the variant's
// sha1-dispatch and aes-core (esp's default-layers.ts imports both), and a
// layer that reaches a second copy by a relative path makes the worker refuse
// to measure, naming both folders.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRepoRoot, LayerResolver, linkNodeModules } from '../src/bisect/side-sources.ts';
import { CODE_LAYERS, type CodeLayerName } from '../src/bisect/side-spec.ts';
import { CompositionWorker, MixError, needsLoaderFlag } from '../src/bisect/worker/client.ts';

const root = findRepoRoot(process.cwd());
const resolver = new LayerResolver({ repoRoot: root });
const workspace = (layer: CodeLayerName) => join(root, 'packages', layer);

describe('the resolution hook is installed by register() where it exists, else by --experimental-loader', () => {
  it.each([
    ['v16.20.2', true],
    ['v18.18.2', true],
    ['v18.19.0', false],
    ['v20.5.1', true],
    ['v20.6.0', false],
    ['v22.23.5', false],
    ['v24.22.3', false],
  ])('%s: flag %s', (version, flag) => expect(needsLoaderFlag(version)).toBe(flag));
});

describe.each(['16.20.2', '18.20.8', 'current', '22.23.5', '24.22.3'])('one copy per layer on Node %s', (version) => {
  let dir: string;
  let other: string;
  const runtime = () =>
    version === 'current'
      ? { nodePath: process.execPath, version: process.version }
      : resolver.resolveRuntime({ kind: 'node', version });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'layerbench-one-copy-'));
    other = join(dir, 'other');
    for (const layer of CODE_LAYERS) {
      mkdirSync(join(other, 'packages', layer), { recursive: true });
      cpSync(join(workspace(layer), 'package.json'), join(other, 'packages', layer, 'package.json'));
      cpSync(join(workspace(layer), 'dist'), join(other, 'packages', layer, 'dist'), { recursive: true });
    }
    linkNodeModules(root, other);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = (dirs: Record<CodeLayerName, string>) => {
    const rt = runtime();
    return CompositionWorker.start({ nodePath: rt.nodePath, nodeVersion: rt.version, dirs, suites: ['esptest'] });
  };

  it("gives esp from another checkout the variant's sha1-dispatch and aes-core, and reports each layer's one folder", async () => {
    const dirs = {
      ...Object.fromEntries(CODE_LAYERS.map((l) => [l, workspace(l)])),
      esp: join(other, 'packages/esp'),
    } as Record<CodeLayerName, string>;
    const worker = await start(dirs);
    try {
      expect(worker.cases.map((c) => c.id)).toEqual(['esptest/encrypt', 'esptest/encrypt+decrypt']);
      const env = await worker.env();
      expect(env.oneCopyProblem).toBeUndefined();
      const folders = Object.fromEntries(env.loadedLayers.map((l) => [l.layer, l.folder]));
      expect(folders).toEqual(dirs);
      const m = await worker.measure('esptest/encrypt', 0.05);
      expect(m.status).toBe('ok');
    } finally {
      await worker.close();
    }
  }, 120_000);

  it('refuses to measure when a layer reaches a second copy of another layer', async () => {
    // esp of "other" importing sha1-dispatch by a relative path: the hook cannot redirect that, the check sees it.
    const file = join(other, 'packages/esp/dist/default-layers.js');
    const original = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      original.replace("from '@layerbench/sha1-dispatch'", "from '../../sha1-dispatch/dist/index.js'"),
    );
    try {
      const dirs = {
        ...Object.fromEntries(CODE_LAYERS.map((l) => [l, workspace(l)])),
        esp: join(other, 'packages/esp'),
      } as Record<CodeLayerName, string>;
      const failure = await start(dirs).then(
        async (w) => {
          await w.close();
          return undefined;
        },
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(MixError);
      expect((failure as Error).message).toContain(
        `@layerbench/sha1-dispatch was loaded twice: from ${workspace('sha1-dispatch')} and from ${join(other, 'packages/sha1-dispatch')}`,
      );
      expect((failure as Error).message).toContain(`imported by ${file}`);
    } finally {
      writeFileSync(file, original);
    }
  }, 120_000);
});
