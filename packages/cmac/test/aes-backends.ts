// The block ciphers the cmac tests run over: every aes-core backend that can
// run here, each as a BlockCipherFactory, so every CMAC test covers each one.
import { aesBackends, createAes } from '@layerbench/aes-core';
import type { BlockCipherFactory } from '@layerbench/aes-core';

export interface TestBackend {
  name: string;
  create: BlockCipherFactory;
}

export function testBackends(): TestBackend[] {
  const available = aesBackends().filter((backend) => backend.available);
  if (available.length === 0) throw new Error('aes-core reports no available backend');
  return available.map(({ name }) => ({ name, create: (key: Uint8Array) => createAes(key, { backend: name }) }));
}
