// The build stamp of a code layer: which sources its dist/ was built from.
//
// The measuring commands run a layer's dist/, not its src/. A checkout whose
// sources moved on after the last build (an edit, a `git checkout`, a `git
// bisect` step) would be measured as the old code under the new commit's
// name: bisect answers "no change" or blames the wrong layer, check passes a
// regression. The layer's build ends with `node ../../scripts/build-stamp.mjs`,
// which records the sha256 of every file under src/ except tests (the files
// `tsc` and the code generators build dist/ from), and one of dist/ itself, in
// .layerbench-built-from.json beside dist/ (git-ignored; a turbo build output,
// so a cached build restores it with dist/). The CLI compares it with src/ before measuring a layer
// (staleSources) and stops with the files that changed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const stampFile = '.layerbench-built-from.json';
const stampKind = 'layerbench/built-from';

/** Test files are not built into dist/ (tsconfig excludes them), so a test edit leaves a build current. */
function isTest(rel) {
  return /\.test\.[cm]?[jt]s$/.test(rel) || /(^|\/)(test|__tests__)\//.test(rel);
}

function walk(dir, rel, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) walk(full, name, out);
    else if (entry.isFile()) out.push(name);
  }
  return out;
}

/** sha256 of each build input of the package in `packageDir`: its files under src/ that are not tests, by path from the package. */
export function sourceDigests(packageDir) {
  const src = path.join(packageDir, 'src');
  const digests = {};
  if (!existsSync(src)) return digests;
  for (const rel of walk(src, '', []).sort()) {
    const name = `src/${rel}`;
    if (isTest(name)) continue;
    digests[name] = createHash('sha256')
      .update(readFileSync(path.join(src, rel)))
      .digest('hex');
  }
  return digests;
}

/**
 * sha256 over the paths and contents of every file under dist/: the stamp
 * holds it, so a stamp left beside a dist/ that a build without this step
 * wrote later (an older commit's build, checked out by git bisect) is known
 * not to describe it.
 */
export function distDigest(packageDir) {
  const dist = path.join(packageDir, 'dist');
  const hash = createHash('sha256');
  if (!existsSync(dist)) return hash.digest('hex');
  for (const rel of walk(dist, '', []).sort()) {
    const data = readFileSync(path.join(dist, rel));
    hash.update(`${rel}\0${data.length}\0`);
    hash.update(data);
  }
  return hash.digest('hex');
}

/** Records the current sources of the package in `packageDir` as those its dist/ (as it is now) was built from. */
export function writeStamp(packageDir) {
  const stamp = { kind: stampKind, dist: distDigest(packageDir), sources: sourceDigests(packageDir) };
  writeFileSync(path.join(packageDir, stampFile), `${JSON.stringify(stamp, null, 1)}\n`);
}

/**
 * How the sources of the package in `packageDir` differ from those its dist/
 * was built from: undefined when they are the same or when no readable stamp
 * of this dist/ says (a package built without this step, a tarball, a dist/
 * rebuilt since by a build without it); otherwise the files changed, added
 * and removed since the build, each sorted.
 */
export function staleSources(packageDir) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(packageDir, stampFile), 'utf8'));
  } catch {
    return undefined;
  }
  if (stamp?.kind !== stampKind || typeof stamp.sources !== 'object' || stamp.sources === null) return undefined;
  if (stamp.dist !== distDigest(packageDir)) return undefined;
  const built = stamp.sources;
  const now = sourceDigests(packageDir);
  const changed = Object.keys(now).filter((f) => f in built && built[f] !== now[f]);
  const added = Object.keys(now).filter((f) => !(f in built));
  const removed = Object.keys(built)
    .filter((f) => !(f in now))
    .sort();
  return changed.length + added.length + removed.length === 0 ? undefined : { changed, added, removed };
}

/** One line naming what changed (at most `shown` files), for an error message. */
export function describeStale(stale, shown = 3) {
  const files = [
    ...stale.changed,
    ...stale.added.map((f) => `${f} (new)`),
    ...stale.removed.map((f) => `${f} (removed)`),
  ];
  const more = files.length > shown ? ` and ${files.length - shown} more` : '';
  return `${files.slice(0, shown).join(', ')}${more}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeStamp(process.cwd());
