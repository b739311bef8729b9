// What every layer (aes-core, cmac, sha1-dispatch, esp) does the same way at
// its API boundary: how it checks a byte argument, how it compares a secret
// tag, how it reads the option naming an implementation, and the typed errors
// it throws for an implementation it cannot run, a LAYERBENCH_* value it
// cannot use, and an object used after destroy().
//
// One source, copied into each layer as src/layer-shared.generated.ts by
// scripts/copy-layer-shared.mjs (a test in each layer checks its copy is
// current and runs layer-shared.tests.ts against it). Copied rather than
// imported from a package of its own: `layerbench bisect` swaps one layer at
// a time between versions, and a runtime dependency shared by the layers
// would be one more package to swap, whose version one layer could not
// change without changing it for the others. A copy makes each layer whole.
//
// Because each layer has its own copy, `instanceof` these classes only
// matches errors from the same layer: recognise them across layers (and
// across versions of a layer) by `code`, which never changes.

/** What a wrong argument is, for an error message: 'null', a class name or a typeof. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'object';
}

/**
 * A Uint8Array, Buffer included, also one made in another realm (a vm
 * context, an iframe), whose class is not this realm's Uint8Array.
 */
export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || (ArrayBuffer.isView(value) && describeValue(value) === 'Uint8Array');
}

/** Throws `TypeError: <what> must be a Uint8Array, got <what it was>` unless `value` is one. */
export function checkBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!isBytes(value)) throw new TypeError(`${what} must be a Uint8Array, got ${describeValue(value)}`);
}

/**
 * True when `a` and `b` hold the same bytes, in time that depends only on
 * their lengths: every byte difference is ORed in, with no early exit that
 * would tell an attacker how many leading bytes of a forged tag were right.
 * Lengths are public: arrays of different lengths are simply not equal.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < n; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * The implementation named by a layer's options: `impl`, or `backend`, the
 * name aes-core and cmac used before 0.2 (still read as a deprecated alias:
 * a caller, or a layer of another version mixed in by a bisection, must not
 * silently get the default). Both naming different implementations is a
 * TypeError; `caller` names the function in its message.
 */
export function implOption(
  options: { readonly impl?: string | undefined; readonly backend?: string | undefined },
  caller: string,
): string | undefined {
  const { impl, backend } = options;
  if (backend === undefined || backend === impl) return impl;
  if (impl === undefined) return backend;
  throw new TypeError(
    `${caller} options: impl '${String(impl)}' and backend '${String(backend)}' (its deprecated alias) name different backends; give impl only`,
  );
}

/** The `code` of each error class below; stable across versions. */
export type LayerErrorCode =
  | 'ERR_LAYERBENCH_UNKNOWN_IMPL'
  | 'ERR_LAYERBENCH_IMPL_UNAVAILABLE'
  | 'ERR_LAYERBENCH_BAD_ENV_VALUE'
  | 'ERR_LAYERBENCH_DESTROYED';

/**
 * An implementation was asked for (by an option or a LAYERBENCH_* variable)
 * that does not exist or cannot run here. Layers throw it instead of falling
 * back: a silent fallback is how the OpenConnect SHA-1 regression went
 * unnoticed.
 */
export class ImplementationError extends Error {
  readonly code: 'ERR_LAYERBENCH_UNKNOWN_IMPL' | 'ERR_LAYERBENCH_IMPL_UNAVAILABLE';
  /** The layer that refused: 'aes-core', 'sha1-dispatch', 'esp', ... */
  readonly layer: string;
  /** The name asked for. */
  readonly requested: string;
  /** What this layer can run here instead. */
  readonly available: string[];
  /** The environment variable that asked for it, when one did (the CLI reports these as bad input). */
  readonly variable: string | undefined;

  constructor(
    message: string,
    details: {
      unknown: boolean;
      layer: string;
      requested: string;
      available: readonly string[];
      variable?: string | undefined;
    },
  ) {
    super(message);
    this.name = 'ImplementationError';
    this.code = details.unknown ? 'ERR_LAYERBENCH_UNKNOWN_IMPL' : 'ERR_LAYERBENCH_IMPL_UNAVAILABLE';
    this.layer = details.layer;
    this.requested = details.requested;
    this.available = [...details.available];
    this.variable = details.variable;
  }
}

/** A LAYERBENCH_* variable holds a value the layer cannot parse (a RangeError, as before this class existed). */
export class EnvironmentValueError extends RangeError {
  readonly code = 'ERR_LAYERBENCH_BAD_ENV_VALUE' as const;
  /** The variable, e.g. 'LAYERBENCH_CAPS'. */
  readonly variable: string;
  /** Its value as read. */
  readonly value: string;

  constructor(message: string, variable: string, value: string) {
    super(message);
    this.name = 'EnvironmentValueError';
    this.variable = variable;
    this.value = value;
  }
}

/** A keyed object was used after destroy(): its keys are gone. */
export class DestroyedError extends Error {
  readonly code = 'ERR_LAYERBENCH_DESTROYED' as const;

  constructor(message: string) {
    super(message);
    this.name = 'DestroyedError';
  }
}
