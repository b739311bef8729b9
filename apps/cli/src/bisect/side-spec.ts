// The text syntax of one side of a bisection (`--good` / `--bad`): where each
// layer of the stack comes from. Parsing only; resolving a source to a built
// folder is sources.ts.
//
//   <side>   := <item>[,<item>...]          later items override earlier ones
//   <item>   := <source>                    every code layer from that source
//             | <layer>=<source>            one code layer
//             | runtime=<runtime> | node@<version>
//   <source> := workspace | git:<ref> | dir:<path> | tgz:<path>
//   <runtime>:= current | node@<version> | <path to a node binary>
//
// A bare `dir:<path>` names a checkout whose packages/<layer> folders are built;
// `<layer>=dir:<path>` names one built package folder. A tarball is one package,
// so `tgz:` is only valid per layer. Layers a side does not name come from the
// workspace; the runtime defaults to the node running layerbench.

export const CODE_LAYERS = ['aes-core', 'cmac', 'sha1-dispatch', 'esp', 'bench-runner'] as const;
export type CodeLayerName = (typeof CODE_LAYERS)[number];
export type LayerName = CodeLayerName | 'runtime';
export const ALL_LAYERS: readonly LayerName[] = [...CODE_LAYERS, 'runtime'];

/** The npm package name of each code layer. */
export function packageNameOf(layer: CodeLayerName): string {
  return `@layerbench/${layer}`;
}

export type LayerSource =
  | { kind: 'workspace' }
  | { kind: 'git'; ref: string }
  | { kind: 'dir'; path: string; whole: boolean }
  | { kind: 'tgz'; path: string };

export type RuntimeSource = { kind: 'current' } | { kind: 'node'; version: string } | { kind: 'path'; path: string };

export interface CompositionSpec {
  /** The text it was parsed from (for reports). */
  text: string;
  layers: Record<CodeLayerName, LayerSource>;
  runtime: RuntimeSource;
}

/** A side specification that cannot be parsed: bad input, exit 2. */
export class SpecError extends Error {
  override name = 'SpecError';
}

export function isLayerName(name: string): name is LayerName {
  return (ALL_LAYERS as readonly string[]).includes(name);
}

/** A layer with code of its own (not the runtime). */
export function isCodeLayerName(name: string): name is CodeLayerName {
  return (CODE_LAYERS as readonly string[]).includes(name);
}

export function defaultSpec(): CompositionSpec {
  const layers = {} as Record<CodeLayerName, LayerSource>;
  for (const l of CODE_LAYERS) layers[l] = { kind: 'workspace' };
  return { text: 'workspace', layers, runtime: { kind: 'current' } };
}

function parseSource(text: string, perLayer: boolean, where: string): LayerSource {
  if (text === 'workspace') return { kind: 'workspace' };
  const colon = text.indexOf(':');
  const kind = colon < 0 ? text : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  if (kind === 'git' || kind === 'dir' || kind === 'tgz') {
    if (!rest) throw new SpecError(`${where}: '${text}' needs a value after '${kind}:'`);
    if (kind === 'git') return { kind, ref: rest };
    if (kind === 'dir') return { kind, path: rest, whole: !perLayer };
    if (!perLayer) {
      throw new SpecError(`${where}: a tarball is one package; write <layer>=tgz:${rest}`);
    }
    return { kind, path: rest };
  }
  throw new SpecError(
    `${where}: unknown source '${text}'; expected workspace, git:<ref>, dir:<path>, tgz:<path> or node@<version>`,
  );
}

function parseRuntime(text: string, where: string): RuntimeSource {
  if (text === 'current') return { kind: 'current' };
  const m = /^node@(\d+\.\d+\.\d+)$/.exec(text);
  if (m) return { kind: 'node', version: m[1]! };
  if (text.startsWith('node@')) {
    throw new SpecError(`${where}: '${text}' needs an exact version like node@16.20.2`);
  }
  if (text.includes('/')) return { kind: 'path', path: text };
  throw new SpecError(`${where}: runtime '${text}' is not current, node@<x.y.z> or a path to a node binary`);
}

/** Parses one side (`--good` / `--bad` value). `flag` names the option in errors. */
export function parseSideSpec(text: string, flag = 'spec'): CompositionSpec {
  const spec = defaultSpec();
  spec.text = text;
  const items = text.split(',').map((s) => s.trim());
  if (items.length === 0 || items.some((s) => s === '')) {
    throw new SpecError(`${flag}: empty item in '${text}'`);
  }
  for (const item of items) {
    if (item.startsWith('node@')) {
      spec.runtime = parseRuntime(item, flag);
      continue;
    }
    const eq = item.indexOf('=');
    if (eq < 0) {
      const source = parseSource(item, false, flag);
      for (const l of CODE_LAYERS) spec.layers[l] = source;
      continue;
    }
    const name = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (!isLayerName(name)) {
      throw new SpecError(`${flag}: unknown layer '${name}'; layers are ${ALL_LAYERS.join(', ')}`);
    }
    if (name === 'runtime') spec.runtime = parseRuntime(value, flag);
    else spec.layers[name] = parseSource(value, true, `${flag} ${name}`);
  }
  return spec;
}

/** Parses `--layers a,b,c`. */
export function parseLayerList(text: string): LayerName[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new SpecError('--layers: no layer named');
  for (const n of names) {
    if (!isLayerName(n)) throw new SpecError(`--layers: unknown layer '${n}'; layers are ${ALL_LAYERS.join(', ')}`);
  }
  return [...new Set(names)] as LayerName[];
}

export function describeSource(source: LayerSource | RuntimeSource): string {
  switch (source.kind) {
    case 'workspace':
      return 'workspace';
    case 'git':
      return `git:${source.ref}`;
    case 'dir':
      return `dir:${source.path}`;
    case 'tgz':
      return `tgz:${source.path}`;
    case 'current':
      return 'current';
    case 'node':
      return `node@${source.version}`;
    case 'path':
      return source.path;
  }
}
