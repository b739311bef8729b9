// One copy of each layer per measuring worker, on every runtime the runtime
// layer supports (Node 16.20.2 with --experimental-loader, 18.20.8, the
// current 20, 22 and 24 with module.register). A second checkout ("other")
// whose node_modules resolve @layerbench/* to its own packages, like a git
// worktree bisect builds: esp taken from it must still get the variant's
// sha1-dispatch and aes-core (esp's default-layers.ts imports both), and a
// layer that reaches a second copy by a relative path makes the worker refuse
// to measure, naming both folders. Paired (bisect --paired), one worker hosts
// several variants, each in a module graph of its own: the same checks hold
// per variant, and a variant that breaks them is refused while the others run.
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

  /**
   * Runs `body` while esp of "other" imports sha1-dispatch by a relative path: the hook cannot redirect
   * that, the check sees it. Returns the patched file (the importer the messages name).
   */
  const withRelativeImport = async (body: (file: string) => Promise<void>) => {
    const file = join(other, 'packages/esp/dist/default-layers.js');
    const original = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      original.replace("from '@layerbench/sha1-dispatch'", "from '../../sha1-dispatch/dist/index.js'"),
    );
    try {
      await body(file);
    } finally {
      writeFileSync(file, original);
    }
  };

  it('refuses to measure when a layer reaches a second copy of another layer', async () => {
    await withRelativeImport(async (file) => {
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
    });
  }, 120_000);

  const startPaired = (variants: { tag: string; dirs: Record<CodeLayerName, string> }[]) => {
    const rt = runtime();
    return CompositionWorker.startPaired(
      { nodePath: rt.nodePath, nodeVersion: rt.version, suites: ['esptest'] },
      variants,
    );
  };
  const allWorkspace = () =>
    Object.fromEntries(CODE_LAYERS.map((l) => [l, workspace(l)])) as Record<CodeLayerName, string>;

  it('paired: one process hosts two stacks, each loading every layer from its own folders in a graph of its own', async () => {
    const withOther = {
      ...allWorkspace(),
      esp: join(other, 'packages/esp'),
      'sha1-dispatch': join(other, 'packages/sha1-dispatch'),
    };
    const { worker, variants } = await startPaired([
      { tag: 'a', dirs: allWorkspace() },
      { tag: 'b', dirs: withOther },
    ]);
    try {
      const views = Object.fromEntries(
        variants.map((v) => ['view' in v ? v.tag : `${v.tag} failed: ${v.problem.message}`, v]),
      );
      expect(Object.keys(views)).toEqual(['a', 'b']);
      for (const [tag, dirs] of [
        ['a', allWorkspace()],
        ['b', withOther],
      ] as const) {
        const v = views[tag]!;
        if (!('view' in v)) throw new Error('unreachable');
        expect(v.view.pid).toBe(worker.pid);
        expect(v.view.cases.map((c) => c.id)).toEqual(['esptest/encrypt', 'esptest/encrypt+decrypt']);
        const env = await v.view.env();
        expect(env.oneCopyProblem).toBeUndefined();
        // Each variant reports its own folders only: b's esp imports b's sha1-dispatch, not a's.
        expect(Object.fromEntries(env.loadedLayers.map((l) => [l.layer, l.folder]))).toEqual(dirs);
        expect((await v.view.measure('esptest/encrypt', 0.05)).status).toBe('ok');
      }
    } finally {
      await worker.close();
    }
  }, 120_000);

  it('paired: a stack that reaches a second copy of a layer is refused, and the others still run', async () => {
    await withRelativeImport(async () => {
      const { worker, variants } = await startPaired([
        { tag: 'good', dirs: allWorkspace() },
        { tag: 'broken', dirs: { ...allWorkspace(), esp: join(other, 'packages/esp') } },
      ]);
      try {
        const [good, broken] = variants;
        expect(good && 'view' in good).toBe(true);
        expect(broken && 'problem' in broken && broken.problem.message).toContain(
          `@layerbench/sha1-dispatch was loaded twice: from ${workspace('sha1-dispatch')} and from ${join(other, 'packages/sha1-dispatch')}`,
        );
        if (good && 'view' in good) expect((await good.view.measure('esptest/encrypt', 0.05)).status).toBe('ok');
      } finally {
        await worker.close();
      }
    });
  }, 120_000);
});

describe('paired workers', () => {
  it('need two or more variants with distinct non-empty tags', async () => {
    const dirs = Object.fromEntries(CODE_LAYERS.map((l) => [l, workspace(l)])) as Record<CodeLayerName, string>;
    const options = { nodePath: process.execPath, nodeVersion: process.version, suites: ['esptest'] };
    await expect(CompositionWorker.startPaired(options, [{ tag: 'a', dirs }])).rejects.toThrow(RangeError);
    await expect(
      CompositionWorker.startPaired(options, [
        { tag: 'a', dirs },
        { tag: 'a', dirs },
      ]),
    ).rejects.toThrow(/distinct non-empty tags/);
    await expect(
      CompositionWorker.startPaired(options, [
        { tag: '', dirs },
        { tag: 'b', dirs },
      ]),
    ).rejects.toThrow(/distinct non-empty tags/);
  });
});
