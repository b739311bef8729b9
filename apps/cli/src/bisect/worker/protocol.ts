// The messages between bisect/find (the parent) and a measuring worker
// (worker.ts, one child process per composition, spoken over the IPC channel
// so stray console output of a layer cannot corrupt the protocol).
import type { CaseError, CaseParams, DispatchDecision } from '@layerbench/bench-runner';
import type { CodeLayerName } from '../side-spec.js';

/**
 * The environment variables the parent gives a worker for its resolution hook
 * (one-copy-hooks.ts). LAYER_DIRS_ENV: per variant tag, package name -> folder.
 */
export const LAYER_DIRS_ENV = 'LAYERBENCH_LAYER_DIRS';
export const RESOLUTION_LOG_ENV = 'LAYERBENCH_RESOLUTION_LOG';

/**
 * A worker hosts one variant (tag '': modules load as usual) or, paired, several
 * side by side, each in a module graph of its own: every file of variant `t` is
 * loaded with the query `?lbv=t` (VARIANT_PARAM), so no module instance, and
 * no function whose JIT feedback could carry over, is shared between variants.
 */
export const VARIANT_PARAM = 'lbv';

/** The variant tag a module URL belongs to ('' when it has none). */
export function variantTagOf(url: string | undefined): string {
  if (url === undefined || !url.startsWith('file:')) return '';
  const q = url.indexOf('?');
  if (q < 0) return '';
  return new URLSearchParams(url.slice(q + 1)).get(VARIANT_PARAM) ?? '';
}

/** The URL of a file of variant `tag` (unchanged for ''). */
export function withVariantTag(url: string, tag: string): string {
  if (tag === '' || variantTagOf(url) === tag) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${VARIANT_PARAM}=${encodeURIComponent(tag)}`;
}

/** One variant a worker hosts. */
export interface HostedVariant {
  tag: string;
  dirs: Record<CodeLayerName, string>;
  /**
   * Cases of these layers are neither kept nor warmed in this variant: they
   * do not run the layer it swaps (bisect/variants.ts, caseLayersSkipped).
   */
  skipCaseLayers?: string[];
}

export type ParentMessage =
  | {
      type: 'init';
      /** One untagged variant, or (paired) several with distinct non-empty tags. */
      variants: HostedVariant[];
      suites: string[];
      filter?: string;
      /** Leave out the peer libraries' cases (params.peer). */
      skipPeers?: boolean;
      /** Run every case this long once before answering 'ready', so the first measured visit finds warm code. */
      warmupSeconds?: number;
    }
  | { type: 'measure'; seq: number; variant: string; id: string; seconds: number }
  | { type: 'env'; seq: number; variant: string }
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

export type FailStage = 'load' | 'suites' | 'one-copy';

/** What one hosted variant has after init: its cases, or why it cannot run. */
export type ReadyVariant =
  | {
      tag: string;
      ok: true;
      cases: WorkerCase[];
      suiteErrors: { suite: string; message: string }[];
      /** Selected cases left out by skipCaseLayers. */
      skipped?: { id: string; layer: string }[];
    }
  | { tag: string; ok: false; stage: FailStage; layer?: string; message: string };

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
  | { type: 'ready'; variants: ReadyVariant[] }
  | { type: 'failed'; stage: FailStage; layer?: string; message: string }
  | { type: 'measured'; seq: number; result: Measurement }
  | { type: 'env'; seq: number; env: WorkerEnv; error?: string };
