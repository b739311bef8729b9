// Where table-backend key schedules live: Int32Array views carved out of a
// shared, module-level ArrayBuffer ("slab") instead of one new Int32Array
// per schedule. A typed array of 44+ words gets its own off-heap backing
// store in V8, which cost ~490 ns per createAes (more than the whole CMAC of
// a packet); a view on an existing buffer needs no new backing store (~70 ns).
//
// Bump allocation only: a carved range is never handed out again, so a new
// view always starts as zeros and a destroyed (zeroed) schedule stays zero.
// When the slab is full a new one is started; an old slab is freed by the GC
// once no cipher views it. The price: one live cipher keeps its whole slab
// (SLAB_BYTES) alive.

/** 16 KiB: 93 AES-128 or 68 AES-256 encryption schedules per slab. */
export const SLAB_BYTES = 16384;

let slab: ArrayBuffer | undefined;
let usedBytes = 0;

/**
 * A zero-filled Int32Array of `words` words (at most SLAB_BYTES / 4) in the
 * current slab. Offsets stay multiples of 4 bytes because every carve is a
 * whole number of 4-byte words.
 */
export function carveScheduleWords(words: number): Int32Array {
  const bytes = words * 4;
  if (slab === undefined || usedBytes + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    usedBytes = 0;
  }
  const view = new Int32Array(slab, usedBytes, words);
  usedBytes += bytes;
  return view;
}

/**
 * Whether this host stores words little-endian (all but s390x): then the
 * schedule words and little-endian byte data can be moved through
 * Int32Array views instead of byte by byte.
 */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
