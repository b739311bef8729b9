// Typed errors of the SHA-1 layer.
import { ImplementationError } from './layer-shared.generated.js';
import type { Sha1ImplName } from './implementations.js';

/**
 * Asked for an implementation that does not exist or cannot run here. Never a
 * silent fallback. The layers' ImplementationError (code
 * 'ERR_LAYERBENCH_UNKNOWN_IMPL' or 'ERR_LAYERBENCH_IMPL_UNAVAILABLE', with
 * `variable` set when LAYERBENCH_SHA1_IMPL asked) under the name it has always had.
 */
export class Sha1ImplementationError extends ImplementationError {
  declare readonly available: Sha1ImplName[];

  constructor(message: string, unknown: boolean, requested: string, available: Sha1ImplName[], variable?: string) {
    super(message, { unknown, layer: 'sha1-dispatch', requested, available, variable });
    this.name = 'Sha1ImplementationError';
  }
}
