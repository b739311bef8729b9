// The contract between suites, the engine, result files and reporters.
// Suites (in apps/cli) build BenchCase lists; runCases() turns them into a
// RunResult; compareResults() turns two RunResults into a Comparison.

export type ParamValue = string | number | boolean;

/**
 * Parameter names with a fixed meaning, read by the reporters:
 * - algorithm: 'AES-128' | 'SHA-1' | 'HMAC-SHA1' | ...
 * - keyBytes (KL), packetBytes (PL), macBytes (CL), size (message size in bytes)
 * - impl: the implementation/backend that ran ('table', 'unrolled', 'node', 'noble', ...)
 * - pattern: the access pattern ('oneshot' | 'preloaded' | 'dup' | 'native' | ...)
 * - section: a heading reporters group rows under (e.g. NTPsec '# CMAC', 'Preload cipher and key.')
 * - op: esptest operation ('encrypt' | 'encrypt+decrypt')
 * - peer: true when the implementation is a competitor library from apps/peers
 */
export interface CaseParams {
  algorithm?: string;
  keyBytes?: number;
  packetBytes?: number;
  macBytes?: number;
  size?: number;
  impl?: string;
  pattern?: string;
  section?: string;
  op?: string;
  peer?: boolean;
  [name: string]: ParamValue | undefined;
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

/** One dispatch decision a layer reports ('sha1-dispatch: whole-message size 64 -> unrolled'). */
export interface DispatchDecision {
  layer: string;
  decision: string;
  impl: string;
  reason: string;
}

/** Identity of one layer that took part in a run. */
export interface LayerFingerprint {
  name: string;          // '@layerbench/sha1-dispatch' or 'runtime'
  version: string;
  source?: string;       // 'workspace' | 'git:<ref>' | 'dir:<path>' | 'tgz:<path>' | 'node@<v>'
  commit?: string;       // git commit of the checkout it came from
  contentHash?: string;  // sha256 of its built code (dist/**)
}

export interface EnvFingerprint {
  node: string;
  v8: string;
  openssl: string;
  os: string;            // `${platform} ${release} ${arch}`
  cpuModel: string;
  cpuCount: number;
  loadAvgStart: number[];
  loadAvgEnd: number[];
  /** The capability word as printed after 'CPU capabilities: '. */
  capabilities?: string;
  dispatch: DispatchDecision[];
  layers: LayerFingerprint[];
  /** Stable hash of the machine identity (cpu model, count, os, hostname-free): merges CI shards per machine. */
  machineId: string;
  hostname?: string;
}

export interface CaseStats {
  n: number;             // samples
  median: number;        // ns/op
  mean: number;
  min: number;
  max: number;
  p99: number;
  mad: number;           // median absolute deviation, ns
  ci: [number, number];  // bootstrap 95% CI of the median, ns
  nsPerOp: number;       // = median
  opsPerSec: number;
  mbPerSec?: number;     // 1e6 bytes/s
  mbitPerSec?: number;   // 1e6 bits/s
}

export interface CaseError {
  name: string;
  message: string;
}

export interface CaseResult {
  id: string;
  layer: string;
  params: CaseParams;
  bytesPerOp?: number;
  status: 'ok' | 'failed';
  error?: CaseError;
  implementation?: string;
  digest?: string;
  expectedDigest?: string;
  digestOk?: boolean;
  /** Raw samples, ns per operation (each the mean of one batch). */
  samples: number[];
  /**
   * Median of each consecutive time slice of the measurement (each slice a
   * separate run of the case's timing loop). compareResults tests these rather than the pooled
   * samples, because samples within a slice are not independent.
   */
  sliceMedians?: number[];
  stats?: CaseStats;
  /** For fixed-time loops (esptest): operations completed in `seconds`. */
  fixedTime?: { seconds: number; ops: number; elapsedSeconds?: number };
}

export interface RunResult {
  kind: 'layerbench/run';
  schemaVersion: 1;
  createdAt: string;     // ISO time
  suites: string[];
  options: { timePerCase: number; shard?: string; filter?: string };
  env: EnvFingerprint;
  cases: CaseResult[];
  /** Empty-case timing overhead of this run, ns/op. */
  overheadNs?: number;
  /** True when the run was interrupted (Ctrl-C): the cases present are complete. */
  interrupted?: boolean;
}

export type Verdict = 'regressed' | 'improved' | 'unchanged' | 'inconclusive';

export interface CaseComparison {
  id: string;
  layer: string;
  params: CaseParams;
  baseMedian: number;
  headMedian: number;
  /** head / base of medians: > 1 is slower. */
  ratio: number;
  ratioCi: [number, number];
  pValue: number;
  verdict: Verdict;
  digestChanged: boolean;
  /** What was tested: slice medians (both sides had >= 5) or, for older results, the pooled samples. */
  method?: 'slices' | 'samples';
  baseImpl?: string;
  headImpl?: string;
}

export interface FingerprintDiff {
  /** 'runtime' | 'openssl' | 'v8' | 'cpu' | 'capabilities' | 'dispatch' | 'layer' */
  kind: string;
  what: string;          // e.g. '@layerbench/sha1-dispatch' or 'sha1-dispatch: whole-message'
  base: string;
  head: string;
  /** For kind 'layer': which field differs ('version' | 'source' | 'commit' | 'contentHash' | 'presence'). */
  field?: string;
}

export interface Comparison {
  kind: 'layerbench/compare';
  schemaVersion: 1;
  createdAt: string;
  threshold: number;     // relative, e.g. 0.03
  alpha: number;         // significance level, e.g. 0.01
  base: { createdAt: string; env: EnvFingerprint };
  head: { createdAt: string; env: EnvFingerprint };
  fingerprintDiffs: FingerprintDiff[];
  cases: CaseComparison[];
  onlyBase: string[];
  onlyHead: string[];
  failed: string[];      // ids failed on either side
  geomean: { ratio: number; ci: [number, number] };
  summary: Record<Verdict, number>;
  /** Reasons to distrust the timings: an overloaded machine, different machines. */
  warnings?: string[];
}

export interface RunOptions {
  /** Seconds of measurement per case (default 1). */
  timePerCase?: number;
  quiet?: boolean;
  /** Defaults to stderr when it is a TTY and quiet is not set. */
  progress?: NodeJS.WritableStream;
  /** Stops after the current case; finished cases are kept and the result is marked interrupted. */
  signal?: AbortSignal;
  /** Called after each case, e.g. to write the partial result file. */
  onCase?: (result: CaseResult, partial: RunResult) => void;
  /** What the layers report, merged into the env fingerprint. */
  env?: Partial<Pick<EnvFingerprint, 'capabilities' | 'dispatch' | 'layers'>>;
  suites?: string[];
  shard?: string;
  filter?: string;
  /** Slices per case, each a separate timing loop (default 10). */
  slices?: number;
}

/** A keyed object whose memory footprint is measured ('how much memory does a ctx take?'). */
export interface MemCase {
  id: string;            // e.g. 'cmac/aes-128/preloaded/table'
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

/** Outcome of one comparison (compareSamples, compareRounds): the verdict rule of verdict.ts. */
export interface SampleComparison {
  ratio: number;
  /** Interval of the ratio at confidence 1 - alpha. */
  ratioCi: [number, number];
  /** Two-sided, from the same bootstrap draws: p < alpha exactly when ratioCi excludes 1. */
  pValue: number;
  verdict: Verdict;
  /** The interval's confidence level (1 - alpha). */
  confidence?: number;
}

/** Detection statistics for one effect size in calibrate(). */
export interface CalibrationEffect {
  /** Relative extra work of the head variant, e.g. 0.03. */
  effect: number;
  repeats: number;
  /** Share of repeats whose verdict was 'regressed' (the power). */
  detectionRate: number;
  /** 95% Wilson interval of the detection rate. */
  detectionCi: [number, number];
  /** Share of repeats with p < alpha, whatever the verdict. */
  significantRate: number;
  /** Median measured ratio over the repeats (expected about 1 + effect). */
  medianRatio: number;
  verdicts: Record<Verdict, number>;
  /** Every comparison of this effect, in order. */
  outcomes?: SampleComparison[];
}

export interface Calibration {
  kind: 'layerbench/calibration';
  schemaVersion: 1;
  createdAt: string;
  env: EnvFingerprint;
  timePerCase: number;
  repeats: number;
  threshold: number;
  alpha: number;
  /** A/A: share of repeats with verdict 'regressed' or 'improved'. */
  falseAlarmRate: number;
  falseAlarmCi: [number, number];
  /** A/A: spread of the measured ratio (median and MAD over the repeats). */
  aaRatio: { median: number; mad: number };
  /** Every A/A comparison, in order. */
  aaOutcomes?: SampleComparison[];
  /** Interleaved rounds per comparison. */
  rounds?: number;
  effects: CalibrationEffect[];
  /** Smallest effect detected with >= 95% power, or null when none was. */
  minimumDetectableEffect: number | null;
  /** Timing of an empty case through the same engine, ns/op. */
  overhead: { medianNs: number; madNs: number; ci: [number, number] };
}
