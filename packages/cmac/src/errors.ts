// Argument checks of the CMAC layer, each failing with a typed error that
// names what was expected and what arrived, so bad input never becomes a
// crash deep inside a cipher or, worse, a wrong tag. What a byte argument is
// and how its error reads is the layers' common rule (layer-shared.generated.ts).
import { DestroyedError, checkBytes as checkByteArgument, isBytes } from './layer-shared.generated.js';

/**
 * Thrown by any method of a context after destroy(): its subkeys are gone.
 * A DestroyedError (code 'ERR_LAYERBENCH_DESTROYED') under the name it has
 * always had.
 */
export class CmacDestroyedError extends DestroyedError {
  constructor(method: string) {
    super(`CMAC context was destroyed: ${method}() needs a live context (create a new one)`);
    this.name = 'CmacDestroyedError';
  }
}

export const MIN_TAG_LENGTH = 4;
export const MAX_TAG_LENGTH = 16;

export function checkBytes(value: unknown, what: string): asserts value is Uint8Array {
  // The message is built only for bad input: mac() and update() check on every call.
  if (!isBytes(value)) checkByteArgument(value, `CMAC ${what}`);
}

export function checkAesKey(key: unknown): asserts key is Uint8Array {
  checkByteArgument(key, 'AES key');
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) {
    throw new RangeError(`AES key must be 16, 24 or 32 bytes, got ${key.length}`);
  }
}

/** Resolves the tag length option (default 16) or throws for anything outside 4..16. */
export function tagLengthOption(tagLength: unknown): number {
  if (tagLength === undefined) return MAX_TAG_LENGTH;
  if (
    typeof tagLength !== 'number' ||
    !Number.isInteger(tagLength) ||
    tagLength < MIN_TAG_LENGTH ||
    tagLength > MAX_TAG_LENGTH
  ) {
    throw new RangeError(
      `CMAC tagLength must be an integer from ${MIN_TAG_LENGTH} to ${MAX_TAG_LENGTH} bytes, got ${String(tagLength)}`,
    );
  }
  return tagLength;
}
