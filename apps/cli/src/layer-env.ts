// What the layers say about themselves, for the environment fingerprint of
// every result: the capability word, each dispatch decision with its reason,
// and each layer package's identity (version, commit, content hash).
// A layer that does not (yet) export one of the reporting functions is noted,
// not guessed at; a reporting function that throws is an error, not hidden.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layerFingerprint } from '@layerbench/bench-runner';
import type { DispatchDecision, LayerFingerprint } from '@layerbench/bench-runner';
import type { Layers } from './layers.js';

/** The package behind each key of Layers, plus the engine itself. */
export const layerPackages = {
  aes: '@layerbench/aes-core',
  cmac: '@layerbench/cmac',
  sha1: '@layerbench/sha1-dispatch',
  esp: '@layerbench/esp',
} as const satisfies Record<keyof Layers, string>;

export const enginePackage = '@layerbench/bench-runner';

/** The CLI itself: its suites define what each case does. */
export const cliPackage = '@layerbench/cli';

/** The npm peers (packages/peers): its fingerprint covers the peer libraries' installed versions. */
export const peersPackage = '@layerbench/peers';

export interface LayerReport {
  capabilities?: string;
  dispatch: DispatchDecision[];
  layers: LayerFingerprint[];
  /** Reporting functions a layer does not export, e.g. 'sha1-dispatch does not export capabilityWord()'. */
  missing: string[];
}

type Reporter = (...args: unknown[]) => unknown;

function exportedFunction(module: object, name: string): Reporter | undefined {
  const value = (module as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as Reporter) : undefined;
}

function shortName(packageName: string): string {
  return packageName.replace(/^@layerbench\//, '');
}

function isDispatchDecision(value: unknown): value is DispatchDecision {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['layer', 'decision', 'impl', 'reason'].every((key) => typeof record[key] === 'string');
}

/** The folder of package `name` as Node would load it from `fromDir` (up the node_modules chain; exports maps aside). */
export function installedPackageDir(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** This CLI's package folder: its dist/ is what runs, its suites define the cases. */
export function cliPackageDir(): string {
  return fileURLToPath(new URL('..', import.meta.url));
}

/** The npm peers' package folder as this CLI loads it, undefined when not installed. */
export function peersPackageDir(): string | undefined {
  return installedPackageDir(cliPackageDir(), peersPackage);
}

/** The folder of a workspace layer package (where its package.json and dist/ are). */
export function workspacePackageDir(packageName: string): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve(`${packageName}/package.json`));
}

/** Fingerprints of the workspace's layer packages and the engine. */
export function workspaceLayerFingerprints(): LayerFingerprint[] {
  return [...Object.values(layerPackages), enginePackage].map((name) =>
    layerFingerprint(workspacePackageDir(name), 'workspace'),
  );
}

/**
 * Asks each layer for its reports. `fingerprints` defaults to the workspace
 * packages; a caller that composed layers from elsewhere passes its own.
 */
export function describeLayers(
  layers: Layers,
  fingerprints: LayerFingerprint[] = workspaceLayerFingerprints(),
): LayerReport {
  const missing: string[] = [];
  const dispatch: DispatchDecision[] = [];
  let capabilities: string | undefined;

  const capabilityWord = exportedFunction(layers.sha1, 'capabilityWord');
  if (capabilityWord === undefined) missing.push('sha1-dispatch does not export capabilityWord()');
  else {
    const word = capabilityWord();
    if (typeof word !== 'string')
      throw new TypeError(`sha1-dispatch capabilityWord() must return a string, got ${typeof word}`);
    capabilities = word;
  }

  for (const key of Object.keys(layerPackages) as (keyof Layers)[]) {
    const name = shortName(layerPackages[key]);
    const describeDispatch = exportedFunction(layers[key], 'describeDispatch');
    if (describeDispatch === undefined) {
      missing.push(`${name} does not export describeDispatch()`);
      continue;
    }
    const reported = describeDispatch();
    const decisions = Array.isArray(reported) ? reported : [reported];
    for (const decision of decisions) {
      if (!isDispatchDecision(decision)) {
        throw new TypeError(
          `${name} describeDispatch() must return { layer, decision, impl, reason } objects, got ${JSON.stringify(decision)}`,
        );
      }
      dispatch.push({
        layer: decision.layer,
        decision: decision.decision,
        impl: decision.impl,
        reason: decision.reason,
      });
    }
  }

  return capabilities === undefined
    ? { dispatch, layers: fingerprints, missing }
    : { capabilities, dispatch, layers: fingerprints, missing };
}
