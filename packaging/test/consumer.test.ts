// The package user's view: `npm install @layerbench/cmac` in their own
// project. Packs the five published packages (npm pack), installs the
// tarballs into a fresh consumer project outside the monorepo (their own
// dependencies come from the npm registry or npm's cache, through npm), and
// checks what such a user meets:
// - each tarball: LICENSE, README, no tests, no unused files, and every
//   source map pointing at a file that is in the tarball;
// - package.json: repository/homepage/bugs, @layerbench/* dependencies as
//   ranges (so npm keeps one copy of aes-core);
// - the type declarations compile with TypeScript 5.9 and 5.0, `--module
//   nodenext --strict`, without @types/node, with skipLibCheck off;
// - every README code block marked ```ts runnable runs as written (type-
//   checked, then run with node in the consumer project); when a ```text
//   output block follows it, the output must be exactly that. The READMEs are
//   the test's source of truth.
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCommands, relativeLinks, runnableBlocks } from './readme-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const PACKAGES = ['aes-core', 'cmac', 'sha1-dispatch', 'esp', 'bench-runner'] as const;
type PackageDir = (typeof PACKAGES)[number];
const fullName = (dir: PackageDir): string => `@layerbench/${dir}`;

/** The environment of the npm and node children: none of the npm_* settings of the `npm test` running us. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // LAYERBENCH_* would force the layers' dispatchers: the examples print what a user with none set sees.
    if (!/^(npm_|LAYERBENCH_)/i.test(key) && key !== 'NODE_OPTIONS') env[key] = value;
  }
  env.npm_config_update_notifier = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_audit = 'false';
  return env;
}

function run(file: string, args: string[], options: ExecFileSyncOptions): string {
  try {
    return execFileSync(file, args, {
      encoding: 'utf8',
      stdio: 'pipe',
      env: childEnv(),
      maxBuffer: 1 << 26,
      ...options,
    }) as string;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`);
  }
}

const npm = (args: string[], cwd: string): string => run('npm', args, { cwd });

let work: string;
let consumer: string;
const tarballs = new Map<PackageDir, string>();
const installed = (dir: PackageDir): string => join(consumer, 'node_modules', '@layerbench', dir);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'layerbench-consumer-'));
  const packs = join(work, 'tarballs');
  mkdirSync(packs);
  for (const dir of PACKAGES) {
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', packs], join(repo, 'packages', dir))) as {
      filename: string;
    }[];
    tarballs.set(dir, join(packs, packed!.filename));
  }
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const dependencies = Object.fromEntries(PACKAGES.map((dir) => [fullName(dir), `file:${tarballs.get(dir)}`]));
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2),
  );
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], consumer);
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('each tarball', () => {
  const license = readFileSync(join(repo, 'LICENSE'), 'utf8');

  it.each(PACKAGES)("%s: LICENSE (the repository's MIT text), README, no tests, nothing unused", (dir) => {
    const root = installed(dir);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toBe(license);
    expect(existsSync(join(root, 'README.md'))).toBe(true);
    const files = filesUnder(root).map((file) => relative(root, file));
    expect(files.filter((file) => /\.test\.ts$|\.wat$|\.tsbuildinfo$|(^|\/)test\//.test(file))).toEqual([]);
    expect(files.some((file) => file.startsWith('dist/'))).toBe(true);
  });

  it.each(PACKAGES)(
    '%s: every source map points to files in the tarball, and every shipped source has its output',
    (dir) => {
      const root = installed(dir);
      const files = filesUnder(root);
      const maps = files.filter((file) => file.endsWith('.map'));
      expect(maps.length).toBeGreaterThan(0);
      const mapped = new Set<string>();
      for (const map of maps) {
        const { sources, sourceRoot } = JSON.parse(readFileSync(map, 'utf8')) as {
          sources: string[];
          sourceRoot?: string;
        };
        for (const source of sources) {
          const target = resolve(dirname(map), sourceRoot ?? '', source);
          expect(existsSync(target), `${relative(root, map)} -> ${source}`).toBe(true);
          mapped.add(target);
        }
      }
      // The other way round: no source file that no map points to (a stale or stray file).
      const sources = files.filter(
        (file) => file.startsWith(join(root, 'src')) && file.endsWith('.ts') && !file.endsWith('.d.ts'),
      );
      expect(sources.filter((file) => !mapped.has(file)).map((file) => relative(root, file))).toEqual([]);
    },
  );

  it.each(PACKAGES)(
    '%s: package.json has repository, homepage and bugs; @layerbench dependencies are ranges',
    (dir) => {
      const pkg = JSON.parse(readFileSync(join(installed(dir), 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(pkg.license).toBe('MIT');
      expect(pkg.repository).toMatchObject({
        type: 'git',
        url: 'git+https://github.com/layerbench/layerbench.git',
        directory: `packages/${dir}`,
      });
      expect(pkg.homepage).toBe(`https://github.com/layerbench/layerbench/tree/main/packages/${dir}#readme`);
      expect(pkg.bugs).toEqual({ url: 'https://github.com/layerbench/layerbench/issues' });
      for (const [name, range] of Object.entries((pkg.dependencies ?? {}) as Record<string, string>)) {
        if (name.startsWith('@layerbench/')) expect(range, name).toMatch(/^\^\d+\.\d+\.\d+$/);
      }
    },
  );

  it('npm keeps one copy of each layer: cmac and esp use the aes-core the consumer installed', () => {
    for (const dir of PACKAGES)
      expect(existsSync(join(installed(dir), 'node_modules', '@layerbench')), dir).toBe(false);
  });
});

describe('type declarations, for a consumer without @types/node', () => {
  const LAYERS: readonly PackageDir[] = ['aes-core', 'cmac', 'sha1-dispatch', 'esp'];

  /** Every public entry of these packages: the roots and each subpath of their exports maps. */
  function entries(dirs: readonly PackageDir[]): string[] {
    const out: string[] = [];
    for (const dir of dirs) {
      const pkg = JSON.parse(readFileSync(join(installed(dir), 'package.json'), 'utf8')) as {
        exports: Record<string, unknown>;
      };
      for (const key of Object.keys(pkg.exports)) {
        if (key !== './package.json') out.push(key === '.' ? fullName(dir) : `${fullName(dir)}/${key.slice(2)}`);
      }
    }
    return out;
  }

  function check(tsc: string, name: string, dirs: readonly PackageDir[], lib: string[] | undefined): void {
    const dir = join(consumer, `types-${name}`);
    mkdirSync(dir, { recursive: true });
    const imports = entries(dirs).map((entry, i) => `import * as m${i} from '${entry}';\nexport { m${i} };`);
    writeFileSync(join(dir, 'entries.ts'), `${imports.join('\n')}\n`);
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      types: [],
      skipLibCheck: false,
      ...(lib === undefined ? {} : { lib }),
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['entries.ts'] }, null, 2));
    run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: consumer });
  }

  const ts59 = require.resolve('typescript/bin/tsc');
  // TypeScript 5.0 is installed into a project of its own here, not as a devDependency of this
  // workspace: npm would hoist it to the root and its `tsc` bin would shadow the monorepo's own.
  let ts50 = '';
  beforeAll(() => {
    const dir = join(work, 'typescript-5.0');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ts50', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', 'typescript@5.0.4'], dir);
    ts50 = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  }, 300_000);

  it('the pinned TypeScript versions are the ones this test claims', () => {
    expect(JSON.parse(readFileSync(join(dirname(ts59), '..', 'package.json'), 'utf8')).version).toBe('5.9.3');
    expect(JSON.parse(readFileSync(join(dirname(ts50), '..', 'package.json'), 'utf8')).version).toBe('5.0.4');
  });

  it(
    'all five with TypeScript 5.9, nodenext, strict, its default lib',
    () => check(ts59, '5.9-all', PACKAGES, undefined),
    120_000,
  );
  // bench-runner's dependency zod needs the URL global (DOM or @types/node) and TypeScript 5.4+ (NoInfer): the layers need neither.
  it(
    'the four layers with TypeScript 5.9 and lib es2022 only (no DOM either)',
    () => check(ts59, '5.9-layers-es2022', LAYERS, ['es2022']),
    120_000,
  );
  it(
    'the four layers with TypeScript 5.0 (the oldest their READMEs name), lib es2022 only',
    () => check(ts50, '5.0-layers-es2022', LAYERS, ['es2022']),
    120_000,
  );
});

describe('README examples, as a user would run them', () => {
  const readmes = PACKAGES.map((dir) => [dir, readFileSync(join(repo, 'packages', dir, 'README.md'), 'utf8')] as const);

  it.each(readmes)(
    '%s README: links work outside the monorepo (absolute), and its npm install line names every package its examples import',
    (dir, text) => {
      expect(relativeLinks(text)).toEqual([]);
      const blocks = runnableBlocks(text);
      expect(blocks.length, 'runnable examples').toBeGreaterThan(0);
      const imported = new Set(
        blocks.flatMap((block) => [...block.code.matchAll(/from '(@layerbench\/[a-z0-9-]+)/g)].map((m) => m[1]!)),
      );
      expect(imported.has(fullName(dir)), 'the examples import the package itself').toBe(true);
      const installs = installCommands(text);
      expect(installs.length, 'an `npm install` command').toBeGreaterThan(0);
      for (const name of imported)
        expect(
          installs.some((line) => line.split(/\s+/).includes(name)),
          name,
        ).toBe(true);
    },
  );

  it('every runnable block type-checks (TypeScript 5.9, strict, nodenext) and runs as written, printing its output block', () => {
    const dir = join(consumer, 'examples');
    mkdirSync(dir, { recursive: true });
    const examples: { file: string; label: string; output: string | undefined }[] = [];
    for (const [pkg, text] of readmes) {
      runnableBlocks(text).forEach((block, i) => {
        const file = `${pkg}-${i + 1}`;
        writeFileSync(join(dir, `${file}.ts`), block.code);
        examples.push({
          file,
          label: `packages/${pkg}/README.md, runnable block ${i + 1} (line ${block.line})`,
          output: block.output,
        });
      });
    }
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      outDir: 'out',
      rootDir: '.',
      // The examples use console and node:crypto, as a Node user's code does.
      types: ['node'],
      typeRoots: [join(repo, 'node_modules', '@types')],
      skipLibCheck: false,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
    run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: consumer });
    for (const example of examples) {
      const stdout = run(process.execPath, [join(dir, 'out', `${example.file}.js`)], { cwd: consumer });
      if (example.output !== undefined) expect(stdout, example.label).toBe(example.output);
    }
  }, 300_000);
});
