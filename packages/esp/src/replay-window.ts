// The receive-side anti-replay window of RFC 4303 section 3.4.3, kept as a ring
// of 32-bit words in the manner of RFC 6479: advancing the window clears whole
// words instead of shifting a bitmap, so a 1024-packet window costs the same
// per packet as a 64-packet one. 32-bit sequence numbers only (no ESN).

export const DEFAULT_REPLAY_WINDOW = 64;
export const MAX_REPLAY_WINDOW = 65536;

export class ReplayWindow {
  /** Packets older than `highest - size + 1` are refused. */
  readonly size: number;
  private readonly ring: Uint32Array;
  private readonly mask: number;
  /** Highest sequence number accepted so far (0: none yet). */
  private top = 0;

  constructor(size: number = DEFAULT_REPLAY_WINDOW) {
    if (!Number.isInteger(size) || size < 1 || size > MAX_REPLAY_WINDOW) {
      throw new RangeError(
        `replay window must be an integer from 1 to ${MAX_REPLAY_WINDOW} packets, got ${String(size)}`,
      );
    }
    this.size = size;
    // One spare word beyond the window, so the word being entered never holds
    // bits of sequence numbers still inside the window (RFC 6479 section 2).
    let words = 1;
    while (words < Math.ceil(size / 32) + 1) words <<= 1;
    this.ring = new Uint32Array(words);
    this.mask = words - 1;
  }

  /** The highest sequence number accepted so far (0 before the first). */
  get highest(): number {
    return this.top;
  }

  /**
   * Why `seq` would be refused, or undefined when it would be accepted.
   * Reads only: the window changes in `accept`, after every other check passed.
   */
  check(seq: number): string | undefined {
    if (seq === 0) return 'sequence number 0 is never sent (RFC 4303 section 3.3.3)';
    if (seq > this.top) return undefined;
    if (this.top - seq >= this.size) {
      return `sequence number ${seq} is older than the window (highest ${this.top}, window ${this.size})`;
    }
    const bit = (this.ring[(seq >>> 5) & this.mask] >>> (seq & 31)) & 1;
    return bit === 0 ? undefined : `sequence number ${seq} was already received`;
  }

  /** Marks `seq` received, advancing the window when it is the new highest. Call only after `check` passed. */
  accept(seq: number): void {
    if (seq > this.top) {
      const from = this.top >>> 5;
      const to = seq >>> 5;
      const words = this.ring.length;
      if (to - from >= words) {
        this.ring.fill(0);
      } else {
        for (let w = from + 1; w <= to; w++) this.ring[w & this.mask] = 0;
      }
      this.top = seq;
    }
    this.ring[(seq >>> 5) & this.mask] |= 1 << (seq & 31);
  }
}
