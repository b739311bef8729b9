// Typed errors of the SHA-1 layer.
import type { Sha1ImplName } from './implementations.js';

/** Asked for an implementation that does not exist or cannot run here. Never a silent fallback. */
export class Sha1ImplementationError extends Error {
  override readonly name = 'Sha1ImplementationError';
  readonly requested: string;
  readonly available: Sha1ImplName[];

  constructor(message: string, requested: string, available: Sha1ImplName[]) {
    super(message);
    this.requested = requested;
    this.available = available;
  }
}
