import { expect, it } from 'vitest';
import { MAX_SLAB_PACKET, PacketSlab, SLAB_BYTES } from './packet-slab.js';

it('hands out zero-filled, aligned, non-overlapping views, and standalone buffers for large packets', () => {
  const slab = new PacketSlab();
  const views: Uint8Array[] = [];
  for (let i = 0; i < 100; i++) {
    const v = slab.allocate(1 + ((i * 37) % 1500));
    expect(v.every((b) => b === 0)).toBe(true);
    expect(v.byteOffset % 8).toBe(0);
    v.fill(i + 1);
    views.push(v);
  }
  // Writing every view did not disturb any other.
  for (const [i, v] of views.entries())
    expect(
      v.every((b) => b === i + 1),
      `view ${i}`,
    ).toBe(true);
  expect(views[0]!.buffer.byteLength).toBe(SLAB_BYTES);
  const large = slab.allocate(MAX_SLAB_PACKET + 1);
  expect(large.byteOffset).toBe(0);
  expect(large.buffer.byteLength).toBe(MAX_SLAB_PACKET + 1);
});
