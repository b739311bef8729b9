// OpenConnect's tests/esptest, reproduced: 1400-byte packets of 0x5a, SPI
// 0x12345678, keys of 0x5a, next header 41, sealed ("Encrypted") and sealed
// then opened ("Encrypted+decrypted") for N seconds (default 5) with the ESP
// layer's default composition. The CLI prints the capability word and the
// dispatch decisions first; the esptest reporter prints true payload Mb/s, or
// esptest's own half-rate figure with --compat.
import type { BenchCase } from '@layerbench/bench-runner';
import type { Layers } from '../layers.js';
import { compositionId, ESP_OPS, ESPTEST, espInstance, expectedDigests, type EspCompositionChoice } from './esp.js';
import type { SuiteDefinition } from './types.js';

/** The esp layer's default composition (what an SA with no options runs). */
function defaultChoice(layers: Layers): EspCompositionChoice {
  const c = layers.esp.defaultComposition();
  return { aes: c.aes, sha1: c.sha1, pipeline: c.pipeline };
}

function esptestCases(layers: Layers, seconds: number): BenchCase[] {
  const choice = defaultChoice(layers);
  const digests = expectedDigests();
  return ESP_OPS.map((op) => ({
    id: `esptest/${op}`,
    layer: 'esp',
    params: {
      algorithm: 'ESP AES-128-CBC HMAC-SHA1-96',
      keyBytes: ESPTEST.encKeyBytes,
      packetBytes: ESPTEST.payloadBytes,
      macBytes: 12,
      op,
      impl: compositionId(choice),
    },
    bytesPerOp: ESPTEST.payloadBytes,
    fixedTimeSeconds: seconds,
    expectedDigest: digests[op],
    setup: () => espInstance(layers, choice, op),
  }));
}

export const esptestSuite: SuiteDefinition = {
  name: 'esptest',
  description:
    "OpenConnect's esptest: seal, and seal+open, 1400-byte ESP packets for N seconds with the default composition",
  defaultFormat: 'esptest',
  cases: (layers, options) => esptestCases(layers, options.esptestSeconds ?? 5),
};
