// Resolves a parsed side (spec.ts) to built folders on disk and a node binary:
// the workspace packages, a git commit built in a cached worktree, a built
// folder, an unpacked npm tarball, and the runtime (`node@<version>` from the
// npm registry package node-<platform>-<arch>, cached, or a node binary path).
// Builds are cached by commit; the marker file is written only after a build
// succeeded, and a failed build is remembered too so `find` can skip it quickly.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  openSync,
  closeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { resolvePackageEntry } from './worker/load-layers.js';
import { staleBuildProblem } from '../built-from.js';
import {
  CODE_LAYERS,
  describeSource,
  packageNameOf,
  type CodeLayerName,
  type CompositionSpec,
  type LayerSource,
  type RuntimeSource,
} from './side-spec.js';

export interface ResolvedLayer {
  name: CodeLayerName;
  packageName: string;
  /** The package folder (has package.json and the built entry). */
  dir: string;
  /** How it was asked for: 'workspace', 'git:HEAD~1', ... */
  source: string;
  /** The git commit of the checkout it came from, when known. */
  commit?: string;
}

export interface ResolvedRuntime {
  source: string;
  nodePath: string;
  /** `process.version` of that binary, e.g. 'v16.20.2'. */
  version: string;
  openssl: string;
}

export interface ResolvedComposition {
  text: string;
  layers: Record<CodeLayerName, ResolvedLayer>;
  runtime: ResolvedRuntime;
}

/** A layer source that cannot be made available (not built, build failed, no such ref). */
export class LayerSourceError extends Error {
  override name = 'LayerSourceError';
  constructor(
    message: string,
    readonly layer: string,
    readonly source: string,
  ) {
    super(message);
  }
}

export type DepsMode = 'ci' | 'link';

export interface ResolverOptions {
  /** The git repository (and workspace) layers are resolved against. */
  repoRoot: string;
  /** Worktrees and unpacked tarballs (default <repoRoot>/.layerbench-cache). */
  cacheDir?: string;
  /** Downloaded node runtimes, shared between repositories (default ~/.cache/layerbench/runtimes). */
  runtimeCacheDir?: string;
  /**
   * How a worktree gets its node_modules: 'ci' runs `npm ci` (the default);
   * 'link' links the repository's own node_modules (fast and offline, for tests
   * and for commits whose lockfile did not change).
   */
  deps?: DepsMode;
  /** Progress messages (building, downloading). */
  log?: (message: string) => void;
}

const BUILT_MARKER = '.layerbench-built';
const FAILED_MARKER = '.layerbench-build-failed';

function run(cmd: string, args: string[], cwd: string, logFile?: string): { ok: boolean; output: string } {
  const fd = logFile ? openSync(logFile, 'a') : undefined;
  try {
    if (fd !== undefined) writeFileSync(fd, `\n$ ${cmd} ${args.join(' ')}\n`);
    const r = spawnSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = fd === undefined ? `${r.stdout ?? ''}${r.stderr ?? ''}` : '';
    return { ok: r.status === 0, output: r.error ? String(r.error) : output };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function git(repoRoot: string, args: string[]): string {
  const r = run('git', args, repoRoot);
  if (!r.ok) throw new Error(r.output.trim() || `git ${args.join(' ')} failed`);
  return r.output.trim();
}

/** The top-level folder of the git repository containing `cwd`. */
export function findRepoRoot(cwd: string): string {
  return git(cwd, ['rev-parse', '--show-toplevel']);
}

/** Full commit id of `ref` in `repoRoot`, or a LayerSourceError. */
export function resolveCommit(repoRoot: string, ref: string, layer = 'all'): string {
  try {
    return git(repoRoot, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new LayerSourceError(`git:${ref} is not a commit in ${repoRoot}`, layer, `git:${ref}`);
  }
}

function tail(text: string, lines = 25): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Gives a checkout the installed dependencies of another one without
 * `npm ci`: every entry of source/node_modules is linked, except the
 * workspace packages themselves, which must point at the target's own packages.
 */
export function linkNodeModules(sourceRoot: string, targetRoot: string): void {
  const source = join(sourceRoot, 'node_modules');
  const target = join(targetRoot, 'node_modules');
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source)) {
    if (entry === '@layerbench' || entry === '.package-lock.json') continue;
    symlinkSync(join(source, entry), join(target, entry));
  }
  const own = join(target, '@layerbench');
  mkdirSync(own, { recursive: true });
  for (const group of ['packages', 'apps']) {
    const dir = join(targetRoot, group);
    if (!existsSync(dir)) continue;
    for (const folder of readdirSync(dir)) {
      const pkgPath = join(dir, folder, 'package.json');
      if (!existsSync(pkgPath)) continue;
      const name = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { name?: string }).name;
      if (name?.startsWith('@layerbench/'))
        symlinkSync(join(dir, folder), join(own, name.slice('@layerbench/'.length)));
    }
  }
}

export class LayerResolver {
  readonly repoRoot: string;
  readonly cacheDir: string;
  readonly runtimeCacheDir: string;
  readonly deps: DepsMode;
  private readonly log: (message: string) => void;
  private readonly runtimes = new Map<string, ResolvedRuntime>();

  constructor(options: ResolverOptions) {
    this.repoRoot = resolve(options.repoRoot);
    this.cacheDir = options.cacheDir ?? join(this.repoRoot, '.layerbench-cache');
    this.runtimeCacheDir =
      options.runtimeCacheDir ??
      process.env.LAYERBENCH_RUNTIME_CACHE ??
      join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'layerbench', 'runtimes');
    this.deps = options.deps ?? 'ci';
    this.log = options.log ?? (() => undefined);
  }

  /** Resolves every layer of a side; throws LayerSourceError for the first layer that cannot be had. */
  resolve(spec: CompositionSpec): ResolvedComposition {
    const layers = {} as Record<CodeLayerName, ResolvedLayer>;
    for (const name of CODE_LAYERS) layers[name] = this.resolveLayer(name, spec.layers[name]);
    return { text: spec.text, layers, runtime: this.resolveRuntime(spec.runtime) };
  }

  resolveLayer(name: CodeLayerName, source: LayerSource): ResolvedLayer {
    const packageName = packageNameOf(name);
    const label = describeSource(source);
    switch (source.kind) {
      case 'workspace':
        return this.checkBuilt(
          { name, packageName, dir: join(this.repoRoot, 'packages', name), source: label },
          this.repoRoot,
        );
      case 'git': {
        const { commit, root } = this.gitCheckout(source.ref, name);
        return this.checkBuilt({ name, packageName, dir: join(root, 'packages', name), source: label, commit });
      }
      case 'dir': {
        const base = isAbsolute(source.path) ? source.path : resolve(this.repoRoot, source.path);
        const dir = source.whole ? join(base, 'packages', name) : base;
        return this.checkBuilt({ name, packageName, dir, source: label }, source.whole ? base : undefined);
      }
      case 'tgz':
        return this.checkBuilt({ name, packageName, dir: this.unpackTarball(source.path, name), source: label });
    }
  }

  /** `buildRoot`: where `npm run build` rebuilds the layer (the checkout holding it). */
  private checkBuilt(layer: ResolvedLayer, buildRoot?: string): ResolvedLayer {
    const pkgPath = join(layer.dir, 'package.json');
    if (!existsSync(pkgPath)) {
      throw new LayerSourceError(
        `${layer.name} from ${layer.source}: no package.json in ${layer.dir}`,
        layer.name,
        layer.source,
      );
    }
    let pkg: { name?: string };
    try {
      pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { name?: string };
    } catch (err) {
      throw new LayerSourceError(
        `${layer.name} from ${layer.source}: unreadable ${pkgPath}: ${(err as Error).message}`,
        layer.name,
        layer.source,
      );
    }
    if (pkg.name !== layer.packageName) {
      throw new LayerSourceError(
        `${layer.name} from ${layer.source}: ${layer.dir} holds ${pkg.name ?? 'an unnamed package'}, expected ${layer.packageName}`,
        layer.name,
        layer.source,
      );
    }
    const entry = resolvePackageEntry(layer.dir);
    if (!existsSync(entry)) {
      throw new LayerSourceError(
        `${layer.name} from ${layer.source}: not built (${entry} is missing; run \`npm run build\` there)`,
        layer.name,
        layer.source,
      );
    }
    const stale = staleBuildProblem(layer.dir, `run \`npm run build\` in ${buildRoot ?? layer.dir}`);
    if (stale !== undefined)
      throw new LayerSourceError(`${layer.name} from ${layer.source}: ${stale}`, layer.name, layer.source);
    return layer;
  }

  /**
   * The worktree of `ref`, built. Cached by commit under <cache>/worktrees/<commit>;
   * a remembered failed build throws again without rebuilding.
   */
  gitCheckout(ref: string, layer = 'all'): { commit: string; root: string } {
    const commit = resolveCommit(this.repoRoot, ref, layer);
    const root = join(this.cacheDir, 'worktrees', commit);
    const label = `git:${ref}`;
    if (existsSync(join(root, BUILT_MARKER))) return { commit, root };
    if (existsSync(join(root, FAILED_MARKER))) {
      throw new LayerSourceError(
        `git:${ref} (${commit.slice(0, 12)}) does not build (cached failure; log: ${join(root, FAILED_MARKER)})`,
        layer,
        label,
      );
    }
    if (existsSync(root)) {
      // A half-made worktree from an interrupted run: start over.
      run('git', ['worktree', 'remove', '--force', root], this.repoRoot);
      rmSync(root, { recursive: true, force: true });
    }
    run('git', ['worktree', 'prune'], this.repoRoot);
    mkdirSync(join(this.cacheDir, 'worktrees'), { recursive: true });
    this.log(`building ${label} (${commit.slice(0, 12)}) in ${root}`);
    const add = run('git', ['worktree', 'add', '--detach', root, commit], this.repoRoot);
    if (!add.ok) throw new LayerSourceError(`git worktree add for ${label} failed: ${tail(add.output)}`, layer, label);
    const logFile = join(root, '.layerbench-build.log');
    const fail = (what: string): never => {
      const log = readText(logFile);
      writeFileSync(join(root, FAILED_MARKER), `${what}\n${log}`);
      throw new LayerSourceError(
        `git:${ref} (${commit.slice(0, 12)}) does not build: ${what}\n${tail(log, 15)}`,
        layer,
        label,
      );
    };
    if (this.deps === 'link') linkNodeModules(this.repoRoot, root);
    else if (!run('npm', ['ci', '--ignore-scripts=false', '--no-audit', '--no-fund'], root, logFile).ok)
      fail('npm ci failed');
    const present = CODE_LAYERS.map(packageNameOf).filter((name) =>
      existsSync(join(root, 'packages', name.replace('@layerbench/', ''), 'package.json')),
    );
    if (present.length === 0) fail('no layer packages in this commit');
    const filters = present.map((p) => `--filter=${p}`);
    if (
      !run('npx', ['--no-install', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'], root, logFile).ok
    ) {
      fail('build failed');
    }
    writeFileSync(
      join(root, BUILT_MARKER),
      `${JSON.stringify({ commit, ref, builtAt: new Date().toISOString(), packages: present })}\n`,
    );
    return { commit, root };
  }

  /** Unpacks an `npm pack` tarball into the cache (keyed by its sha256); returns the package folder. */
  unpackTarball(path: string, layer: string): string {
    const file = isAbsolute(path) ? path : resolve(this.repoRoot, path);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new LayerSourceError(`tgz:${path}: cannot read ${file}: ${(err as Error).message}`, layer, `tgz:${path}`);
    }
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const dest = join(this.cacheDir, 'tgz', hash);
    if (existsSync(join(dest, BUILT_MARKER))) return join(dest, 'package');
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    const r = run('tar', ['-xzf', file, '-C', dest], dest);
    if (!r.ok || !existsSync(join(dest, 'package', 'package.json'))) {
      throw new LayerSourceError(
        `tgz:${path}: not an npm pack tarball (${tail(r.output, 3) || 'no package/ folder'})`,
        layer,
        `tgz:${path}`,
      );
    }
    writeFileSync(join(dest, BUILT_MARKER), `${file}\n`);
    return join(dest, 'package');
  }

  resolveRuntime(source: RuntimeSource): ResolvedRuntime {
    const label = describeSource(source);
    const cached = this.runtimes.get(label);
    if (cached) return cached;
    let nodePath: string;
    if (source.kind === 'current') nodePath = process.execPath;
    else if (source.kind === 'path')
      nodePath = isAbsolute(source.path) ? source.path : resolve(this.repoRoot, source.path);
    else nodePath = this.downloadNode(source.version);
    const probe = run(nodePath, ['-p', 'JSON.stringify([process.version, process.versions.openssl])'], this.repoRoot);
    if (!probe.ok)
      throw new LayerSourceError(
        `runtime ${label}: ${nodePath} does not run: ${tail(probe.output, 3)}`,
        'runtime',
        label,
      );
    const [version, openssl] = JSON.parse(probe.output.trim()) as [string, string];
    const resolved = { source: label, nodePath, version, openssl };
    this.runtimes.set(label, resolved);
    return resolved;
  }

  /** `npm pack node-<platform>-<arch>@<version>` into the runtime cache; returns package/bin/node. */
  private downloadNode(version: string): string {
    const pkg = `node-${process.platform}-${process.arch}`;
    const dest = join(this.runtimeCacheDir, `${pkg}-${version}`);
    const binary = join(dest, 'package', 'bin', 'node');
    if (existsSync(join(dest, BUILT_MARKER))) return binary;
    const label = `node@${version}`;
    const staging = `${dest}.tmp-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    this.log(`fetching ${pkg}@${version} with npm pack into ${dest}`);
    const pack = run('npm', ['pack', `${pkg}@${version}`, '--pack-destination', staging, '--silent'], staging);
    const tarball = pack.output.trim().split('\n').pop() ?? '';
    if (!pack.ok || !tarball.endsWith('.tgz')) {
      rmSync(staging, { recursive: true, force: true });
      throw new LayerSourceError(
        `runtime ${label}: npm pack ${pkg}@${version} failed: ${tail(pack.output, 5)}`,
        'runtime',
        label,
      );
    }
    const untar = run('tar', ['-xzf', join(staging, tarball), '-C', staging], staging);
    if (!untar.ok || !existsSync(join(staging, 'package', 'bin', 'node'))) {
      rmSync(staging, { recursive: true, force: true });
      throw new LayerSourceError(`runtime ${label}: ${tarball} has no package/bin/node`, 'runtime', label);
    }
    rmSync(join(staging, tarball), { force: true });
    writeFileSync(join(staging, BUILT_MARKER), `${pkg}@${version}\n`);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(this.runtimeCacheDir, { recursive: true });
    renameSync(staging, dest);
    return binary;
  }
}
