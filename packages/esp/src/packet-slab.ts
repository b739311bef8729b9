// Where sealed packets live. A typed array of more than 64 bytes gets its own
// zero-filled, off-heap backing store, and that allocation (plus the GC
// pressure of its external memory) costs more per 1400-byte packet than all
// of esp's own framing. So, like Node's Buffer pool, sealed packets are carved
// out of 32 KiB slabs: each packet is an exclusive view (byteOffset, length),
// the slab is shared only with other packets sealed by the same SA, and those
// hold nothing but what goes on the wire (ciphertext). Plaintext never comes
// from a slab. A packet keeps its slab alive while referenced; `slice()` it
// for a standalone copy.

export const SLAB_BYTES = 32 * 1024;
/** Larger packets get their own buffer (Node's Buffer pool draws the line at 4 KiB too). */
export const MAX_SLAB_PACKET = 4 * 1024;

export class PacketSlab {
  private slab: ArrayBuffer | undefined;
  private used = SLAB_BYTES;

  /** A zero-filled view of `length` bytes that no other packet overlaps. */
  allocate(length: number): Uint8Array {
    if (length > MAX_SLAB_PACKET) return new Uint8Array(length);
    // Keep every packet 8-byte aligned, so callers may take wider views of it.
    const size = (length + 7) & ~7;
    if (this.slab === undefined || this.used + size > SLAB_BYTES) {
      this.slab = new ArrayBuffer(SLAB_BYTES);
      this.used = 0;
    }
    const packet = new Uint8Array(this.slab, this.used, length);
    this.used += size;
    return packet;
  }
}
