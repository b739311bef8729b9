// >= 100,000 random mutations of sealed packets: open() must throw EspError
// (nothing else) for every one of them, and may only ever accept a packet that
// is byte-for-byte a genuine sealed packet it has not opened before.
import { expect, it } from 'vitest';
import { bytesToHex } from '#vectors';
import { createEspSa, EspError } from '@layerbench/esp';
import { compositions } from '../test/layer-matrix.js';

const MUTATIONS = 100_000;

function rng(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

it(`survives ${MUTATIONS} random mutations without accepting a forgery`, () => {
  const r = rng(0x5eed);
  const matrix = compositions();
  const perComposition = Math.ceil(MUTATIONS / matrix.length);
  let mutations = 0;
  let refused = 0;
  for (const c of matrix) {
    const keys = { spi: 0xc0ffee, encKey: new Uint8Array(32).fill(3), authKey: new Uint8Array(20).fill(9) };
    const sender = createEspSa({ ...keys, aes: c.aes, sha1: c.sha1, pipeline: c.pipeline, direction: 'outbound' });
    const receiver = createEspSa({
      ...keys,
      aes: c.aes,
      sha1: c.sha1,
      pipeline: c.pipeline,
      direction: 'inbound',
      replayWindow: 4096,
    });
    const genuine = new Map<string, boolean>(); // hex -> opened already
    const pool: Uint8Array[] = [];
    const fresh = () => {
      const payload = new Uint8Array(r(120));
      for (let i = 0; i < payload.length; i++) payload[i] = r(256);
      const p = sender.seal(payload, r(256));
      genuine.set(bytesToHex(p), false);
      pool.push(p);
      if (pool.length > 64) pool.shift();
      return p;
    };
    for (let i = 0; i < 64; i++) fresh();

    for (let n = 0; n < perComposition; n++) {
      const base = pool[r(pool.length)]!;
      let m: Uint8Array;
      switch (r(8)) {
        case 0: // flip 1-3 bits
          m = base.slice();
          for (let k = 1 + r(3); k > 0; k--) m[r(m.length)]! ^= 1 << r(8);
          break;
        case 1: // overwrite one byte
          m = base.slice();
          m[r(m.length)] = r(256);
          break;
        case 2: // truncate
          m = base.slice(0, r(base.length));
          break;
        case 3: {
          // extend with random bytes
          m = new Uint8Array(base.length + 1 + r(40));
          m.set(base);
          for (let i = base.length; i < m.length; i++) m[i] = r(256);
          break;
        }
        case 4: {
          // overwrite a random range
          m = base.slice();
          const start = r(m.length);
          const end = Math.min(m.length, start + 1 + r(32));
          for (let i = start; i < end; i++) m[i] = r(256);
          break;
        }
        case 5: {
          // splice: the front of one genuine packet, the back of another
          const other = pool[r(pool.length)]!;
          const cut = r(Math.min(base.length, other.length));
          m = new Uint8Array(cut + other.length - cut);
          m.set(base.subarray(0, cut));
          m.set(other.subarray(cut), cut);
          break;
        }
        case 6: {
          // random bytes, with this SA's SPI half the time
          m = new Uint8Array(r(200));
          for (let i = 0; i < m.length; i++) m[i] = r(256);
          if (m.length >= 4 && r(2) === 0) m.set(base.subarray(0, 4));
          break;
        }
        default: // replay a genuine packet as it is
          m = base.slice();
      }
      mutations++;
      let opened: ReturnType<typeof receiver.open>;
      try {
        opened = receiver.open(m);
      } catch (err) {
        if (!(err instanceof EspError)) throw err;
        refused++;
        continue;
      }
      const hex = bytesToHex(m);
      expect(genuine.get(hex), `accepted a packet that is not a fresh genuine one (${c.id})`).toBe(false);
      genuine.set(hex, true);
      expect(opened.seq).toBeGreaterThan(0);
      // Keep genuine traffic flowing so the window moves and the SA is exercised after refusals.
      if (r(4) === 0) fresh();
    }
    // After all that, the receiver still opens the next genuine packet.
    expect(receiver.open(fresh()).seq).toBe(sender.nextSequence - 1);
  }
  expect(mutations).toBeGreaterThanOrEqual(MUTATIONS);
  expect(refused).toBeGreaterThan(MUTATIONS / 2);
});
