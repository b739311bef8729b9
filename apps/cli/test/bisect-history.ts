// Test helper of the bisect and find tests: a temporary clone of this
// repository whose node_modules link to this one's (offline, no `npm ci`),
// commits made on it, and the edit that re-creates the SHA-1 seed regression.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot, linkNodeModules } from '../src/bisect/side-sources.ts';

export interface History {
  dir: string;
  repo: string;
  git(...args: string[]): string;
  /** Applies `edit` to the clone and commits it; returns the commit id. */
  commit(message: string, edit: () => void): string;
  remove(): void;
}

export function cloneHistory(prefix: string): History {
  const root = findRepoRoot(process.cwd());
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(dir, 'repo');
  const gitIn = (cwd: string, args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=layerbench test', '-c', 'user.email=test@layerbench.invalid', ...args], { cwd, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  gitIn(dir, ['clone', '--quiet', '--shared', root, repo]);
  linkNodeModules(root, repo);
  const git = (...args: string[]) => gitIn(repo, args);
  return {
    dir,
    repo,
    git,
    commit(message, edit) {
      edit();
      git('commit', '--quiet', '-am', message);
      return git('rev-parse', 'HEAD');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The seed's bug, re-created: the SHA-1 dispatcher ends up on the generic block function. */
export function forceGenericSha1(repo: string): void {
  const file = join(repo, 'packages/sha1-dispatch/src/dispatch.ts');
  const from = "const envImpl = env['LAYERBENCH_SHA1_IMPL'];";
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer has the line the bisect tests edit: ${from}`);
  writeFileSync(file, text.replace(from, "const envImpl = env['LAYERBENCH_SHA1_IMPL'] ?? 'generic';"));
}
