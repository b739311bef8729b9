// One copy of each layer per measuring worker, part 1: Node's module
// resolution hook. Every import of `@layerbench/<layer>` in the worker — from a
// suite, from another layer (esp's default-layers.ts importing sha1-dispatch),
// from any package of any version — resolves to the copy this variant takes,
// exactly as that package would resolve its own name (the self-reference step
// of Node's ESM resolution: through its `exports` and the same conditions). And
// every file the hook resolves is logged, so the worker can check afterwards
// that each layer was loaded from exactly one folder (one-copy.ts). A paired
// worker hosts several variants, each in a module graph of its own: a file
// imported by a module of variant t (URL query ?lbv=t) is loaded with that
// query too, and its @layerbench imports resolve to variant t's folders.
//
// The worker registers this module with module.register() where the runtime
// has it (Node >= 20.6, 18.19); older runtimes (Node 16) get it from the parent
// as --experimental-loader. Its configuration comes through the environment the
// parent sets at fork, and the log is a file appended synchronously: that works
// alike whether the hooks run on the worker's own thread (Node 16) or a thread
// of their own (Node 20+), and by the time an import() settles in the worker,
// every resolution it needed is on disk. Node 16 code: no newer APIs.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LAYER_DIRS_ENV, RESOLUTION_LOG_ENV, variantTagOf, withVariantTag } from './protocol.js';

interface ResolveContext {
  parentURL?: string | undefined;
  conditions?: string[];
  [key: string]: unknown;
}

interface ResolveResult {
  url: string;
  format?: string | null | undefined;
  shortCircuit?: boolean;
  [key: string]: unknown;
}

type NextResolve = (specifier: string, context?: ResolveContext) => ResolveResult | Promise<ResolveResult>;

/** Per variant tag: package name -> the folder that variant takes it from. */
const layerDirs = JSON.parse(process.env[LAYER_DIRS_ENV] ?? '{}') as Record<string, Record<string, string>>;
const resolutionLog = process.env[RESOLUTION_LOG_ENV];

const LAYER_SPECIFIER = /^(@layerbench\/[^/]+)(?:\/|$)/;

export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  // A variant's module graph: the tag of the file URL asked for, else of the importing module.
  const tag = specifier.startsWith('file:') ? variantTagOf(specifier) : variantTagOf(context.parentURL);
  const match = LAYER_SPECIFIER.exec(specifier);
  const dir = match ? layerDirs[tag]?.[match[1]!] : undefined;
  const resolved =
    dir === undefined
      ? await nextResolve(specifier, context)
      : {
          ...(await nextResolve(specifier, { ...context, parentURL: pathToFileURL(join(dir, 'package.json')).href })),
          shortCircuit: true,
        };
  const result =
    tag !== '' && resolved.url.startsWith('file:')
      ? { ...resolved, url: withVariantTag(resolved.url, tag), shortCircuit: true }
      : resolved;
  if (resolutionLog !== undefined && result.url.startsWith('file:')) {
    appendFileSync(resolutionLog, `${result.url}\t${context.parentURL ?? ''}\n`);
  }
  return result;
}
