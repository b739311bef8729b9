import { describe, expect, it } from 'vitest';
import { seededBytes } from '#vectors';
import { ReplayWindow } from '@layerbench/esp';

/** The obvious model: a set of everything accepted, and the highest. */
class ModelWindow {
  private readonly seen = new Set<number>();
  private top = 0;
  constructor(private readonly size: number) {}
  accepts(seq: number): boolean {
    if (seq === 0) return false;
    if (seq > this.top) return true;
    return this.top - seq < this.size && !this.seen.has(seq);
  }
  accept(seq: number): void {
    this.seen.add(seq);
    if (seq > this.top) this.top = seq;
  }
}

describe('ReplayWindow', () => {
  it.each([1, 31, 32, 33, 64, 100, 1024, 4096])(
    'agrees with a set-based model over random traffic (window %i)',
    (size) => {
      const random = seededBytes(size);
      const window = new ReplayWindow(size);
      const model = new ModelWindow(size);
      let base = 1;
      for (let i = 0; i < 20000; i++) {
        const r = random(4);
        const u = ((r[0]! << 16) | (r[1]! << 8) | r[2]!) >>> 0;
        // Mostly near the front of the window, sometimes far ahead or far behind.
        let seq: number;
        if (r[3]! < 200) seq = Math.max(0, base + (u % (2 * size + 8)) - size - 4);
        else if (r[3]! < 230) seq = base + (u % (size * 3 + 100));
        else seq = u % (base + 1);
        const want = model.accepts(seq);
        expect(window.check(seq) === undefined, `seq ${seq} (step ${i})`).toBe(want);
        if (want) {
          window.accept(seq);
          model.accept(seq);
          base = Math.max(base, seq);
        }
      }
    },
  );

  it('handles the top of the 32-bit sequence space', () => {
    const window = new ReplayWindow(64);
    for (const seq of [0xffffff00, 0xffffffff, 0xfffffffe, 0xffffffc0]) {
      expect(window.check(seq)).toBeUndefined();
      window.accept(seq);
    }
    expect(window.check(0xffffffff)).toMatch(/already received/);
    expect(window.check(0xffffffbf)).toMatch(/older than the window/);
    expect(window.highest).toBe(0xffffffff);
  });

  it('refuses sequence number 0 and silly sizes', () => {
    expect(new ReplayWindow().check(0)).toMatch(/never sent/);
    for (const size of [0, -1, 2.5, 65537, Infinity, Number.NaN])
      expect(() => new ReplayWindow(size)).toThrow(RangeError);
  });
});
