// The npm peers' identity in a run's fingerprint: their built code and the
// installed version of every peer library, so compare's unchanged-code guard
// can cover peer cases too (a peer library upgraded is other code).
import { fileURLToPath } from 'node:url';
import { layerFingerprint } from '@layerbench/bench-runner';
import type { CaseResult } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { caseLayers } from '../src/between-runs.js';
import { peersPackage } from '../src/layer-env.js';
import { peersFingerprint } from '../src/measure.js';

describe('the npm peers in the fingerprint', () => {
  it('hash the built peers package together with the peer libraries as installed', () => {
    const fingerprint = peersFingerprint();
    expect(fingerprint?.name).toBe(peersPackage);
    expect(fingerprint?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const dir = fileURLToPath(new URL('../../../packages/peers', import.meta.url));
    // Not the plain content hash of packages/peers: the libraries' versions are in it.
    expect(fingerprint?.contentHash).not.toBe(layerFingerprint(dir).contentHash);
    // Stable: the same installation gives the same hash.
    expect(peersFingerprint()?.contentHash).toBe(fingerprint?.contentHash);
  });

  it('are the code of a peer case (with the CLI that builds it); a layer case is its layer and those below', () => {
    const caseOf = (layer: string) => ({ layer }) as CaseResult;
    expect(caseLayers(caseOf('peers'))).toEqual([peersPackage, '@layerbench/cli']);
    expect(caseLayers(caseOf('cmac'))).toEqual(['@layerbench/cmac', '@layerbench/aes-core', '@layerbench/cli']);
    expect(caseLayers(caseOf('something-else'))).toBeUndefined();
  });
});
