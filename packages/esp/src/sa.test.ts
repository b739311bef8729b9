import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, loadVectors, seededBytes } from '#vectors';
import {
  createEspSa,
  EspError,
  counterIvSource,
  defaultComposition,
  describeDispatch,
  type EspSa,
  type EspSaOptions,
} from '@layerbench/esp';
import { nodeDoubleAes, nodeDoubleHmac } from '../test/layer-doubles.js';
import { compositions, type Composition } from '../test/layer-matrix.js';
import { icvOf, paddedPlaintext, referenceSeal } from '../test/reference-esp.js';

interface Rfc3602Case {
  case: number;
  key: string;
  spi: number;
  seq: number;
  iv: string;
  nextHeader: number;
  padLength: number;
  payload: string;
  packet: string;
}
const rfc3602 = loadVectors<{ tests: Rfc3602Case[] }>('esp-rfc3602.json').tests;

const AUTH_KEY = hexToBytes('0102030405060708090a0b0c0d0e0f1011121314');
const ENC_KEY = hexToBytes('000102030405060708090a0b0c0d0e0f');
const SPI = 0x12345678;
const matrix = compositions();

function fixedIv(hex: string): (out: Uint8Array) => void {
  const iv = hexToBytes(hex);
  return (out) => out.set(iv);
}

function sa(c: Composition, extra: Partial<EspSaOptions> = {}): EspSa {
  return createEspSa({
    spi: SPI,
    encKey: ENC_KEY,
    authKey: AUTH_KEY,
    aes: c.aes,
    sha1: c.sha1,
    pipeline: c.pipeline,
    iv: counterIvSource(7),
    ...extra,
  });
}

function expectEspError(fn: () => unknown, code: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, `expected EspError ${code}`).toBeInstanceOf(EspError);
  expect((thrown as EspError).code).toBe(code);
}

describe.each(matrix)('composition $id', (c) => {
  it.each(rfc3602)('RFC 3602 case $case: ciphertext bytes with the given IV, ICV by node:crypto, opens', (v) => {
    const key = hexToBytes(v.key);
    const s = createEspSa({
      spi: v.spi,
      encKey: key,
      authKey: AUTH_KEY,
      aes: c.aes,
      sha1: c.sha1,
      pipeline: c.pipeline,
      iv: fixedIv(v.iv),
      nextSequence: v.seq,
    });
    const packet = s.seal(hexToBytes(v.payload), v.nextHeader);
    const rfcPacket = hexToBytes(v.packet);
    expect(bytesToHex(packet.subarray(0, packet.length - 12))).toBe(v.packet);
    expect(bytesToHex(packet.subarray(packet.length - 12))).toBe(bytesToHex(icvOf(AUTH_KEY, rfcPacket)));
    const opened = s.open(packet);
    expect(bytesToHex(opened.payload)).toBe(v.payload);
    expect(opened.nextHeader).toBe(v.nextHeader);
    expect(opened.seq).toBe(v.seq);
  });

  it('round-trips every payload length 0..130 and 1400 with 128/192/256-bit keys, matching a node:crypto reference', () => {
    const random = seededBytes(0xe5b);
    for (const keyBytes of [16, 24, 32]) {
      const encKey = random(keyBytes);
      const authKey = random(20);
      const s = createEspSa({
        spi: 0x1000,
        encKey,
        authKey,
        aes: c.aes,
        sha1: c.sha1,
        pipeline: c.pipeline,
        iv: counterIvSource(1),
      });
      const ivs = counterIvSource(1);
      const lengths = [...Array.from({ length: 131 }, (_, i) => i), 1400];
      for (const [n, len] of lengths.entries()) {
        const payload = random(len);
        const nextHeader = (len * 7) & 0xff;
        const packet = s.seal(payload, nextHeader);
        const iv = new Uint8Array(16);
        ivs(iv);
        const expected = referenceSeal({
          spi: 0x1000,
          seq: n + 1,
          iv,
          encKey,
          authKey,
          plaintext: paddedPlaintext(payload, nextHeader),
        });
        expect(bytesToHex(packet), `length ${len}, key ${keyBytes}`).toBe(bytesToHex(expected));
        const opened = s.open(packet);
        expect(bytesToHex(opened.payload)).toBe(bytesToHex(payload));
        expect(opened.nextHeader).toBe(nextHeader);
        expect(opened.seq).toBe(n + 1);
      }
    }
  });

  it('refuses every single-bit flip; the SA still opens the next valid packet', () => {
    const s = sa(c);
    const packet = s.seal(seededBytes(1)(40), 17); // 8 + 16 + 48 + 12 = 84 bytes
    for (let bit = 0; bit < packet.length * 8; bit++) {
      const flipped = packet.slice();
      flipped[bit >>> 3]! ^= 0x80 >>> (bit & 7);
      expectEspError(() => s.open(flipped), bit < 32 ? 'spi' : 'auth');
    }
    expect(s.open(packet).seq).toBe(1);
    const next = s.seal(new Uint8Array(3), 4);
    expect(s.open(next).seq).toBe(2);
  });

  it('refuses every truncation and every block-misaligned extension', () => {
    const s = sa(c);
    const packet = s.seal(seededBytes(2)(50), 6);
    for (let len = 0; len < packet.length; len++) {
      const cut = packet.slice(0, len);
      const misaligned = len < 52 || (len - 36) % 16 !== 0;
      expectEspError(() => s.open(cut), misaligned ? 'length' : 'auth');
    }
    for (let extra = 1; extra <= 32; extra++) {
      const longer = new Uint8Array(packet.length + extra);
      longer.set(packet);
      expectEspError(() => s.open(longer), extra % 16 === 0 ? 'auth' : 'length');
    }
    expect(s.open(packet).payload.length).toBe(50);
  });

  it('refuses a wrong SPI before looking at the ICV', () => {
    const s = sa(c);
    const other = createEspSa({
      spi: SPI + 1,
      encKey: ENC_KEY,
      authKey: AUTH_KEY,
      aes: c.aes,
      sha1: c.sha1,
      pipeline: c.pipeline,
    });
    expectEspError(() => s.open(other.seal(new Uint8Array(10), 4)), 'spi');
    expect(s.open(s.seal(new Uint8Array(10), 4)).seq).toBe(1);
  });

  it('refuses a replayed packet and one older than the window; accepts the oldest in the window once', () => {
    const s = sa(c);
    const packets = Array.from({ length: 100 }, (_, i) => s.seal(new Uint8Array([i]), 59));
    expect(s.open(packets[0]!).seq).toBe(1);
    expectEspError(() => s.open(packets[0]!), 'replay');
    expect(s.open(packets[99]!).seq).toBe(100);
    expectEspError(() => s.open(packets[35]!), 'replay'); // seq 36: 100 - 36 = 64, outside a 64-packet window
    expect(s.open(packets[36]!).seq).toBe(37); // seq 37: the oldest still inside
    expectEspError(() => s.open(packets[36]!), 'replay');
    expectEspError(() => s.open(packets[99]!), 'replay');
    expect(s.highestReceived).toBe(100);
  });

  it('accepts reordered packets inside the window exactly once (window 1024)', () => {
    const s = sa(c, { replayWindow: 1024 });
    const packets = Array.from({ length: 600 }, (_, i) => s.seal(new Uint8Array([i & 0xff, i >> 8]), 41));
    const order = packets.map((_, i) => i);
    const random = seededBytes(99);
    for (let i = order.length - 1; i > 0; i--) {
      const r = random(2);
      const j = ((r[0]! << 8) | r[1]!) % (i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const seen = new Set<number>();
    for (const i of order) {
      const opened = s.open(packets[i]!);
      expect(opened.seq).toBe(i + 1);
      seen.add(opened.seq);
      expectEspError(() => s.open(packets[i]!), 'replay');
    }
    expect(seen.size).toBe(600);
  });

  it('refuses bad padding under a valid ICV without touching the window', () => {
    const s = sa(c);
    const iv = hexToBytes('00112233445566778899aabbccddeeff');
    const build = (plaintext: Uint8Array, seq: number) =>
      referenceSeal({ spi: SPI, seq, iv, encKey: ENC_KEY, authKey: AUTH_KEY, plaintext });
    const good = paddedPlaintext(new Uint8Array(9), 4); // pad length 5: 01 02 03 04 05
    const badByte = good.slice();
    badByte[11] = 0x09;
    const tooLong = good.slice();
    tooLong[14] = 15; // 15 bytes of padding + 2 > 16
    const zeroPadding = good.slice();
    zeroPadding.fill(0, 9, 14);
    for (const bad of [badByte, tooLong, zeroPadding]) {
      expectEspError(() => s.open(build(bad, 5)), 'padding');
      expect(s.highestReceived).toBe(0);
    }
    // The same sequence number with good padding is still fresh.
    const opened = s.open(build(good, 5));
    expect(opened.seq).toBe(5);
    expect(opened.payload.length).toBe(9);
  });

  it('refuses to wrap the sequence number and leaves the SA as it was', () => {
    const s = sa(c, { nextSequence: 0xfffffffe });
    expect(s.open(s.seal(new Uint8Array(1), 4)).seq).toBe(0xfffffffe);
    expect(s.open(s.seal(new Uint8Array(1), 4)).seq).toBe(0xffffffff);
    expectEspError(() => s.seal(new Uint8Array(1), 4), 'sequence');
    expectEspError(() => s.seal(new Uint8Array(1), 4), 'sequence');
    expect(s.nextSequence).toBe(0x100000000);
  });
});

describe('packets are byte-identical across every composition for the same IV', () => {
  it('for payload lengths 0..80 and 1400', () => {
    const random = seededBytes(0xabc);
    const payloads = [...Array.from({ length: 81 }, (_, i) => random(i)), random(1400)];
    const reference = matrix.map((c) => sa(c));
    const first = reference[0]!;
    for (const payload of payloads) {
      const want = bytesToHex(first.seal(payload, 41));
      for (const [i, s] of reference.entries()) {
        if (i === 0) continue;
        expect(bytesToHex(s.seal(payload, 41)), matrix[i]!.id).toBe(want);
      }
    }
  });

  it('a packet sealed by one composition opens with every other', () => {
    for (const from of matrix) {
      const packet = sa(from).seal(new Uint8Array(333).fill(7), 6);
      for (const to of matrix) expect(bytesToHex(sa(to).open(packet).payload)).toBe('07'.repeat(333));
    }
  });
});

describe('options', () => {
  const c = matrix[0]!;
  const base = {
    spi: SPI,
    encKey: ENC_KEY,
    authKey: AUTH_KEY,
    aes: c.aes,
    sha1: c.sha1,
    pipeline: c.pipeline,
  } as const;
  it('rejects bad keys, SPIs, windows, pipelines and next headers with typed errors', () => {
    expect(() => createEspSa({ ...base, encKey: new Uint8Array(20) })).toThrow(
      /encKey \(AES key\) must be 16, 24 or 32 bytes, got 20/,
    );
    expect(() => createEspSa({ ...base, authKey: new Uint8Array(16) })).toThrow(
      /must be 20 bytes \(RFC 2404\), got 16/,
    );
    expect(() => createEspSa({ ...base, authKey: 'k' as unknown as Uint8Array })).toThrow(TypeError);
    for (const spi of [0, 255, -1, 2 ** 32, 1.5]) expect(() => createEspSa({ ...base, spi })).toThrow(RangeError);
    for (const w of [0, -64, 1.5, 65537, Number.NaN])
      expect(() => createEspSa({ ...base, replayWindow: w })).toThrow(RangeError);
    for (const w of [1, 32, 64, 1024, 65536]) expect(createEspSa({ ...base, replayWindow: w }).replayWindow).toBe(w);
    expect(() => createEspSa({ ...base, pipeline: 'fused' as 'split' })).toThrow(/pipeline must be/);
    expect(() => createEspSa({ ...base, pipeline: 'toString' as 'split' })).toThrow(/pipeline must be/);
    expect(() => createEspSa({ ...base, aes: 128 as unknown as string })).toThrow(
      /aes must be a backend name or a factory function, got number/,
    );
    expect(() => createEspSa({ ...base, sha1: null as unknown as string })).toThrow(
      /sha1 must be a backend name or a factory function, got null/,
    );
    const shortTags = (key: Uint8Array) => nodeDoubleHmac(key, { tagLength: 10 });
    expect(() => createEspSa({ ...base, sha1: shortTags })).toThrow(/HMAC tags of 10 bytes/);
    // A sha1 layer that ignores the requested truncation still yields HMAC-SHA1-96 packets.
    const fullTags = createEspSa({ ...base, sha1: (key: Uint8Array) => nodeDoubleHmac(key), iv: counterIvSource(3) });
    const truncated = createEspSa({ ...base, iv: counterIvSource(3) });
    const p = fullTags.seal(new Uint8Array(33), 6);
    expect(bytesToHex(p)).toBe(bytesToHex(truncated.seal(new Uint8Array(33), 6)));
    expect(fullTags.open(p).payload.length).toBe(33);
    const s = createEspSa(base);
    expect(() => s.seal(new Uint8Array(1), 256)).toThrow(RangeError);
    expect(() => s.seal([1, 2] as unknown as Uint8Array, 4)).toThrow(TypeError);
    expect(() => s.open('x' as unknown as Uint8Array)).toThrow(TypeError);
  });

  it('enforces the direction and refuses use after destroy', () => {
    const out = createEspSa({ ...base, direction: 'outbound' });
    const inbound = createEspSa({ ...base, direction: 'inbound' });
    const packet = out.seal(new Uint8Array(5), 4);
    expectEspError(() => out.open(packet), 'direction');
    expectEspError(() => inbound.seal(new Uint8Array(5), 4), 'direction');
    expect(inbound.open(packet).seq).toBe(1);
    inbound.destroy();
    expect(() => inbound.open(packet)).toThrow(/destroyed/);
    expect(() => inbound.open(packet)).toThrow(
      expect.objectContaining({ name: 'DestroyedError', code: 'ERR_LAYERBENCH_DESTROYED' }),
    );
  });

  it('reports its composition and why', () => {
    const named = createEspSa({ ...base, aes: 'table', sha1: 'unrolled', pipeline: 'stitched' });
    expect(named.composition).toMatchObject({
      aes: { name: 'table', native: false },
      sha1: 'unrolled',
      pipeline: 'stitched',
      id: 'table+unrolled/stitched',
      reason: 'chosen by the caller',
    });
    const injected = createEspSa({ ...base, aes: nodeDoubleAes, sha1: nodeDoubleHmac, pipeline: 'split' });
    expect(injected.composition.id).toBe('node-double+node-double/split');
    expect(injected.composition.reason).toMatch(/chosen by the caller; injected layer factory/);
    expect(injected.describeDispatch()[0]).toMatchObject({
      layer: 'esp',
      decision: 'composition',
      impl: injected.composition.id,
    });
    const defaulted = createEspSa({ spi: SPI, encKey: ENC_KEY, authKey: AUTH_KEY });
    const best = defaultComposition();
    expect(defaulted.composition.id).toBe(`${best.aes}+${best.sha1}/${best.pipeline}`);
    expect(defaulted.composition.reason).toBe(best.reason);
    const partly = createEspSa({ spi: SPI, encKey: ENC_KEY, authKey: AUTH_KEY, pipeline: 'stitched' });
    expect(partly.composition.reason).toMatch(/^aes, sha1 from the default composition/);
    expect(describeDispatch()[0]).toMatchObject({
      layer: 'esp',
      decision: 'default composition',
      impl: defaulted.composition.id,
    });
  });

  it('refuses unknown backend names loudly', () => {
    expect(() => createEspSa({ ...base, aes: 'quantum' })).toThrow(/quantum/);
    expect(() => createEspSa({ ...base, sha1: 'quantum' })).toThrow(/quantum/);
  });

  it('draws a fresh random IV per packet by default', () => {
    const s = createEspSa({
      spi: SPI,
      encKey: ENC_KEY,
      authKey: AUTH_KEY,
      aes: c.aes,
      sha1: c.sha1,
      pipeline: c.pipeline,
    });
    const ivs = new Set<string>();
    for (let i = 0; i < 200; i++) ivs.add(bytesToHex(s.seal(new Uint8Array(0), 59).subarray(8, 24)));
    expect(ivs.size).toBe(200);
  });
});
