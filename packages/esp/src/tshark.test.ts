// An independent peer: Wireshark's ESP dissector (tshark) decrypts and
// authenticates packets sealed by every composition. The packets go into a
// minimal pcap (Ethernet / IPv4 / ESP); the SA is given to tshark through its
// esp_sa UAT. tshark is installed by .ci/run; elsewhere the test is skipped
// with one line saying so, but under CI=true a missing tshark is a failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bytesToHex, seededBytes, tsharkProgram } from '#vectors';
import { createEspSa } from '@layerbench/esp';
import { compositions } from '../test/layer-matrix.js';

const tshark = tsharkProgram();
const dir = mkdtempSync(join(tmpdir(), 'esp-tshark-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ipv4Frame(esp: Uint8Array): Uint8Array {
  const frame = new Uint8Array(14 + 20 + esp.length);
  frame.set([0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00]); // dst MAC, src MAC, IPv4
  const ip = frame.subarray(14, 34);
  const total = 20 + esp.length;
  ip.set([0x45, 0, total >>> 8, total & 0xff, 0, 0, 0, 0, 64, 50, 0, 0, 192, 0, 2, 1, 192, 0, 2, 2]); // protocol 50 = ESP
  let sum = 0;
  for (let i = 0; i < 20; i += 2) sum += (ip[i]! << 8) | ip[i + 1]!;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  ip[10] = (~sum >>> 8) & 0xff;
  ip[11] = ~sum & 0xff;
  frame.set(esp, 34);
  return frame;
}

/** Classic libpcap file, little-endian, LINKTYPE_ETHERNET. */
function pcap(frames: Uint8Array[]): Uint8Array {
  const size = 24 + frames.reduce((n, f) => n + 16 + f.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xa1b2c3d4, true);
  view.setUint16(4, 2, true);
  view.setUint16(6, 4, true);
  view.setUint32(16, 65535, true);
  view.setUint32(20, 1, true);
  let off = 24;
  frames.forEach((f, i) => {
    view.setUint32(off, 1_700_000_000 + i, true);
    view.setUint32(off + 8, f.length, true);
    view.setUint32(off + 12, f.length, true);
    out.set(f, off + 16);
    off += 16 + f.length;
  });
  return out;
}

it.skipIf(tshark.skip)('tshark decrypts and authenticates packets sealed by every composition, AES-128/192/256', () => {
  const TSHARK = tshark.require();
  const random = seededBytes(0x75a);
  const authKey = random(20);
  // One SA per AES key size, told apart by SPI.
  const sas = [16, 24, 32].map((bytes, i) => ({ spi: 0x0badca00 + i, encKey: random(bytes) }));
  const expected: { payload: string; nextHeader: number; good: boolean }[] = [];
  const frames: Uint8Array[] = [];
  for (const c of compositions()) {
    for (const { spi, encKey } of sas) {
      const sa = createEspSa({ spi, encKey, authKey, aes: c.aes, sha1: c.sha1, pipeline: c.pipeline });
      for (const len of [1, 14, 15, 16, 100, 1400]) {
        const payload = random(len);
        frames.push(ipv4Frame(sa.seal(payload, 41)));
        expected.push({ payload: bytesToHex(payload), nextHeader: 41, good: true });
      }
      const corrupted = sa.seal(random(30), 41);
      corrupted[corrupted.length - 1]! ^= 1;
      frames.push(ipv4Frame(corrupted));
      expected.push({ payload: '', nextHeader: 41, good: false });
    }
  }
  const file = join(dir, 'esp.pcap');
  writeFileSync(file, pcap(frames));
  const hex = (b: Uint8Array) => `0x${bytesToHex(b)}`;
  const uat = sas.flatMap(({ spi, encKey }) => [
    '-o',
    `uat:esp_sa:"IPv4","*","*","0x${spi.toString(16)}","AES-CBC [RFC3602]","${hex(encKey)}","HMAC-SHA-1-96 [RFC2404]","${hex(authKey)}"`,
  ]);
  const output = execFileSync(
    TSHARK,
    [
      '-r',
      file,
      '-o',
      'esp.enable_encryption_decode:TRUE',
      '-o',
      'esp.enable_authentication_check:TRUE',
      ...uat,
      // The payload is random bytes: keep Wireshark from dissecting it as the IPv6 its next header names.
      '--disable-protocol',
      'ipv6',
      '-T',
      'fields',
      '-E',
      'separator=|',
      '-E',
      'occurrence=f',
      '-e',
      'esp.icv_good',
      '-e',
      'esp.icv_bad',
      '-e',
      'esp.contained_data',
      '-e',
      'esp.pad_len',
      '-e',
      'esp.protocol',
    ],
    { encoding: 'utf8', env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const rows = output.trim().split('\n');
  if (process.env.ESP_TSHARK_DEBUG) console.log(output);
  expect(rows.length).toBe(expected.length);
  rows.forEach((row, i) => {
    const [good, bad, contained, padLength, nextHeader] = row.split('|');
    const want = expected[i]!;
    if (!want.good) {
      expect([good, bad], `frame ${i + 1}: corrupted ICV must be reported bad`).toEqual(['0', '1']);
      return;
    }
    expect([good, bad], `frame ${i + 1}: ICV`).toEqual(['1', '0']);
    expect(contained, `frame ${i + 1}: decrypted payload`).toBe(want.payload);
    expect(Number(padLength)).toBe((16 - ((want.payload.length / 2 + 2) % 16)) % 16);
    expect(Number(nextHeader)).toBe(want.nextHeader);
  });
});
