// The composition loader: imports each layer from its resolved folder (the
// package.json `exports` entry, through a file URL) and hands suites one
// `Layers` object, so any mix of sources runs the same suite. Runs inside the
// measuring worker, so it must stay Node 16 compatible.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Layers } from '../../layers.js';
import type { CodeLayerName } from '../side-spec.js';
import { withVariantTag } from './protocol.js';

/** A layer that cannot be used by this mix (import throws, an expected export is missing). */
export class LayerLoadError extends Error {
  override name = 'LayerLoadError';
  constructor(
    message: string,
    readonly layer: string,
  ) {
    super(message);
  }
}

type ExportsValue = string | { [condition: string]: ExportsValue } | null | undefined;

function pickCondition(value: ExportsValue): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return undefined;
  for (const condition of ['node', 'import', 'default']) {
    const picked = pickCondition(value[condition]);
    if (picked) return picked;
  }
  return undefined;
}

/** The file a package's root entry (`exports['.']`, else `main`) points at. */
export function resolvePackageEntry(dir: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports?: ExportsValue | { '.'?: ExportsValue };
    main?: string;
  };
  let entry: string | undefined;
  const exp = pkg.exports;
  if (typeof exp === 'string') entry = exp;
  else if (exp && typeof exp === 'object') {
    const root = '.' in exp ? (exp as { '.'?: ExportsValue })['.'] : (exp as ExportsValue);
    entry = pickCondition(root);
  }
  entry ??= pkg.main ?? 'index.js';
  return join(dir, entry);
}

/** Imports the package in `dir` by its entry file, into variant `tag`'s module graph ('' : the usual one). */
export async function importPackage(dir: string, tag = ''): Promise<Record<string, unknown>> {
  return (await import(withVariantTag(pathToFileURL(resolvePackageEntry(dir)).href, tag))) as Record<string, unknown>;
}

/** Which `Layers` key each code layer fills. */
export const LAYER_KEYS: Record<Exclude<CodeLayerName, 'bench-runner'>, keyof Layers> = {
  'aes-core': 'aes',
  cmac: 'cmac',
  'sha1-dispatch': 'sha1',
  esp: 'esp',
};

export interface LoadedComposition {
  layers: Layers;
  /** The bench-runner module of this composition (the engine is a layer too). */
  benchRunner: Record<string, unknown>;
}

/**
 * Imports every layer of a composition (into variant `tag`'s module graph). A layer that throws at import, or has
 * no exports at all, is a LayerLoadError naming it; the caller reports that mix
 * as unable to run and carries on with the others.
 */
export async function loadLayers(dirs: Record<CodeLayerName, string>, tag = ''): Promise<LoadedComposition> {
  const modules = {} as Record<CodeLayerName, Record<string, unknown>>;
  for (const name of Object.keys(dirs) as CodeLayerName[]) {
    let mod: Record<string, unknown>;
    try {
      mod = await importPackage(dirs[name], tag);
    } catch (err) {
      const e = err as Error;
      throw new LayerLoadError(`${name} (${dirs[name]}) throws at import: ${e.name}: ${e.message}`, name);
    }
    if (Object.keys(mod).length === 0) {
      throw new LayerLoadError(`${name} (${dirs[name]}) exports nothing`, name);
    }
    modules[name] = mod;
  }
  const benchRunner = modules['bench-runner'];
  if (typeof benchRunner.runCases !== 'function') {
    throw new LayerLoadError(`bench-runner (${dirs['bench-runner']}) has no runCases export`, 'bench-runner');
  }
  const layers = {} as Record<keyof Layers, unknown>;
  for (const [name, key] of Object.entries(LAYER_KEYS) as [Exclude<CodeLayerName, 'bench-runner'>, keyof Layers][]) {
    layers[key] = modules[name];
  }
  return { layers: layers as unknown as Layers, benchRunner };
}
