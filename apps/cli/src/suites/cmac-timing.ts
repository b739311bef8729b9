// cmac-timing: the NTPsec "CMAC timings" report reproduced. Same inputs
// (key[i] = (i*i + 0x23) & 0xff, packet[i] = (i*i + 0x31) & 0xff), AES-128/192/256
// from the first 16/24/32 key bytes, packet lengths 48 (and 96, 4096 as NTPsec
// later added), 16-byte CMAC; one section per access pattern and backend,
// printed in the report's format (`--format ntpsec` is the default).
import type { BenchCase } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';
import {
  KEY_SIZES,
  NATIVE_IMPL,
  SEED_TAGS,
  accessPatternInstance,
  availableAesBackends,
  cmacMemCases,
  seedKey,
  seedPacket,
} from './cmac.js';
import type { CmacPattern } from './cmac.js';
import type { SuiteDefinition } from './types.js';

const PACKET_LENGTHS = [48, 96, 4096] as const;
const MAC_BYTES = 16;

/** Short backend names keep section headings within the 12 columns of the report's header. */
const shortBackend = (backend: string): string => (backend === 'table' ? 'tbl' : backend.slice(0, 4));

/** The report's section heading of one access pattern over one backend. */
function sectionName(pattern: CmacPattern, backend: string): string {
  if (pattern === 'native') return 'native';
  const label = pattern === 'preloaded' ? 'preload' : pattern;
  return `${label}/${shortBackend(backend)}`;
}

function timingCases(layers: Layers): BenchCase[] {
  const rows: { pattern: CmacPattern; backend: string }[] = [];
  const backends = availableAesBackends(layers);
  for (const pattern of ['oneshot', 'preloaded', 'dup'] as const) {
    for (const backend of backends) rows.push({ pattern, backend });
  }
  rows.push({ pattern: 'native', backend: NATIVE_IMPL });

  const cases: BenchCase[] = [];
  for (const [row, { pattern, backend }] of rows.entries()) {
    const section = sectionName(pattern, backend);
    // The seed's own words above its preloaded rows, printed before the first preload section.
    const firstPreload = pattern === 'preloaded' && rows.findIndex((r) => r.pattern === 'preloaded') === row;
    for (const packetBytes of PACKET_LENGTHS) {
      const msg = seedPacket(packetBytes);
      for (const keyBytes of KEY_SIZES) {
        const key = seedKey(keyBytes);
        cases.push({
          id: `cmac-timing/aes-${keyBytes * 8}/pl=${packetBytes}/${pattern}/${backend}`,
          layer: 'cmac',
          params: {
            algorithm: `AES-${keyBytes * 8}`,
            keyBytes,
            packetBytes,
            macBytes: MAC_BYTES,
            impl: backend,
            pattern,
            section,
            ...(firstPreload ? { sectionNote: 'Preload cipher and key.' } : {}),
          },
          bytesPerOp: packetBytes,
          expectedDigest: SEED_TAGS[`${packetBytes}/${keyBytes}`]!,
          setup: () => accessPatternInstance(layers, pattern, backend, key, msg),
        });
      }
    }
  }
  return cases;
}

export const cmacTimingSuite: SuiteDefinition = {
  name: 'cmac-timing',
  description:
    'the NTPsec CMAC timings table: seed inputs, AES-128/192/256, PL 48/96/4096, one section per access pattern and backend',
  defaultFormat: 'ntpsec',
  cases: (layers) => timingCases(layers),
  memCases: (layers) => cmacMemCases(layers),
};
