// @layerbench/aes-core: AES-128/192/256 (FIPS 197) and CBC (SP 800-38A) with
// interchangeable backends, and the dispatcher that picks one and says why.
import { bitslicedBackend } from './backends/bitsliced.js';
import { ctBackend } from './backends/ct.js';
import { nodeBackend } from './backends/node.js';
import { tableBackend } from './backends/table.js';
import { checkKey } from './input-checks.js';
import { ImplementationError, implOption } from './layer-shared.generated.js';
import type { AesBackend, AesBackendStatus, BlockCipher, CreateAesOptions, DispatchDecision } from './types.js';

export type * from './types.js';
export { DestroyedError, ImplementationError } from './layer-shared.generated.js';
export type { LayerErrorCode } from './layer-shared.generated.js';

/** Environment variable that forces the default backend (read once, at first use). */
export const AES_BACKEND_ENV = 'LAYERBENCH_AES_BACKEND';

// In order of preference for the default: table is the fastest for one block
// and short messages, which is what the layers above do (CMAC of NTP packets,
// ESP packets): a node:crypto call costs several table-AES blocks, so node
// only wins for CBC calls of about 256 bytes (encrypting) or 128 bytes
// (decrypting) and more (see README).
const BACKENDS: readonly AesBackend[] = [tableBackend, ctBackend, bitslicedBackend, nodeBackend];

interface DefaultChoice {
  backend: AesBackend;
  reason: string;
}

let defaultChoice: DefaultChoice | undefined;

function availableNames(): string[] {
  return BACKENDS.filter((b) => b.available()).map((b) => b.info.name);
}

// Who asked for the backend, named in the error message only (built on
// failure, not on every createAes with options.impl).
function requester(name: string, viaEnv: boolean): string {
  return viaEnv ? `${AES_BACKEND_ENV}=${name}` : `createAes({ impl: '${name}' })`;
}

function findBackend(name: string, viaEnv: boolean): AesBackend {
  const backend = BACKENDS.find((b) => b.info.name === name);
  if (backend === undefined || !backend.available()) {
    const available = availableNames();
    const what = backend === undefined ? 'which does not exist' : 'which is not available here';
    throw new ImplementationError(
      `${requester(name, viaEnv)} asks for AES backend '${name}', ${what}; available backends: ${available.join(', ') || '(none)'}`,
      {
        unknown: backend === undefined,
        layer: 'aes-core',
        requested: name,
        available,
        variable: viaEnv ? AES_BACKEND_ENV : undefined,
      },
    );
  }
  return backend;
}

function chooseDefault(): DefaultChoice {
  if (defaultChoice !== undefined) return defaultChoice;
  const forced = typeof process === 'undefined' ? undefined : process.env[AES_BACKEND_ENV];
  if (forced !== undefined && forced !== '') {
    defaultChoice = { backend: findBackend(forced, true), reason: `forced by ${AES_BACKEND_ENV}=${forced}` };
  } else {
    const backend = BACKENDS.find((b) => b.available());
    if (backend === undefined) {
      throw new ImplementationError('no AES backend is available here', {
        unknown: false,
        layer: 'aes-core',
        requested: '(default)',
        available: [],
      });
    }
    const why =
      backend === tableBackend
        ? 'fastest available for single blocks and short messages'
        : `first available in preference order (${BACKENDS.map((b) => b.info.name).join(', ')})`;
    defaultChoice = { backend, reason: `${why} (${AES_BACKEND_ENV} unset)` };
  }
  return defaultChoice;
}

/**
 * Expands `key` (16, 24 or 32 bytes) once and returns the keyed cipher (the
 * "preloaded key"). `options.impl` picks a backend by name; otherwise the
 * default one (`LAYERBENCH_AES_BACKEND`, else the fastest available).
 */
export function createAes(key: Uint8Array, options?: CreateAesOptions): BlockCipher {
  const name = options === undefined ? undefined : implOption(options, 'createAes');
  const backend = name !== undefined ? findBackend(name, false) : chooseDefault().backend;
  checkKey(key);
  return backend.expandKey(key);
}

/** Every backend this build has, and whether it can run here. */
export function aesBackends(): AesBackendStatus[] {
  return BACKENDS.map((b) => ({ ...b.info, available: b.available() }));
}

/** The default-backend decision in the shape bench results record. */
export function describeDispatch(): DispatchDecision[] {
  const { backend, reason } = chooseDefault();
  return [{ layer: 'aes-core', decision: 'default backend', impl: backend.info.name, reason }];
}

/**
 * Forgets the remembered default so the next use reads LAYERBENCH_AES_BACKEND
 * again. For tests and long-lived tools that change the environment. Every
 * layer with a dispatcher has a resetDispatch() of this name.
 */
export function resetDispatch(): void {
  defaultChoice = undefined;
}

/** @deprecated since 0.2: the same as resetDispatch(), the name every layer uses. */
export const resetAesDispatch: () => void = resetDispatch;
