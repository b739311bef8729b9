// Layer bisection, the measuring part: from a resolved good and bad stack, the
// variants (all-good, all-bad, each differing layer swapped in from bad, each
// swapped back out to good), one worker process (or --processes n) per variant alive for the
// whole run, rounds that visit every variant in a shuffled order (so drift
// over time lands on every variant alike), then attribution per case and the
// stack changes (versions, runtime, capability word, dispatch decisions) with
// the layer whose swap reproduces each.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { layerFingerprint, type LayerFingerprint } from '@layerbench/bench-runner';
import { attributeCase, swapInId, swapOutId, type CompareSamples } from './attribution.js';
import type { BisectCase, BisectResult, BisectVariant, StackChange } from './result.js';
import type { ResolvedComposition } from './side-sources.js';
import { CODE_LAYERS, type CodeLayerName, type LayerName } from './side-spec.js';
import { CompositionWorker, MixError } from './worker/client.js';
import type { WorkerCase, WorkerEnv } from './worker/protocol.js';

export type Side = 'good' | 'bad';

/** Length of the discarded warm-up visit of each variant and case. */
export const WARMUP_SECONDS = 0.3;

export interface VariantPlan {
  id: string;
  label: string;
  take: Record<LayerName, Side>;
}

/** Identity of every layer of one side (code layers by content hash, the runtime by binary and version). */
export interface SideIdentity {
  spec: string;
  layers: Record<LayerName, LayerFingerprint>;
  /** What decides whether a layer differs: the hash of the code that runs. */
  code: Record<LayerName, string>;
}

export function identify(
  composition: ResolvedComposition,
  fingerprint: (dir: string, source: string) => LayerFingerprint,
): SideIdentity {
  const layers = {} as Record<LayerName, LayerFingerprint>;
  const code = {} as Record<LayerName, string>;
  for (const name of CODE_LAYERS) {
    const l = composition.layers[name];
    const fp = fingerprint(l.dir, l.source);
    layers[name] = l.commit !== undefined && fp.commit === undefined ? { ...fp, commit: l.commit } : fp;
    code[name] = fp.contentHash ?? '';
  }
  const rt = composition.runtime;
  let real = rt.nodePath;
  try {
    real = realpathSync(rt.nodePath);
  } catch {
    // Reported when the worker fails to start.
  }
  // The node binary's own sha256: the same version built differently is a different runtime.
  const binaryHash = createHash('sha256').update(readFileSync(real)).digest('hex');
  layers.runtime = { name: 'runtime', version: rt.version, source: rt.source, contentHash: binaryHash };
  code.runtime = binaryHash;
  return { spec: composition.text, layers, code };
}

/** The layers whose good and bad versions differ (all of `only` when given, in stack order). */
export function differingLayers(good: SideIdentity, bad: SideIdentity, only?: readonly LayerName[]): LayerName[] {
  const names: LayerName[] = [...CODE_LAYERS, 'runtime'];
  return names.filter((name) => {
    if (only && !only.includes(name)) return false;
    // Two commits that build the same code are the same layer: the commit alone is no difference.
    return good.code[name] !== bad.code[name] || good.layers[name].version !== bad.layers[name].version;
  });
}

export function planVariants(layers: readonly LayerName[]): VariantPlan[] {
  const all = (side: Side): Record<LayerName, Side> => {
    const take = {} as Record<LayerName, Side>;
    for (const n of [...CODE_LAYERS, 'runtime'] as LayerName[]) take[n] = side;
    return take;
  };
  const plans: VariantPlan[] = [
    { id: 'good', label: 'all good', take: all('good') },
    { id: 'bad', label: 'all bad', take: all('bad') },
  ];
  for (const layer of layers) {
    plans.push({ id: swapInId(layer), label: `good stack, ${layer} from bad`, take: { ...all('good'), [layer]: 'bad' } });
    plans.push({ id: swapOutId(layer), label: `bad stack, ${layer} from good`, take: { ...all('bad'), [layer]: 'good' } });
  }
  return plans;
}

export interface BisectInputs {
  good: ResolvedComposition;
  bad: ResolvedComposition;
  goodId: SideIdentity;
  badId: SideIdentity;
  layers: LayerName[];
  suites: string[];
  filter?: string;
  timePerCase: number;
  rounds: number;
  /**
   * Worker processes per variant (default 1). Visits take turns between them, so a
   * process that is slow as a whole (JIT, memory layout) becomes variance, not a bias.
   */
  processes?: number;
  /** Percentile (0..100) of a visit's samples that stands for the visit. */
  visitPercentile: number;
  threshold: number;
  alpha: number;
  compare: CompareSamples;
  machine: BisectResult['machine'];
  random?: () => number;
  signal?: AbortSignal;
  progress?: (message: string) => void;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The one value a visit contributes: a low percentile of its samples (default
 * the 10th). Why one value: the batch size adapts to the machine's state,
 * so a slice yields from a few hundred to a few hundred thousand samples;
 * pooled raw, one quiet or busy slice would outweigh all the others and the
 * drift the rounds are there to cancel would come back. Why a low percentile:
 * on a shared machine the median of a slice mostly measures how often the
 * process was preempted (an A/A check here: 38% interquartile spread of visit
 * medians against 2% for the 10th percentile); the lower tail is what the code
 * costs. Costs that only show in the upper tail (GC pauses) need --percentile 50.
 */
export function visitValue(samples: readonly number[], percentile: number): number {
  return percentileOf(samples, percentile);
}

function percentileOf(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = ((s.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

/** Default of --percentile: the value each visit contributes. */
export const DEFAULT_VISIT_PERCENTILE = 10;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function describeFingerprint(fp: LayerFingerprint): string {
  const parts = [fp.version];
  if (fp.commit) parts.push(`commit ${fp.commit.slice(0, 7)}`);
  if (fp.source && fp.name !== 'runtime') parts.push(fp.source);
  return parts.join(', ');
}

/** Good-vs-bad differences of the stacks, each with the layer(s) whose swap-in shows the bad value. */
export function stackChanges(
  layers: readonly LayerName[],
  goodId: SideIdentity,
  badId: SideIdentity,
  envs: Record<string, WorkerEnv | undefined>,
): StackChange[] {
  const changes: StackChange[] = [];
  for (const layer of layers) {
    const g = goodId.layers[layer];
    const b = badId.layers[layer];
    changes.push({
      kind: layer === 'runtime' ? 'runtime' : 'layer',
      what: layer,
      good: layer === 'runtime' ? `node ${g.version} (${g.source})` : describeFingerprint(g),
      bad: layer === 'runtime' ? `node ${b.version} (${b.source})` : describeFingerprint(b),
      causedBy: [layer],
    });
  }
  const good = envs['good'];
  const bad = envs['bad'];
  if (!good || !bad) return changes;
  const causes = (value: (env: WorkerEnv) => string | undefined, badValue: string | undefined): string[] =>
    layers.filter((l) => {
      const env = envs[swapInId(l)];
      return env !== undefined && value(env) === badValue;
    });
  if (good.openssl !== bad.openssl) {
    changes.push({ kind: 'openssl', what: 'OpenSSL', good: good.openssl, bad: bad.openssl, causedBy: causes((e) => e.openssl, bad.openssl) });
  }
  if ((good.capabilities ?? '') !== (bad.capabilities ?? '')) {
    changes.push({
      kind: 'capabilities',
      what: 'CPU capabilities',
      good: good.capabilities ?? 'not reported',
      bad: bad.capabilities ?? 'not reported',
      causedBy: causes((e) => e.capabilities, bad.capabilities),
    });
  }
  const key = (d: { layer: string; decision: string }) => `${d.layer}: ${d.decision}`;
  const decisions = (env: WorkerEnv) => new Map(env.dispatch.map((d) => [key(d), d]));
  const gd = decisions(good);
  const bd = decisions(bad);
  for (const k of new Set([...gd.keys(), ...bd.keys()])) {
    const g = gd.get(k);
    const b = bd.get(k);
    if (g?.impl === b?.impl) continue;
    const show = (d: typeof g) => (d ? `${d.impl} (${d.reason})` : 'not reported');
    changes.push({
      kind: 'dispatch',
      what: k,
      good: show(g),
      bad: show(b),
      causedBy: causes((e) => decisions(e).get(k)?.impl, b?.impl),
    });
  }
  return changes;
}

interface VariantRun {
  plan: VariantPlan;
  /** The variant's worker processes (empty when the mix cannot run); visits take turns. */
  workers: CompositionWorker[];
  problem?: string;
  cases: Map<string, WorkerCase>;
}

function dirsFor(plan: VariantPlan, good: ResolvedComposition, bad: ResolvedComposition): Record<CodeLayerName, string> {
  const dirs = {} as Record<CodeLayerName, string>;
  for (const name of CODE_LAYERS) dirs[name] = (plan.take[name] === 'good' ? good : bad).layers[name].dir;
  return dirs;
}

/** Runs the bisection and returns the result file's content. */
export async function runBisect(inputs: BisectInputs): Promise<BisectResult> {
  const { good, bad, layers } = inputs;
  const progress = inputs.progress ?? (() => undefined);
  const random = inputs.random ?? Math.random;
  const plans = planVariants(layers);
  const runs: VariantRun[] = await Promise.all(
    plans.map(async (plan): Promise<VariantRun> => {
      const runtime = plan.take.runtime === 'good' ? good.runtime : bad.runtime;
      const options = {
        nodePath: runtime.nodePath,
        nodeVersion: runtime.version,
        dirs: dirsFor(plan, good, bad),
        suites: inputs.suites,
        ...(inputs.filter === undefined ? {} : { filter: inputs.filter }),
      };
      const started = await Promise.allSettled(
        Array.from({ length: inputs.processes ?? 1 }, () => CompositionWorker.start(options)),
      );
      const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failure) {
        await Promise.all(workers.map((w) => w.close()));
        const e = failure.reason as Error;
        const problem = failure.reason instanceof MixError ? e.message : `${e.name}: ${e.message}`;
        progress(`${plan.id}: cannot run this mix: ${problem}`);
        return { plan, workers: [], problem, cases: new Map() };
      }
      return { plan, workers, cases: new Map(workers[0]!.cases.map((c) => [c.id, c])) };
    }),
  );
  try {
    const byId = new Map(runs.map((r) => [r.plan.id, r]));
    const caseOrder: WorkerCase[] = [];
    const seen = new Set<string>();
    for (const r of [byId.get('good')!, byId.get('bad')!, ...runs]) {
      for (const c of r.cases.values()) {
        if (!seen.has(c.id)) {
          seen.add(c.id);
          caseOrder.push(c);
        }
      }
    }
    /** Per case, per variant: the value of each visit (one per round, see visitValue). */
    const samples = new Map<string, Record<string, number[]>>();
    const problems = new Map<string, Record<string, string>>();
    const impls = new Map<string, Record<string, string>>();
    const digests = new Map<string, Record<string, string>>();
    for (const c of caseOrder) {
      samples.set(c.id, {});
      problems.set(c.id, {});
      impls.set(c.id, {});
      digests.set(c.id, {});
      for (const r of runs) {
        if (r.workers.length === 0) problems.get(c.id)![r.plan.id] = `this mix cannot run: ${r.problem}`;
        else if (!r.cases.has(c.id)) {
          const failed = r.workers[0]!.suiteErrors.map((e) => `${e.suite}: ${e.message}`).join('; ');
          problems.get(c.id)![r.plan.id] = `this mix has no such case${failed ? ` (suites that fail to build their cases here: ${failed})` : ''}`;
        }
      }
    }
    const slice = inputs.timePerCase / inputs.rounds;
    let interrupted = false;
    // A discarded first visit per variant and case: the JIT tiers a fresh process's code up
    // over its first few hundred milliseconds, and those visits would measure that, not the code.
    for (const c of caseOrder) {
      progress(`warming up ${c.id}`);
      for (const r of runs) {
        if (!r.cases.has(c.id) || inputs.signal?.aborted) continue;
        for (const worker of r.workers) {
          try {
            await worker.measure(c.id, Math.max(WARMUP_SECONDS, slice));
          } catch (err) {
            problems.get(c.id)![r.plan.id] = (err as Error).message;
          }
        }
      }
    }
    outer: for (let round = 1; round <= inputs.rounds; round++) {
      for (const [index, c] of caseOrder.entries()) {
        if (inputs.signal?.aborted) {
          interrupted = true;
          break outer;
        }
        progress(`round ${round}/${inputs.rounds}, case ${index + 1}/${caseOrder.length}: ${c.id}`);
        for (const r of shuffle(runs, random)) {
          if (r.workers.length === 0 || !r.cases.has(c.id) || problems.get(c.id)![r.plan.id]) continue;
          let m;
          try {
            m = await r.workers[(round - 1) % r.workers.length]!.measure(c.id, slice);
          } catch (err) {
            problems.get(c.id)![r.plan.id] = (err as Error).message;
            continue;
          }
          if (m.status !== 'ok' || m.digestOk === false) {
            problems.get(c.id)![r.plan.id] = m.error
              ? `${m.error.name}: ${m.error.message}`
              : `output digest ${m.digest ?? '?'} does not match the expected one`;
            delete samples.get(c.id)![r.plan.id];
            continue;
          }
          if (m.samples.length === 0) continue;
          (samples.get(c.id)![r.plan.id] ??= []).push(visitValue(m.samples, inputs.visitPercentile));
          if (m.implementation !== undefined) impls.get(c.id)![r.plan.id] = m.implementation;
          if (m.digest !== undefined) digests.get(c.id)![r.plan.id] = m.digest;
        }
      }
    }

    const envs: Record<string, WorkerEnv | undefined> = {};
    const variants: BisectVariant[] = [];
    for (const r of runs) {
      const variant: BisectVariant = {
        id: r.plan.id,
        label: r.plan.label,
        take: r.plan.take,
        status: r.workers.length ? 'ok' : 'failed',
      };
      if (r.problem) variant.problem = r.problem;
      for (const worker of r.workers) {
        let env;
        try {
          env = await worker.env();
        } catch (err) {
          variant.problem = `no environment report: ${(err as Error).message}`;
          continue;
        }
        for (const l of env.loadedLayers) {
          const hash = layerFingerprint(l.folder).contentHash;
          if (hash !== undefined) l.contentHash = hash;
        }
        if (!variant.env) {
          envs[r.plan.id] = env;
          variant.env = env;
        }
        if (env.oneCopyProblem !== undefined) {
          // A layer loaded twice while measuring: the numbers of this variant are about no installable stack.
          variant.status = 'failed';
          variant.problem = `a layer was loaded from two places: ${env.oneCopyProblem}`;
          variant.env = env;
          for (const c of caseOrder) {
            delete samples.get(c.id)![r.plan.id];
            problems.get(c.id)![r.plan.id] = variant.problem;
          }
        }
      }
      variants.push(variant);
    }

    const cases: BisectCase[] = caseOrder.map((c) => {
      const a = attributeCase(
        c.id,
        layers,
        { samples: samples.get(c.id)!, problems: problems.get(c.id)! },
        inputs.compare,
        inputs.threshold,
      );
      const medians: Record<string, number> = {};
      for (const [v, s] of Object.entries(samples.get(c.id)!)) if (s.length) medians[v] = median(s);
      const out: BisectCase = { ...a, layer: c.layer, params: c.params, medians };
      if (c.bytesPerOp !== undefined) out.bytesPerOp = c.bytesPerOp;
      const im = impls.get(c.id)!;
      if (new Set(Object.values(im)).size > 1) out.implementations = im;
      const dg = digests.get(c.id)!;
      if (dg['good'] !== undefined && dg['bad'] !== undefined) out.digestChanged = dg['good'] !== dg['bad'];
      return out;
    });

    const summary: BisectResult['summary'] = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0, failed: 0, attributed: {} };
    for (const c of cases) {
      if (c.status === 'failed' || !c.total) summary.failed++;
      else summary[c.total.verdict]++;
      for (const l of c.attributed) summary.attributed[l] = (summary.attributed[l] ?? 0) + 1;
    }
    const result: BisectResult = {
      kind: 'layerbench/bisect',
      schemaVersion: 1,
      createdAt: new Date().toISOString(),
      options: {
        suites: inputs.suites,
        ...(inputs.filter === undefined ? {} : { filter: inputs.filter }),
        timePerCase: inputs.timePerCase,
        rounds: inputs.rounds,
        processes: inputs.processes ?? 1,
        visitPercentile: inputs.visitPercentile,
        threshold: inputs.threshold,
        alpha: inputs.alpha,
      },
      machine: inputs.machine,
      good: { spec: inputs.goodId.spec, layers: Object.values(inputs.goodId.layers) },
      bad: { spec: inputs.badId.spec, layers: Object.values(inputs.badId.layers) },
      layers,
      changes: stackChanges(layers, inputs.goodId, inputs.badId, envs),
      variants,
      cases,
      summary,
    };
    if (interrupted) result.interrupted = true;
    return result;
  } finally {
    await Promise.all(runs.flatMap((r) => r.workers.map((w) => w.close())));
  }
}

/** 1 when a case regressed, else 0 (2 is for bad input, decided before measuring). */
export function bisectExitCode(result: BisectResult): number {
  return result.cases.some((c) => c.total?.verdict === 'regressed') ? 1 : 0;
}
