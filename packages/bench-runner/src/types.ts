// The contract between suites and the engine: suites (in apps/cli) build
// BenchCase lists; runCases() turns them into a RunResult. The types of
// everything written to a result file are inferred from the zod schemas in
// results/schemas.ts (the one definition) and re-exported here.
import type { CaseParams, CaseError, CaseResult, EnvFingerprint, RunResult, Verdict } from './results/schemas.js';

export type {
  ParamValue,
  CaseParams,
  DispatchDecision,
  LayerFingerprint,
  EnvFingerprint,
  CaseStats,
  CaseError,
  CaseResult,
  RunResult,
  Verdict,
  SampleComparison,
  CaseComparison,
  FingerprintDiff,
  Comparison,
  CalibrationEffect,
  Calibration,
  FigureBasis,
  RunNoiseSummary,
  CaseSpread,
  BetweenRunCalibration,
} from './results/schemas.js';

/** Where progress lines go: any writable text stream (process.stderr, a test buffer). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** What runCases reads of an AbortSignal (structural, so the types need no DOM or Node library). */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

/** What a case's setup() hands to the engine: the timed closure and its output digest. */
export interface CaseInstance {
  /** The timed function: one operation. Its return value is kept alive so it is not optimised away. */
  fn(): unknown;
  /** Hex digest of this case's output (the MAC, the hash, a hash of the ciphertext). Called outside timing. */
  digest(): string;
  /** The implementation that actually ran, when a dispatcher chose it (recorded in the result). */
  implementation?: string;
  teardown?(): void;
}

export interface BenchCase {
  /** Stable id, e.g. 'cmac/aes-128/pl=48/preloaded/table'. */
  id: string;
  /** The layer measured: 'aes-core' | 'cmac' | 'sha1-dispatch' | 'esp' | 'peers' | ... */
  layer: string;
  /**
   * The packages this case's code consists of, by their names in the run's
   * env.layers (its layer's package, the layers below it, the package that
   * builds the case). Recorded in the result; compareResults' unchanged-code
   * guard reads it (codeUnchanged). Absent: the guard needs a caller's map.
   */
  packages?: readonly string[];
  params: CaseParams;
  /** Bytes processed by one fn() call, for throughput figures. */
  bytesPerOp?: number;
  /** Expected hex digest: a mismatch marks the case failed (digestOk false). */
  expectedDigest?: string;
  /**
   * Run as a loop of this many seconds counting operations (the esptest shape),
   * recording per-batch samples from that loop as well. Overrides timePerCase.
   */
  fixedTimeSeconds?: number;
  /** Outside the timed loop: allocate keys, contexts, buffers. */
  setup(): CaseInstance | Promise<CaseInstance>;
}

export interface Suite {
  name: string;
  description?: string;
  cases: BenchCase[];
}

export interface RunOptions {
  /** Seconds of measurement per case (default 1). */
  timePerCase?: number;
  quiet?: boolean;
  /** Defaults to stderr when it is a TTY and quiet is not set. */
  progress?: ProgressStream;
  /** Stops after the current case; finished cases are kept and the result is marked interrupted. */
  signal?: AbortSignalLike;
  /** Called after each case, e.g. to write the partial result file. */
  onCase?: (result: CaseResult, partial: RunResult) => void;
  /** What the layers report, merged into the env fingerprint. */
  env?: Partial<Pick<EnvFingerprint, 'capabilities' | 'dispatch' | 'layers' | 'measuredOnCpu' | 'cpuNote'>>;
  suites?: string[];
  shard?: string;
  filter?: string;
  /** Slices per case, each a separate timing loop (default 10). */
  slices?: number;
}

/** A keyed object whose memory footprint is measured ('how much memory does a ctx take?'). */
export interface MemCase {
  id: string; // e.g. 'cmac/aes-128/preloaded/table'
  layer: string;
  params: CaseParams;
  /** Creates one object; the engine keeps N of them alive and divides the heap growth by N. */
  create(): unknown | Promise<unknown>;
}

export interface MemResult {
  id: string;
  layer: string;
  params: CaseParams;
  count: number;
  /** Bytes per object, from process.memoryUsage() deltas with a forced GC before and after. */
  perObject: { heapUsed: number; external: number; arrayBuffers: number; total: number };
  status: 'ok' | 'failed';
  error?: CaseError;
}

/** Result of runInterleaved(): each variant's pooled samples and its ratio to the first variant. */
export interface InterleavedResult {
  cases: CaseResult[];
  /** For every variant after the first: median ratio variant/first (> 1 is slower) with its CI. */
  ratios: { id: string; ratio: number; ci: [number, number]; pValue?: number; verdict?: Verdict }[];
  rounds: number;
  /** Per variant (same order as cases), the median of its slice in each round. */
  roundMedians?: number[][];
}
