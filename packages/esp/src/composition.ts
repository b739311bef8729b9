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
  machine: 'not yet measured',
  date: '',
  command: 'npx layerbench run esp --format table',
  rows: [],
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

let chosen: DefaultComposition | undefined;

function choose(): DefaultComposition {
  const aesHere = availableAesBackends();
  const sha1Here = availableSha1Implementations();
  const row = MEASURED.rows.find((r) => aesHere.includes(r.aes) && sha1Here.includes(r.sha1));
  if (row !== undefined) {
    const rank = MEASURED.rows.indexOf(row) + 1;
    return {
      aes: row.aes,
      sha1: row.sha1,
      pipeline: row.pipeline,
      reason:
        `fastest composition on this machine: ${row.encryptMbps} Mb/s seal, ${row.encryptDecryptMbps} Mb/s seal+open ` +
        `of 1400-byte packets (rank ${rank} of ${MEASURED.rows.length}, measured ${MEASURED.date} on ${MEASURED.machine})`,
    };
  }
  const aes = FALLBACK_AES.find((n) => aesHere.includes(n)) ?? aesHere[0];
  const sha1 = FALLBACK_SHA1.find((n) => sha1Here.includes(n)) ?? sha1Here[0];
  if (aes === undefined || sha1 === undefined) {
    throw new Error(`no usable layers: aes backends [${aesHere.join(', ')}], sha1 implementations [${sha1Here.join(', ')}]`);
  }
  return { aes, sha1, pipeline: 'split', reason: 'no measured composition runs here: fixed preference native > wasm > TypeScript' };
}

/** The composition used for options left open, chosen once per process. */
export function defaultComposition(): DefaultComposition {
  if (chosen === undefined) chosen = choose();
  return chosen;
}

/** The default composition as dispatch decisions, for the capability/dispatch lines the CLI prints first. */
export function describeDispatch(): DispatchDecision[] {
  const c = defaultComposition();
  return [{ layer: 'esp', decision: 'default composition', impl: `${c.aes}+${c.sha1}/${c.pipeline}`, reason: c.reason }];
}
