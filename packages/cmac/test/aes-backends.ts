// The block ciphers the cmac tests run over: every aes-core backend that can
// run here, each as a BlockCipherFactory, so every CMAC test covers each one;
// and each once more hidden behind a cipher without the optional
// cbcMacWords method (an aes-core older than 0.2.0, another library's
// cipher), so the encryptBlock/cbcEncrypt fallback of the CMAC chain is
// tested as fully as the fast path.
import { aesBackends, createAes } from '@layerbench/aes-core';
import type { BlockCipher, BlockCipherFactory } from '@layerbench/aes-core';

export interface TestBackend {
  name: string;
  create: BlockCipherFactory;
}

/** The same cipher through a BlockCipher that has only the required methods. */
function withoutCbcMacWords(cipher: BlockCipher): BlockCipher {
  return {
    blockSize: 16,
    keyBits: cipher.keyBits,
    backend: cipher.backend,
    encryptBlock: (src, dst) => cipher.encryptBlock(src, dst),
    decryptBlock: (src, dst) => cipher.decryptBlock(src, dst),
    cbcEncrypt: (iv, src, dst) => cipher.cbcEncrypt(iv, src, dst),
    cbcDecrypt: (iv, src, dst) => cipher.cbcDecrypt(iv, src, dst),
    destroy: () => cipher.destroy(),
  };
}

export function testBackends(): TestBackend[] {
  const available = aesBackends().filter((backend) => backend.available);
  if (available.length === 0) throw new Error('aes-core reports no available backend');
  return available.flatMap(({ name }) => [
    { name, create: (key: Uint8Array) => createAes(key, { backend: name }) },
    {
      name: `${name} without cbcMacWords`,
      create: (key: Uint8Array) => withoutCbcMacWords(createAes(key, { backend: name })),
    },
  ]);
}
