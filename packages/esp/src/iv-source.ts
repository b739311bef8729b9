// Where a sealing SA gets its IVs. RFC 3602 section 2.1: a CBC IV must be
// unpredictable, so the default draws from the operating system CSPRNG (the
// generator behind crypto.getRandomValues). Asking the CSPRNG for 16 bytes per
// packet costs as much as encrypting the packet's first blocks, so random
// bytes are drawn 1 KiB at a time and handed out 16 at a time; each byte is
// used once.
import { randomFillSync } from 'node:crypto';

/** Writes a 16-byte IV into `out`. */
export type IvSource = (out: Uint8Array) => void;

const POOL_BYTES = 1024;

export function randomIvSource(): IvSource {
  const pool = new Uint8Array(POOL_BYTES);
  let used = POOL_BYTES;
  return (out) => {
    if (used === POOL_BYTES) {
      randomFillSync(pool);
      used = 0;
    }
    for (let i = 0; i < 16; i++) {
      out[i] = pool[used + i]!;
      pool[used + i] = 0;
    }
    used += 16;
  };
}

/**
 * A deterministic IV source for tests and benchmarks ONLY: IV n is the
 * big-endian counter n (from `start`), so two runs produce identical packets.
 * Predictable IVs break CBC's confidentiality against chosen-plaintext
 * attackers; never use this for real traffic.
 */
export function counterIvSource(start = 0): IvSource {
  let counter = start;
  return (out) => {
    out.fill(0, 0, 12);
    out[12] = counter >>> 24;
    out[13] = counter >>> 16;
    out[14] = counter >>> 8;
    out[15] = counter;
    counter = (counter + 1) >>> 0;
  };
}
