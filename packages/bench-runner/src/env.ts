// The environment fingerprint of a run: what runtime, machine and layer
// versions produced the numbers. Differences between two fingerprints are the
// first hints of where a change came from.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EnvFingerprint, LayerFingerprint, RunOptions } from './types.js';

function cpuModel(): string {
  const cpus = os.cpus();
  return cpus.length > 0 ? cpus[0]!.model.trim() : 'unknown';
}

function cpuCount(): number {
  return Math.max(1, os.cpus().length);
}

/** A short stable hash of the machine identity: cpu model and count, OS platform and arch (no hostname). */
export function machineId(): string {
  const identity = [cpuModel(), cpuCount(), os.platform(), os.arch()].join('|');
  return createHash('sha256').update(identity).digest('hex').slice(0, 12);
}

export function collectEnv(partial: RunOptions['env'] = {}): EnvFingerprint {
  const load = os.loadavg();
  const env: EnvFingerprint = {
    node: process.versions.node,
    v8: process.versions.v8,
    openssl: process.versions.openssl ?? 'none',
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpuModel(),
    cpuCount: cpuCount(),
    loadAvgStart: load,
    loadAvgEnd: load,
    dispatch: partial.dispatch ? [...partial.dispatch] : [],
    layers: partial.layers ? [...partial.layers] : [],
    machineId: machineId(),
    hostname: os.hostname(),
  };
  if (partial.capabilities !== undefined) env.capabilities = partial.capabilities;
  if (partial.measuredOnCpu !== undefined) env.measuredOnCpu = partial.measuredOnCpu;
  if (partial.cpuNote !== undefined) env.cpuNote = partial.cpuNote;
  return env;
}

function gitCommit(dir: string): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
    const commit = out.toString().trim();
    return /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
  } catch {
    // Not a checkout, or no git: the commit is simply unknown.
    return undefined;
  }
}

/**
 * Files that do not run: source maps, declarations and build info hold the
 * checkout's paths and types, so two checkouts of the same code would differ.
 */
const NOT_RUNNABLE = /(\.map|\.d\.[cm]?ts|\.tsbuildinfo)$/;

function listFiles(root: string, dir = root, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') listFiles(root, full, out);
    } else if (entry.isFile() && !NOT_RUNNABLE.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * sha256 over the sorted relative paths and contents of the files under
 * `dir` that run (not maps, declarations or build info), so a rebuild of
 * identical code, in any checkout, gives the same hash. The one content hash
 * of a layer: compare and bisect both use it.
 */
export function contentHash(dir: string): string {
  const hash = createHash('sha256');
  const files = listFiles(dir)
    .map((file) => path.relative(dir, file).split(path.sep).join('/'))
    .sort();
  for (const rel of files) {
    const data = readFileSync(path.join(dir, rel));
    hash.update(`${rel}\0${data.length}\0`);
    hash.update(data);
  }
  return hash.digest('hex');
}

/**
 * Identity of the layer package in `packageDir`: name and version from its
 * package.json, the git commit of the checkout it lives in, and a content
 * hash of dist/** (or src/** before a build). Never throws for a missing
 * checkout or build; a missing package.json is an error.
 */
export function layerFingerprint(packageDir: string, source?: string): LayerFingerprint {
  const manifestPath = path.join(packageDir, 'package.json');
  let manifest: { name?: unknown; version?: unknown };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name?: unknown; version?: unknown };
  } catch (error) {
    throw new Error(`layerFingerprint: cannot read ${manifestPath}: ${(error as Error).message}`);
  }
  const fingerprint: LayerFingerprint = {
    name: typeof manifest.name === 'string' ? manifest.name : path.basename(packageDir),
    version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
  };
  if (source !== undefined) fingerprint.source = source;
  const commit = gitCommit(packageDir);
  if (commit !== undefined) fingerprint.commit = commit;
  for (const sub of ['dist', 'src']) {
    const dir = path.join(packageDir, sub);
    if (existsSync(dir) && statSync(dir).isDirectory()) {
      fingerprint.contentHash = contentHash(dir);
      break;
    }
  }
  return fingerprint;
}
