// The layer composition a suite runs against. Suites never import a layer
// package directly: they receive one Layers object, so bisection can mix layers
// from different versions (workspace, git ref, folder, tarball).
import type * as AesCore from '@layerbench/aes-core';
import type * as Cmac from '@layerbench/cmac';
import type * as Sha1Dispatch from '@layerbench/sha1-dispatch';
import type * as Esp from '@layerbench/esp';

export interface Layers {
  aes: typeof AesCore;
  cmac: typeof Cmac;
  sha1: typeof Sha1Dispatch;
  esp: typeof Esp;
}

/** The layers of this workspace (the default composition). */
export async function loadWorkspaceLayers(): Promise<Layers> {
  const [aes, cmac, sha1, esp] = await Promise.all([
    import('@layerbench/aes-core'),
    import('@layerbench/cmac'),
    import('@layerbench/sha1-dispatch'),
    import('@layerbench/esp'),
  ]);
  return { aes, cmac, sha1, esp };
}
