// The layer composition a suite runs against. Suites never import a layer
// package directly: they receive one Layers object, so bisection can mix layers
// from different versions (workspace, git ref, folder, tarball).
import type * as AesCore from '@layerbench/aes-core';
import type * as Cmac from '@layerbench/cmac';
import type * as Sha1Dispatch from '@layerbench/sha1-dispatch';
import type * as Esp from '@layerbench/esp';
import { staleBuildProblem } from './built-from.js';
import {
  cliPackage,
  cliPackageDir,
  enginePackage,
  layerPackages,
  peersPackage,
  peersPackageDir,
  workspacePackageDir,
} from './layer-env.js';
import { InputFileError } from './result-files.js';

export interface Layers {
  aes: typeof AesCore;
  cmac: typeof Cmac;
  sha1: typeof Sha1Dispatch;
  esp: typeof Esp;
}

/**
 * What keeps the workspace's build from being measured: each package of
 * stampedPackages (the layers, the engine, the CLI, the peers) whose dist/
 * was built from other sources than its src/ holds now (built-from.ts), one
 * line each. What would run is not the code the results would be labelled
 * with.
 */
export function workspaceBuildProblems(): string[] {
  return stampedPackages().flatMap(([name, dir]) => {
    const problem = staleBuildProblem(dir, 'run `npm run build` at the repository root');
    return problem === undefined ? [] : [`${name}: ${problem}`];
  });
}

/**
 * The packages whose build the measuring commands check, with their
 * folders: the layers and the engine, this CLI (its suites define the
 * cases) and the npm peers (their wrappers), when installed.
 */
export function stampedPackages(): [name: string, dir: string][] {
  const peers = peersPackageDir();
  return [
    ...[...Object.values(layerPackages), enginePackage].map((name): [string, string] => [
      name,
      workspacePackageDir(name),
    ]),
    [cliPackage, cliPackageDir()],
    ...(peers === undefined ? [] : [[peersPackage, peers] as [string, string]]),
  ];
}

/** The layers of this workspace as built, whatever their sources say since (env, suite choice). */
export async function importWorkspaceLayers(): Promise<Layers> {
  const [aes, cmac, sha1, esp] = await Promise.all([
    import('@layerbench/aes-core'),
    import('@layerbench/cmac'),
    import('@layerbench/sha1-dispatch'),
    import('@layerbench/esp'),
  ]);
  return { aes, cmac, sha1, esp };
}

/** The workspace's build is not of its sources (workspaceBuildProblems): bad input, exit 2 (check: 128). */
export class StaleBuildError extends InputFileError {
  override name = 'StaleBuildError';
}

/** A StaleBuildError when workspaceBuildProblems finds one: before measuring anything. */
export function assertWorkspaceBuilt(): void {
  const problems = workspaceBuildProblems();
  if (problems.length > 0) throw new StaleBuildError(problems.join('\n'));
}

/** The layers of this workspace (the default composition) to measure, once assertWorkspaceBuilt has passed. */
export async function loadWorkspaceLayers(): Promise<Layers> {
  assertWorkspaceBuilt();
  return importWorkspaceLayers();
}
