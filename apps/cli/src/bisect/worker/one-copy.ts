// One copy of each layer per measuring worker, part 2: the check. From the
// files the resolution hook logged (one-copy-hooks.ts) and the files CommonJS
// loaded (require.cache, which the ESM hook does not see on older runtimes),
// which folder each layer package was loaded from. A layer loaded from two
// folders, or from another folder than the variant's, makes the variant fail:
// its numbers would be about a stack no user can install. Node 16 code.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { variantTagOf } from './protocol.js';

/** Where one file was loaded from, and by whom (the importing module, when the hook knows it). */
interface LoadedFile {
  file: string;
  importer?: string;
  /** The variant whose module graph loaded it ('' outside any, and for CommonJS). */
  tag: string;
}

function readLog(path: string): LoadedFile[] {
  if (!existsSync(path)) return [];
  const out: LoadedFile[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const [url, parent] = line.split('\t');
    try {
      const loaded: LoadedFile = { file: fileURLToPath(url!), tag: variantTagOf(url) };
      if (parent?.startsWith('file:')) loaded.importer = fileURLToPath(parent);
      out.push(loaded);
    } catch {
      // Not a file URL: nothing to check.
    }
  }
  return out;
}

const owners = new Map<string, { name: string; dir: string } | undefined>();

/** The nearest enclosing package.json that has a name: the package a file belongs to. */
export function owningPackage(file: string): { name: string; dir: string } | undefined {
  let dir = dirname(file);
  const seen: string[] = [];
  let found: { name: string; dir: string } | undefined;
  for (;;) {
    if (owners.has(dir)) {
      found = owners.get(dir);
      break;
    }
    seen.push(dir);
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        if (typeof name === 'string' && name) {
          found = { name, dir };
          break;
        }
      } catch {
        // An unreadable manifest names no package; keep looking up.
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of seen) owners.set(d, found);
  return found;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export interface LayerCopies {
  /** Package name -> the folders it was loaded from -> the first file that came from there (with its importer). */
  folders: Map<string, Map<string, string[]>>;
  /** How many files the hook logged (0: the hook was not active). */
  hookResolutions: number;
}

/**
 * Which folder each of `packageNames` was loaded from in this process so far,
 * by the module graph of variant `tag` ('' : outside any variant's graph, and
 * CommonJS, which has no tags).
 */
export function layerCopies(resolutionLog: string, packageNames: readonly string[], tag = ''): LayerCopies {
  const wanted = new Set(packageNames);
  const logged = readLog(resolutionLog);
  const files: LoadedFile[] = [
    ...logged,
    ...Object.keys(createRequire(import.meta.url).cache).map((file) => ({ file, tag: '' })),
  ].filter((f) => f.tag === tag);
  const folders = new Map<string, Map<string, string[]>>();
  for (const { file, importer } of files) {
    const owner = owningPackage(file);
    if (!owner || !wanted.has(owner.name)) continue;
    const byFolder = folders.get(owner.name) ?? new Map<string, string[]>();
    folders.set(owner.name, byFolder);
    const dir = real(owner.dir);
    const examples = byFolder.get(dir) ?? [];
    byFolder.set(dir, examples);
    if (examples.length === 0) examples.push(importer ? `${file} (imported by ${importer})` : file);
  }
  return { folders, hookResolutions: logged.length };
}

/**
 * Why this process breaks the one-copy rule, or undefined when every layer
 * was loaded from exactly the folder the variant takes it from.
 */
export function oneCopyProblem(copies: LayerCopies, expected: Record<string, string>): string | undefined {
  if (copies.hookResolutions === 0) {
    return `the module resolution hook is not active on this runtime (${process.version}): one copy per layer cannot be guaranteed`;
  }
  const problems: string[] = [];
  for (const [name, dir] of Object.entries(expected)) {
    const want = real(dir);
    const seen = copies.folders.get(name);
    if (!seen || seen.size === 0) continue;
    const others = [...seen].filter(([folder]) => folder !== want);
    if (others.length === 0) continue;
    const where = foldersText(others);
    problems.push(
      seen.has(want)
        ? `${name} was loaded twice: from ${want} and from ${where}`
        : `${name} was loaded from ${where} instead of ${want}`,
    );
  }
  return problems.length ? problems.join('; ') : undefined;
}

/**
 * Paired: why layer files loaded outside every variant's module graph (`copies`
 * of tag '') break the rule — such a copy would be shared by the variants — or
 * undefined when there are none.
 */
export function strayCopiesProblem(copies: LayerCopies): string | undefined {
  const problems = [...copies.folders].map(
    ([name, folders]) => `${name} was loaded outside the variants' module graphs, from ${foldersText([...folders])}`,
  );
  return problems.length ? problems.join('; ') : undefined;
}

/** Folders with the first file loaded from each: "folder (file (imported by ...)), ...". */
function foldersText(folders: readonly [folder: string, examples: string[]][]): string {
  return folders.map(([folder, examples]) => `${folder} (${examples.join('; ')})`).join(', ');
}
