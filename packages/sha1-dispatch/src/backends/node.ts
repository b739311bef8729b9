// OpenSSL's SHA-1 through node:crypto (SHA-NI where the CPU has it). It has no
// block function: OpenSSL does not expose its chaining state, so this backend
// serves whole messages and streams only, and clones through Hash#copy().
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { checkBytes } from '../layer-shared.generated.js';
import { checkOutput } from '../sha1-hash.js';
import type { Sha1Hash } from '../types.js';

let works: boolean | undefined;

/** True when node:crypto exists here and serves SHA-1 (tried once). */
export function nodeCryptoWorks(): boolean {
  if (works === undefined) {
    try {
      works = createHash('sha1').update(new Uint8Array(3)).digest('hex') === '29e2dcfbb16f63bb0254df7585a15bb6fb5e927d';
    } catch {
      works = false;
    }
  }
  return works;
}

/**
 * One SHA-1 of a whole message via node:crypto. Without `out` it returns
 * OpenSSL's digest Buffer itself (a Uint8Array subclass): wrapping it in a
 * plain Uint8Array view cost about 7% at 1500 bytes, more than the dispatcher
 * may lose to calling node:crypto directly.
 */
export function nodeSha1(msg: Uint8Array, out?: Uint8Array, offset = 0): Uint8Array {
  const d = createHash('sha1').update(msg).digest();
  if (out === undefined) return d;
  out.set(d, offset);
  return out;
}

/** A streaming SHA-1 over a node:crypto Hash. */
export class NodeSha1 implements Sha1Hash {
  readonly impl = 'node';
  readonly outputLength = 20 as const;
  readonly blockLength = 64 as const;
  private hash: Hash;
  private finished = false;

  constructor(from?: Hash) {
    this.hash = from ?? createHash('sha1');
  }

  update(data: Uint8Array): this {
    checkBytes(data, 'sha1 update: data');
    if (this.finished) throw new Error('sha1: update() after digest(); call reset() first');
    this.hash.update(data);
    return this;
  }

  digestInto(out: Uint8Array, offset = 0): void {
    checkOutput(out, offset, 20);
    if (this.finished) throw new Error('sha1: digest() called twice; call reset() first');
    this.finished = true;
    out.set(this.hash.digest(), offset);
  }

  digest(): Uint8Array {
    const out = new Uint8Array(20);
    this.digestInto(out, 0);
    return out;
  }

  reset(): this {
    this.hash = createHash('sha1');
    this.finished = false;
    return this;
  }

  clone(): NodeSha1 {
    if (this.finished) {
      const copy = new NodeSha1();
      copy.finished = true;
      return copy;
    }
    return new NodeSha1(this.hash.copy());
  }
}
