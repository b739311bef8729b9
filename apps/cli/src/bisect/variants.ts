// Which stacks a bisection measures, and what differs between them. Each side
// is identified layer by layer (code layers by the content hash of the code
// that runs, the runtime by its binary); the layers that differ are swapped,
// and the variants are: all good, all bad, the A/A control (the good stack
// again, in processes of its own: the noise floor), and per differing layer
// the good stack with that layer from bad ("swap in") and the bad stack with
// it from good ("swap out"). After measuring, the stack changes: each
// difference of versions, runtime, OpenSSL, capability word and dispatch
// decisions, with the layer(s) whose swap-in shows the bad value.
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import type { LayerFingerprint } from '@layerbench/bench-runner';
import { CONTROL_ID, swapInId, swapOutId } from './attribution.js';
import type { StackChange } from '@layerbench/bench-runner/results';
import { knownCaseLayers, layerPackages } from '../between-runs.js';
import type { ResolvedComposition } from './side-sources.js';
import { ALL_LAYERS, CODE_LAYERS, packageNameOf, type CodeLayerName, type LayerName } from './side-spec.js';
import type { WorkerEnv } from './worker/protocol.js';

export type Side = 'good' | 'bad';

export interface VariantPlan {
  id: string;
  label: string;
  /** Which side each layer comes from. */
  take: Record<LayerName, Side>;
  /** The layer a swap variant takes from the other side (absent: good, bad, the A/A control). */
  swapped?: LayerName;
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
  return ALL_LAYERS.filter((name) => {
    if (only && !only.includes(name)) return false;
    // Two commits that build the same code are the same layer: the commit alone is no difference.
    return good.code[name] !== bad.code[name] || good.layers[name].version !== bad.layers[name].version;
  });
}

export function planVariants(layers: readonly LayerName[]): VariantPlan[] {
  const all = (side: Side): Record<LayerName, Side> => {
    const take = {} as Record<LayerName, Side>;
    for (const n of ALL_LAYERS) take[n] = side;
    return take;
  };
  const plans: VariantPlan[] = [
    { id: 'good', label: 'all good', take: all('good') },
    { id: 'bad', label: 'all bad', take: all('bad') },
    { id: CONTROL_ID, label: 'all good, processes of its own (A/A control)', take: all('good') },
  ];
  for (const layer of layers) {
    plans.push({
      id: swapInId(layer),
      label: `good stack, ${layer} from bad`,
      take: { ...all('good'), [layer]: 'bad' },
      swapped: layer,
    });
    plans.push({
      id: swapOutId(layer),
      label: `bad stack, ${layer} from good`,
      take: { ...all('bad'), [layer]: 'good' },
      swapped: layer,
    });
  }
  return plans;
}

/**
 * Whether a case of `caseLayer` runs code of `layer`: the engine and the
 * runtime always; a code layer when it is the case's layer or one below it
 * (the stacks the unchanged-code guard uses, between-runs.ts, checked
 * against what every suite's cases call in suites/layer-use.test.ts); every
 * layer for a case of a layer those stacks do not know. A swap of a layer
 * the case does not run is the all-good or all-bad stack again for that case:
 * measuring it costs time and can only add noise to the attribution.
 */
export function caseRunsLayer(caseLayer: string, layer: LayerName): boolean {
  if (layer === 'bench-runner' || layer === 'runtime') return true;
  const stack = layerPackages(caseLayer);
  return stack === undefined || stack.includes(packageNameOf(layer));
}

/** The case layers (of the known stacks) a variant need not run: those that do not run the layer it swaps. */
export function caseLayersSkipped(plan: VariantPlan): string[] {
  const swapped = plan.swapped;
  if (swapped === undefined) return [];
  return knownCaseLayers().filter((caseLayer) => !caseRunsLayer(caseLayer, swapped));
}

/**
 * The case layers (of the known stacks) whose every layer is the same code on
 * both sides: their cases cannot have changed, and no variant measures them.
 * `differing` is every layer that differs, not only those swapped (--layers
 * may swap fewer; the good and bad stacks still differ in the others).
 */
export function identicalCaseLayers(differing: readonly LayerName[]): string[] {
  return knownCaseLayers().filter((caseLayer) => differing.every((layer) => !caseRunsLayer(caseLayer, layer)));
}

/** Whether a variant measures cases of `caseLayer`. */
export function variantRunsCase(plan: VariantPlan, caseLayer: string): boolean {
  return plan.swapped === undefined || caseRunsLayer(caseLayer, plan.swapped);
}

/** The folder of each code layer in a variant. */
export function dirsFor(
  plan: VariantPlan,
  good: ResolvedComposition,
  bad: ResolvedComposition,
): Record<CodeLayerName, string> {
  const dirs = {} as Record<CodeLayerName, string>;
  for (const name of CODE_LAYERS) dirs[name] = (plan.take[name] === 'good' ? good : bad).layers[name].dir;
  return dirs;
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
  const good = envs.good;
  const bad = envs.bad;
  if (!good || !bad) return changes;
  const causes = (value: (env: WorkerEnv) => string | undefined, badValue: string | undefined): string[] =>
    layers.filter((l) => {
      const env = envs[swapInId(l)];
      return env !== undefined && value(env) === badValue;
    });
  if (good.openssl !== bad.openssl) {
    changes.push({
      kind: 'openssl',
      what: 'OpenSSL',
      good: good.openssl,
      bad: bad.openssl,
      causedBy: causes((e) => e.openssl, bad.openssl),
    });
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
