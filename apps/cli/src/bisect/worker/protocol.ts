// The messages between bisect/find (the parent) and a measuring worker
// (worker.ts, one child process per composition, spoken over the IPC channel
// so stray console output of a layer cannot corrupt the protocol).
import type { CaseError, CaseParams, DispatchDecision, LayerFingerprint } from '@layerbench/bench-runner';
import type { CodeLayerName } from '../side-spec.js';

export type ParentMessage =
  | { type: 'init'; dirs: Record<CodeLayerName, string>; suites: string[]; filter?: string }
  | { type: 'measure'; seq: number; id: string; seconds: number }
  | { type: 'env'; seq: number }
  | { type: 'exit' };

export interface WorkerCase {
  id: string;
  layer: string;
  params: CaseParams;
  bytesPerOp?: number;
}

/** What one measure request produced: raw samples (ns/op) and the output digest. */
export interface Measurement {
  id: string;
  status: 'ok' | 'failed';
  samples: number[];
  digest?: string;
  digestOk?: boolean;
  implementation?: string;
  error?: CaseError;
}

/** What the worker's runtime and layers report about themselves. */
export interface WorkerEnv {
  node: string;
  v8: string;
  openssl: string;
  capabilities?: string;
  dispatch: DispatchDecision[];
  /** Reporting functions a layer of this mix does not export. */
  missing: string[];
  /** The layers this process loaded (when its engine has layerFingerprint). */
  layers?: LayerFingerprint[];
}

export type WorkerMessage =
  | { type: 'ready'; cases: WorkerCase[]; suiteErrors: { suite: string; message: string }[] }
  | { type: 'failed'; stage: 'load' | 'suites'; layer?: string; message: string }
  | { type: 'measured'; seq: number; result: Measurement }
  | { type: 'env'; seq: number; env: WorkerEnv; error?: string };
