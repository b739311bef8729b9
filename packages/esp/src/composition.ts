// The default composition of an SA: which aes-core backend, sha1-dispatch
// implementation and pipeline run when the caller names none. Chosen once per
// process from measurements shipped here (not re-measured at start-up: a
// benchmark in a constructor would make every SA slow and its choice noisy),
// skipping what this machine cannot run, and reported like every dispatch
// decision. Re-measure with the command in MEASURED and update the rows.
import type { DispatchDecision } from '@layerbench/aes-core';
import { availableAesBackends, availableSha1Implementations } from './default-layers.js';
import { EnvironmentValueError, ImplementationError } from './layer-shared.generated.js';
import type { PipelineName } from './pipeline.js';

export interface MeasuredComposition {
  aes: string;
  sha1: string;
  pipeline: PipelineName;
  /** Median true payload Mbit/s of 1400-byte packets: seal, and seal then open. */
  encryptMbps: number;
  encryptDecryptMbps: number;
}

export const MEASURED: {
  machine: string;
  date: string;
  command: string;
  /** Fastest first (by seal-then-open throughput, the whole work of a loopback SA). */
  rows: MeasuredComposition[];
} = {
  machine:
    'AMD EPYC, 2 vCPUs shared with other jobs (1-minute load average 0.7-1.1 during the run), Node 20.20.2, OpenSSL 3.0.19',
  date: '2026-11-30',
  command: 'node packages/esp/scripts/targets.mjs 4 20 all (interleaved rounds: load hits every composition alike)',
  rows: [
    { aes: 'node', sha1: 'wasm', pipeline: 'split', encryptMbps: 1934, encryptDecryptMbps: 1082 },
    { aes: 'node', sha1: 'unrolled', pipeline: 'split', encryptMbps: 1790, encryptDecryptMbps: 1000 },
    { aes: 'node', sha1: 'node', pipeline: 'split', encryptMbps: 1735, encryptDecryptMbps: 960 },
    { aes: 'table', sha1: 'wasm', pipeline: 'split', encryptMbps: 1345, encryptDecryptMbps: 658 },
    { aes: 'table', sha1: 'unrolled', pipeline: 'split', encryptMbps: 1264, encryptDecryptMbps: 622 },
    { aes: 'table', sha1: 'node', pipeline: 'split', encryptMbps: 1253, encryptDecryptMbps: 608 },
    { aes: 'ct', sha1: 'wasm', pipeline: 'split', encryptMbps: 904, encryptDecryptMbps: 434 },
    { aes: 'ct', sha1: 'unrolled', pipeline: 'split', encryptMbps: 864, encryptDecryptMbps: 415 },
    { aes: 'table', sha1: 'node', pipeline: 'stitched', encryptMbps: 629, encryptDecryptMbps: 414 },
    { aes: 'ct', sha1: 'node', pipeline: 'split', encryptMbps: 854, encryptDecryptMbps: 406 },
    { aes: 'table', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 575, encryptDecryptMbps: 400 },
    { aes: 'table', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 591, encryptDecryptMbps: 399 },
    { aes: 'node', sha1: 'node', pipeline: 'stitched', encryptMbps: 432, encryptDecryptMbps: 350 },
    { aes: 'node', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 401, encryptDecryptMbps: 342 },
    { aes: 'node', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 395, encryptDecryptMbps: 335 },
    { aes: 'ct', sha1: 'node', pipeline: 'stitched', encryptMbps: 532, encryptDecryptMbps: 321 },
    { aes: 'node', sha1: 'generic', pipeline: 'split', encryptMbps: 600, encryptDecryptMbps: 311 },
    { aes: 'ct', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 494, encryptDecryptMbps: 307 },
    { aes: 'ct', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 483, encryptDecryptMbps: 307 },
    { aes: 'table', sha1: 'generic', pipeline: 'split', encryptMbps: 526, encryptDecryptMbps: 261 },
    { aes: 'ct', sha1: 'generic', pipeline: 'split', encryptMbps: 443, encryptDecryptMbps: 216 },
    { aes: 'table', sha1: 'generic', pipeline: 'stitched', encryptMbps: 363, encryptDecryptMbps: 214 },
    { aes: 'node', sha1: 'generic', pipeline: 'stitched', encryptMbps: 289, encryptDecryptMbps: 203 },
    { aes: 'ct', sha1: 'generic', pipeline: 'stitched', encryptMbps: 329, encryptDecryptMbps: 186 },
    { aes: 'bitsliced', sha1: 'wasm', pipeline: 'split', encryptMbps: 306, encryptDecryptMbps: 140 },
    { aes: 'bitsliced', sha1: 'unrolled', pipeline: 'split', encryptMbps: 303, encryptDecryptMbps: 138 },
    { aes: 'bitsliced', sha1: 'node', pipeline: 'split', encryptMbps: 300, encryptDecryptMbps: 137 },
    { aes: 'bitsliced', sha1: 'node', pipeline: 'stitched', encryptMbps: 259, encryptDecryptMbps: 127 },
    { aes: 'bitsliced', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 250, encryptDecryptMbps: 126 },
    { aes: 'bitsliced', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 246, encryptDecryptMbps: 125 },
    { aes: 'bitsliced', sha1: 'generic', pipeline: 'split', encryptMbps: 228, encryptDecryptMbps: 106 },
    { aes: 'bitsliced', sha1: 'generic', pipeline: 'stitched', encryptMbps: 200, encryptDecryptMbps: 99 },
  ],
};

/**
 * Preference when no measured row can run here, in the order of the measured
 * speed of each layer. AES: native, then table (fastest in-process, not
 * constant-time), then the constant-time backends, ct (WebAssembly SIMD) before
 * bitsliced (pure JavaScript, for where WebAssembly is missing). SHA-1:
 * native, then WebAssembly, then pure TypeScript.
 */
const FALLBACK_AES = ['node', 'table', 'ct', 'bitsliced'];
const FALLBACK_SHA1 = ['node', 'wasm', 'unrolled', 'generic'];

export interface DefaultComposition {
  aes: string;
  sha1: string;
  pipeline: PipelineName;
  reason: string;
}

/** Environment variable that forces the default composition, e.g. `table+wasm/split` (read once, at first use). */
export const ESP_COMPOSITION_ENV = 'LAYERBENCH_ESP_COMPOSITION';

let chosen: DefaultComposition | undefined;

/**
 * Parses a composition `aes+sha1/pipeline` (from LAYERBENCH_ESP_COMPOSITION,
 * or `source` 'impl' for the createEspSa option) and checks that it runs
 * here. Throws (naming what is available) rather than falling back: a silent
 * fallback is how the OpenConnect regression went unnoticed.
 */
export function forcedComposition(
  spec: string,
  aesHere: string[],
  sha1Here: string[],
  source = ESP_COMPOSITION_ENV,
): DefaultComposition {
  // From the environment, the errors name the variable (the CLI reports them as bad input).
  const variable = source.startsWith('LAYERBENCH_') ? source : undefined;
  const asked = variable === undefined ? `${source} '${spec}'` : `${source}=${spec}`;
  const match = /^([\w-]+)\+([\w-]+)\/(split|stitched)$/.exec(spec.trim());
  if (match === null) {
    const message = `${asked}: expected <aes backend>+<sha1 implementation>/<split|stitched>, e.g. table+wasm/split`;
    throw variable === undefined ? new RangeError(message) : new EnvironmentValueError(message, variable, spec);
  }
  const [, aes, sha1, pipeline] = match as unknown as [string, string, string, PipelineName];
  for (const [requested, here, what] of [
    [aes, aesHere, 'aes backend'],
    [sha1, sha1Here, 'sha1 implementation'],
  ] as const) {
    if (!here.includes(requested)) {
      throw new ImplementationError(
        `${asked}: ${what} '${requested}' is not available here; available: ${here.join(', ') || '(none)'}`,
        { unknown: false, layer: 'esp', requested: spec, available: here, variable },
      );
    }
  }
  return {
    aes,
    sha1,
    pipeline,
    reason: variable === undefined ? `chosen by the caller (${source} ${spec})` : `forced by ${source}=${spec}`,
  };
}

/**
 * The first measured row whose aes backend and sha1 implementation both run
 * here; failing that, the fixed preference. Pure, so it is tested directly.
 */
export function pickComposition(measured: typeof MEASURED, aesHere: string[], sha1Here: string[]): DefaultComposition {
  const row = measured.rows.find((r) => aesHere.includes(r.aes) && sha1Here.includes(r.sha1));
  if (row !== undefined) {
    const rank = measured.rows.indexOf(row) + 1;
    return {
      aes: row.aes,
      sha1: row.sha1,
      pipeline: row.pipeline,
      reason:
        `fastest composition in the measurements shipped with @layerbench/esp (not this run): ${row.encryptMbps} Mb/s seal, ${row.encryptDecryptMbps} Mb/s seal+open ` +
        `of 1400-byte packets (rank ${rank} of ${measured.rows.length}, measured ${measured.date} on ${measured.machine})`,
    };
  }
  const aes = FALLBACK_AES.find((n) => aesHere.includes(n)) ?? aesHere[0];
  const sha1 = FALLBACK_SHA1.find((n) => sha1Here.includes(n)) ?? sha1Here[0];
  if (aes === undefined || sha1 === undefined) {
    throw new ImplementationError(
      `no usable layers: aes backends [${aesHere.join(', ')}], sha1 implementations [${sha1Here.join(', ')}]`,
      { unknown: false, layer: 'esp', requested: '(default composition)', available: [] },
    );
  }
  return {
    aes,
    sha1,
    pipeline: 'split',
    reason: `no measured composition runs here: fixed preference aes ${FALLBACK_AES.join(' > ')}, sha1 ${FALLBACK_SHA1.join(' > ')}`,
  };
}

/**
 * The composition used for options left open, chosen once per process:
 * LAYERBENCH_ESP_COMPOSITION when set, else the fastest measured one that runs here.
 */
export function defaultComposition(): DefaultComposition {
  if (chosen === undefined) {
    const forced = typeof process === 'undefined' ? undefined : process.env[ESP_COMPOSITION_ENV];
    chosen =
      forced !== undefined && forced !== ''
        ? forcedComposition(forced, availableAesBackends(), availableSha1Implementations())
        : pickComposition(MEASURED, availableAesBackends(), availableSha1Implementations());
  }
  return chosen;
}

/**
 * Forgets the remembered default so the next SA reads LAYERBENCH_ESP_COMPOSITION
 * again (tests, long-lived tools). Every layer with a dispatcher has a
 * resetDispatch() of this name.
 */
export function resetDispatch(): void {
  chosen = undefined;
}

/** @deprecated since 0.2: the same as resetDispatch(), the name every layer uses. */
export const resetEspDispatch: () => void = resetDispatch;

/** The default composition as dispatch decisions, for the capability/dispatch lines the CLI prints first. */
export function describeDispatch(): DispatchDecision[] {
  const c = defaultComposition();
  return [
    { layer: 'esp', decision: 'default composition', impl: `${c.aes}+${c.sha1}/${c.pipeline}`, reason: c.reason },
  ];
}
