// The messages between bisect/find (the parent) and a measuring worker
// (worker.ts, one child process per composition, spoken over the IPC channel
// so stray console output of a layer cannot corrupt the protocol).
import type { CaseError, CaseParams, DispatchDecision } from '@layerbench/bench-runner';
import type { CodeLayerName } from '../side-spec.js';

/** The environment variables the parent gives a worker for its resolution hook (one-copy-hooks.ts). */
export const LAYER_DIRS_ENV = 'LAYERBENCH_LAYER_DIRS';
export const RESOLUTION_LOG_ENV = 'LAYERBENCH_RESOLUTION_LOG';

export type ParentMessage =
  | {
      type: 'init';
      dirs: Record<CodeLayerName, string>;
      suites: string[];
      filter?: string;
      /** Leave out the peer libraries' cases (params.peer). */
      skipPeers?: boolean;
      /** Run every case this long once before answering 'ready', so the first measured visit finds warm code. */
      warmupSeconds?: number;
    }
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
  /** The folder each layer was loaded from in this process (one each, or oneCopyProblem says otherwise). */
  loadedLayers: { layer: string; folder: string; contentHash?: string }[];
  /** Set when a layer was loaded from two folders, or from another than the variant's. */
  oneCopyProblem?: string;
}

export type WorkerMessage =
  | { type: 'ready'; cases: WorkerCase[]; suiteErrors: { suite: string; message: string }[] }
  | { type: 'failed'; stage: 'load' | 'suites' | 'one-copy'; layer?: string; message: string }
  | { type: 'measured'; seq: number; result: Measurement }
  | { type: 'env'; seq: number; env: WorkerEnv; error?: string };
