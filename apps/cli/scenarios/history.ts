// The scenario suite's throwaway history: a temporary clone of this
// repository whose node_modules link to this one's (offline, no `npm ci`),
// commits made on it from a base, and the edits the scenarios are made of —
// real slowdowns and capability bugs in one layer, and harmless changes in
// another. Each edit finds its anchor in the source or fails naming the file
// and the line it looked for, so a refactor of a layer is reported, not
// silently turned into a scenario that changes nothing.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot, linkNodeModules } from '../src/bisect/side-sources.ts';

export interface History {
  dir: string;
  repo: string;
  /** The commit every scenario starts from (the clone's HEAD). */
  base: string;
  git(...args: string[]): string;
  /** Applies `edits` on top of `from` (default: base) and commits them; returns the commit id. */
  commit(message: string, edits: (repo: string) => void, from?: string): string;
  remove(): void;
}

export function cloneHistory(prefix: string): History {
  const root = findRepoRoot(process.cwd());
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(dir, 'repo');
  const gitIn = (cwd: string, args: string[]) => {
    const r = spawnSync(
      'git',
      ['-c', 'user.name=layerbench scenario', '-c', 'user.email=scenario@layerbench.invalid', ...args],
      { cwd, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  gitIn(dir, ['clone', '--quiet', '--shared', root, repo]);
  linkNodeModules(root, repo);
  const git = (...args: string[]) => gitIn(repo, args);
  const base = git('rev-parse', 'HEAD');
  return {
    dir,
    repo,
    base,
    git,
    commit(message, edits, from = base) {
      git('checkout', '--quiet', '--detach', from);
      edits(repo);
      git('commit', '--quiet', '-am', message);
      return git('rev-parse', 'HEAD');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Replaces `anchor` (which must occur exactly once) in a file of the clone. */
function edit(repo: string, path: string, anchor: string, replacement: string): void {
  const file = join(repo, path);
  const text = readFileSync(file, 'utf8');
  const count = text.split(anchor).length - 1;
  if (count !== 1)
    throw new Error(
      `${path}: the scenario edit expects exactly one \`${anchor}\`, found ${count}; update apps/cli/scenarios/history.ts`,
    );
  writeFileSync(file, text.replace(anchor, replacement));
}

/** Extra work that changes no output: a loop on a module variable the engine cannot drop. */
function extraWork(name: string, iterations: number): string {
  return `\n/** Scenario test: extra work that changes no output. */\nexport let ${name}Sink = 0;\nexport function ${name}(): void {\n  for (let i = 0; i < ${iterations}; i++) ${name}Sink = Math.imul(${name}Sink ^ i, 0x9e3779b1) | 0;\n}\n`;
}

/** The seed's bug, re-created: the SHA-1 dispatcher ends up on the generic block function. */
export function forceGenericSha1(repo: string): void {
  edit(
    repo,
    'packages/sha1-dispatch/src/dispatch.ts',
    'const envImpl = env.LAYERBENCH_SHA1_IMPL;',
    "const envImpl = env.LAYERBENCH_SHA1_IMPL ?? 'generic';",
  );
}

/**
 * The OpenConnect report's failure: sha1-dispatch's capability detection
 * stops reporting wasm and nodeCrypto, so every layer that asks it what is
 * available (esp's default composition) silently falls back.
 */
export function breakSha1Capabilities(repo: string): void {
  const path = 'packages/sha1-dispatch/src/capabilities.ts';
  edit(repo, path, '  if (validates(MVP_PROBE)) word |= CAPABILITY_BITS.wasm;\n', '');
  edit(repo, path, '  if (nodeCryptoWorks()) word |= CAPABILITY_BITS.nodeCrypto;\n', '');
}

/**
 * aes-core's table backend does extra work in every CBC-MAC chain (what CMAC
 * runs per message): x1.37-x1.44 of a preloaded 48-byte CMAC in CI on
 * 2026-12-03 (about 15% when the loop length was set; aes-core has got faster since).
 */
export function slowAesTableMac(repo: string, iterations = AES_EXTRA_ITERATIONS): void {
  const path = 'packages/aes-core/src/backends/table.ts';
  edit(
    repo,
    path,
    '    cbcMacBytes(this.ek, state, data, offset, blocks, mask);\n',
    '    cbcMacBytes(this.ek, state, data, offset, blocks, mask);\n    scenarioAesWork();\n',
  );
  appendFileSync(join(repo, path), extraWork('scenarioAesWork', iterations));
}

/** cmac's mac() does extra work per message: swapped into the good stack x1.23-x1.33 of a preloaded 48-byte CMAC (CI, 2026-12-03). */
export function slowCmacMac(repo: string, iterations = CMAC_EXTRA_ITERATIONS): void {
  const path = 'packages/cmac/src/cmac.ts';
  edit(
    repo,
    path,
    '  mac(msg: Uint8Array): Uint8Array {\n',
    '  mac(msg: Uint8Array): Uint8Array {\n    scenarioCmacWork();\n',
  );
  appendFileSync(join(repo, path), extraWork('scenarioCmacWork', iterations));
}

/** Loop lengths of the two slowdowns of `cmac/aes-128/pl=48/preloaded/table` (sizes measured: see above). */
export const AES_EXTRA_ITERATIONS = 40;
export const CMAC_EXTRA_ITERATIONS = 40;

/** A harmless change: one new export in the layer's entry module (its runnable code differs, so bisect swaps it). */
export function harmlessExport(repo: string, layer: 'aes-core' | 'cmac' | 'sha1-dispatch' | 'esp'): void {
  const name = `scenarioHarmless${layer.replace(/(^|-)(\w)/g, (_, _d, c: string) => c.toUpperCase())}`;
  appendFileSync(
    join(repo, 'packages', layer, 'src/index.ts'),
    `\n/** Scenario test: a harmless new export. */\nexport const ${name} = '${layer}';\n`,
  );
}

/**
 * A comment-only change in the layer's entry module: a new comment block and a
 * line comment. The build emits no comments, so its runnable code — and its
 * content hash — stay the same.
 */
export function commentOnly(repo: string, layer: 'aes-core' | 'cmac' | 'sha1-dispatch' | 'esp'): void {
  const file = join(repo, 'packages', layer, 'src/index.ts');
  writeFileSync(
    file,
    `/*\n * Scenario test: a comment-only change.\n */\n${readFileSync(file, 'utf8')}\n// Scenario test: the end of the module.\n`,
  );
}
