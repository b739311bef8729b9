// @layerbench/cmac: AES-CMAC (RFC 4493, NIST SP 800-38B) over any BlockCipher,
// with each access pattern of the NTPsec report as its own entry point:
// one-shot cmac(), preloaded createCmac()/new Cmac(), dup clone(), native cmacNative().
export { Cmac } from './cmac.js';
export type { CmacOptions } from './cmac.js';
export { cmac, createCmac, describeDispatch } from './oneshot.js';
export type { CmacKeyOptions } from './oneshot.js';
export { cmacNative } from './native.js';
export { CmacDestroyedError, MIN_TAG_LENGTH, MAX_TAG_LENGTH } from './errors.js';
export { DestroyedError } from './layer-shared.generated.js';
export type { LayerErrorCode } from './layer-shared.generated.js';
