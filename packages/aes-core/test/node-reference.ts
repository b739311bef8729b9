// node:crypto (OpenSSL) as the reference every aes-core backend is checked
// against in the tests: one place for how a reference result is computed.
import { createCipheriv, createDecipheriv } from 'node:crypto';

/** AES-CBC without padding: the whole of `data` (a multiple of 16) through OpenSSL. */
export function nodeCbc(encrypt: boolean, key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const name = `aes-${key.length * 8}-cbc`;
  const c = encrypt ? createCipheriv(name, key, iv) : createDecipheriv(name, key, iv);
  c.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

/** One block encrypted with AES-ECB through OpenSSL. */
export function nodeBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const c = createCipheriv(`aes-${key.length * 8}-ecb`, key, null).setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(block), c.final()]));
}
