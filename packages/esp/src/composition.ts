// The default composition of an SA: which aes-core backend, sha1-dispatch
// implementation and pipeline run when the caller names none. Chosen once per
// process from measurements shipped here (not re-measured at start-up: a
// benchmark in a constructor would make every SA slow and its choice noisy),
// skipping what this machine cannot run, and reported like every dispatch
// decision. Re-measure with the command in MEASURED and update the rows.
import type { DispatchDecision } from '@layerbench/aes-core';
import { availableAesBackends, availableSha1Implementations } from './default-layers.js';
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
  machine: 'AMD EPYC, 2 vCPUs shared with other jobs (1-minute load average 0.7-3.0 during the run), Node 20.20.2, OpenSSL 3.0.19',
  date: '2026-11-30',
  command: 'node packages/esp/scripts/targets.mjs 4 20 all (interleaved rounds: load hits every composition alike)',
  rows: [
    { aes: 'node', sha1: 'wasm', pipeline: 'split', encryptMbps: 1821, encryptDecryptMbps: 1083 },
    { aes: 'node', sha1: 'unrolled', pipeline: 'split', encryptMbps: 1752, encryptDecryptMbps: 967 },
    { aes: 'node', sha1: 'node', pipeline: 'split', encryptMbps: 1738, encryptDecryptMbps: 919 },
    { aes: 'table', sha1: 'wasm', pipeline: 'split', encryptMbps: 1304, encryptDecryptMbps: 614 },
    { aes: 'table', sha1: 'unrolled', pipeline: 'split', encryptMbps: 1214, encryptDecryptMbps: 605 },
    { aes: 'table', sha1: 'node', pipeline: 'split', encryptMbps: 1192, encryptDecryptMbps: 573 },
    { aes: 'table', sha1: 'node', pipeline: 'stitched', encryptMbps: 621, encryptDecryptMbps: 407 },
    { aes: 'table', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 510, encryptDecryptMbps: 373 },
    { aes: 'table', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 570, encryptDecryptMbps: 367 },
    { aes: 'node', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 384, encryptDecryptMbps: 327 },
    { aes: 'node', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 370, encryptDecryptMbps: 326 },
    { aes: 'node', sha1: 'node', pipeline: 'stitched', encryptMbps: 431, encryptDecryptMbps: 306 },
    { aes: 'node', sha1: 'generic', pipeline: 'split', encryptMbps: 589, encryptDecryptMbps: 304 },
    { aes: 'table', sha1: 'generic', pipeline: 'split', encryptMbps: 497, encryptDecryptMbps: 256 },
    { aes: 'table', sha1: 'generic', pipeline: 'stitched', encryptMbps: 351, encryptDecryptMbps: 207 },
    { aes: 'node', sha1: 'generic', pipeline: 'stitched', encryptMbps: 279, encryptDecryptMbps: 195 },
    { aes: 'ct', sha1: 'node', pipeline: 'split', encryptMbps: 285, encryptDecryptMbps: 134 },
    { aes: 'ct', sha1: 'wasm', pipeline: 'split', encryptMbps: 294, encryptDecryptMbps: 131 },
    { aes: 'ct', sha1: 'unrolled', pipeline: 'split', encryptMbps: 294, encryptDecryptMbps: 131 },
    { aes: 'ct', sha1: 'node', pipeline: 'stitched', encryptMbps: 249, encryptDecryptMbps: 121 },
    { aes: 'ct', sha1: 'unrolled', pipeline: 'stitched', encryptMbps: 238, encryptDecryptMbps: 120 },
    { aes: 'ct', sha1: 'wasm', pipeline: 'stitched', encryptMbps: 228, encryptDecryptMbps: 117 },
    { aes: 'ct', sha1: 'generic', pipeline: 'split', encryptMbps: 223, encryptDecryptMbps: 104 },
    { aes: 'ct', sha1: 'generic', pipeline: 'stitched', encryptMbps: 195, encryptDecryptMbps: 96 },
  ],
};

/** Preference when no measured row can run here: native first, then WebAssembly, then pure TypeScript. */
const FALLBACK_AES = ['node', 'table', 'ct'];
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
 * Parses a forced composition `aes+sha1/pipeline` and checks that it runs
 * here. Throws (naming what is available) rather than falling back: a silent
 * fallback is how the OpenConnect regression went unnoticed.
 */
export function forcedComposition(spec: string, aesHere: string[], sha1Here: string[], source = ESP_COMPOSITION_ENV): DefaultComposition {
  const match = /^([\w-]+)\+([\w-]+)\/(split|stitched)$/.exec(spec.trim());
  if (match === null) {
    throw new RangeError(`${source}=${spec}: expected <aes backend>+<sha1 implementation>/<split|stitched>, e.g. table+wasm/split`);
  }
  const [, aes, sha1, pipeline] = match as unknown as [string, string, string, PipelineName];
  if (!aesHere.includes(aes)) {
    throw new Error(`${source}=${spec}: aes backend '${aes}' is not available here; available: ${aesHere.join(', ') || '(none)'}`);
  }
  if (!sha1Here.includes(sha1)) {
    throw new Error(`${source}=${spec}: sha1 implementation '${sha1}' is not available here; available: ${sha1Here.join(', ') || '(none)'}`);
  }
  return { aes, sha1, pipeline, reason: `forced by ${source}=${spec}` };
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
        `fastest composition on this machine: ${row.encryptMbps} Mb/s seal, ${row.encryptDecryptMbps} Mb/s seal+open ` +
        `of 1400-byte packets (rank ${rank} of ${measured.rows.length}, measured ${measured.date} on ${measured.machine})`,
    };
  }
  const aes = FALLBACK_AES.find((n) => aesHere.includes(n)) ?? aesHere[0];
  const sha1 = FALLBACK_SHA1.find((n) => sha1Here.includes(n)) ?? sha1Here[0];
  if (aes === undefined || sha1 === undefined) {
    throw new Error(`no usable layers: aes backends [${aesHere.join(', ')}], sha1 implementations [${sha1Here.join(', ')}]`);
  }
  return { aes, sha1, pipeline: 'split', reason: 'no measured composition runs here: fixed preference native > wasm > TypeScript' };
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

/** Forgets the remembered default so the next SA reads LAYERBENCH_ESP_COMPOSITION again (tests, long-lived tools). */
export function resetEspDispatch(): void {
  chosen = undefined;
}

/** The default composition as dispatch decisions, for the capability/dispatch lines the CLI prints first. */
export function describeDispatch(): DispatchDecision[] {
  const c = defaultComposition();
  return [{ layer: 'esp', decision: 'default composition', impl: `${c.aes}+${c.sha1}/${c.pipeline}`, reason: c.reason }];
}
