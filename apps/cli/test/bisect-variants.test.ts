// Which swaps a case is measured under: only those of layers it runs (its
// layer, the layers below it, the engine and the runtime). A swap of another
// layer is the all-good or all-bad stack again for that case, so bisect leaves
// it out for that case, in the worker (not built, not warmed) and in the
// analysis (the case's `layersNotRun`). That the stacks hold what each case
// really calls is src/suites/layer-use.test.ts.
import { describe, expect, it } from 'vitest';
import { layerFingerprint } from '@layerbench/bench-runner';
import { runBisect } from '../src/bisect/run.ts';
import { findRepoRoot, LayerResolver } from '../src/bisect/side-sources.ts';
import { CODE_LAYERS, parseSideSpec, type CodeLayerName } from '../src/bisect/side-spec.ts';
import {
  caseLayersSkipped,
  caseRunsLayer,
  identicalCaseLayers,
  identify,
  planVariants,
  variantRunsCase,
} from '../src/bisect/variants.ts';
import { CompositionWorker } from '../src/bisect/worker/client.ts';
import { join } from 'node:path';

describe('caseRunsLayer', () => {
  it.each([
    ['cmac', 'cmac', true],
    ['cmac', 'aes-core', true],
    ['cmac', 'sha1-dispatch', false],
    ['cmac', 'esp', false],
    ['sha1-dispatch', 'aes-core', false],
    ['sha1-dispatch', 'cmac', false],
    ['esp', 'aes-core', true],
    ['esp', 'sha1-dispatch', true],
    ['esp', 'cmac', false],
    ['aes-core', 'cmac', false],
    ['peers', 'aes-core', false],
    ['peers', 'bench-runner', true],
    ['peers', 'runtime', true],
    ['sha1-dispatch', 'bench-runner', true],
    ['sha1-dispatch', 'runtime', true],
  ] as const)('a %s case runs %s: %s', (caseLayer, layer, runs) => {
    expect(caseRunsLayer(caseLayer, layer)).toBe(runs);
  });
  it('a case of a layer the stacks do not know runs every layer (nothing is left out for it)', () => {
    for (const layer of [...CODE_LAYERS, 'runtime'] as const) expect(caseRunsLayer('someday', layer)).toBe(true);
  });
});

describe('the variants a case is measured under', () => {
  const plans = planVariants(['aes-core', 'sha1-dispatch', 'runtime']);
  const measuredFor = (caseLayer: string) => plans.filter((p) => variantRunsCase(p, caseLayer)).map((p) => p.id);
  it('good, bad and the A/A control always; swaps of the layers the case runs', () => {
    expect(measuredFor('cmac')).toEqual([
      'good',
      'bad',
      'control',
      'good+aes-core',
      'bad-aes-core',
      'good+runtime',
      'bad-runtime',
    ]);
    expect(measuredFor('sha1-dispatch')).toEqual([
      'good',
      'bad',
      'control',
      'good+sha1-dispatch',
      'bad-sha1-dispatch',
      'good+runtime',
      'bad-runtime',
    ]);
    expect(measuredFor('esp')).toEqual(plans.map((p) => p.id));
    expect(measuredFor('peers')).toEqual(['good', 'bad', 'control', 'good+runtime', 'bad-runtime']);
  });
  it("each variant's worker is told the case layers it skips, and they are the same ones", () => {
    const byId = new Map(plans.map((p) => [p.id, caseLayersSkipped(p)]));
    expect(byId.get('good')).toEqual([]);
    expect(byId.get('control')).toEqual([]);
    expect(byId.get('good+runtime')).toEqual([]);
    expect(byId.get('good+aes-core')).toEqual(['sha1-dispatch', 'peers']);
    expect(byId.get('bad-sha1-dispatch')).toEqual(['aes-core', 'cmac', 'peers']);
    for (const plan of plans)
      for (const caseLayer of caseLayersSkipped(plan)) expect(variantRunsCase(plan, caseLayer)).toBe(false);
  });
});

describe('identicalCaseLayers: the cases no variant measures', () => {
  it('are those of the case layers none of whose layers differ', () => {
    expect(identicalCaseLayers(['cmac'])).toEqual(['aes-core', 'sha1-dispatch', 'esp', 'peers']);
    expect(identicalCaseLayers(['aes-core'])).toEqual(['sha1-dispatch', 'peers']);
    expect(identicalCaseLayers(['sha1-dispatch'])).toEqual(['aes-core', 'cmac', 'peers']);
    expect(identicalCaseLayers(['esp'])).toEqual(['aes-core', 'cmac', 'sha1-dispatch', 'peers']);
    expect(identicalCaseLayers(['cmac', 'sha1-dispatch'])).toEqual(['aes-core', 'peers']);
    // The engine and the runtime run under every case.
    expect(identicalCaseLayers(['bench-runner'])).toEqual([]);
    expect(identicalCaseLayers(['runtime', 'cmac'])).toEqual([]);
    expect(identicalCaseLayers([])).toEqual(['aes-core', 'cmac', 'sha1-dispatch', 'esp', 'peers']);
  });
});

describe('a paired worker leaves out the cases a variant skips', () => {
  it('builds them in the variants that run them only', async () => {
    const root = findRepoRoot(process.cwd());
    const dirs = Object.fromEntries(CODE_LAYERS.map((l) => [l, join(root, 'packages', l)])) as Record<
      CodeLayerName,
      string
    >;
    const { worker, variants } = await CompositionWorker.startPaired(
      {
        nodePath: process.execPath,
        nodeVersion: process.version,
        suites: ['sha1', 'cmac'],
        filter: '^(sha1/64/dispatch|cmac/aes-128/pl=48/preloaded/table)$',
        warmupSeconds: 0.01,
      },
      [
        { tag: 'all', dirs },
        { tag: 'no-cmac', dirs, skipCaseLayers: ['cmac', 'aes-core'] },
      ],
    );
    try {
      const cases = Object.fromEntries(
        variants.map((v) => [v.tag, 'view' in v ? v.view.cases.map((c) => c.id) : v.problem.message]),
      );
      expect(cases).toEqual({
        all: ['sha1/64/dispatch', 'cmac/aes-128/pl=48/preloaded/table'],
        'no-cmac': ['sha1/64/dispatch'],
      });
      const kept = variants.find((v) => v.tag === 'no-cmac');
      if (!kept || !('view' in kept)) throw new Error('unreachable');
      // What it left out, by id and layer (bisect reports the cases no variant measured).
      expect(kept.view.skipped).toEqual([{ id: 'cmac/aes-128/pl=48/preloaded/table', layer: 'cmac' }]);
      expect((await kept.view.measure('sha1/64/dispatch', 0.02)).status).toBe('ok');
    } finally {
      await worker.close();
    }
  }, 60_000);
});

describe('runBisect leaves the cases whose code is identical on both sides unmeasured, and names them', () => {
  it('measures the cmac case only when cmac alone differs, and lists the SHA-1 case as identical code', async () => {
    const root = findRepoRoot(process.cwd());
    const resolver = new LayerResolver({ repoRoot: root });
    const side = resolver.resolve(parseSideSpec('workspace', '--good'));
    const good = identify(side, layerFingerprint);
    // The same folders on both sides, told apart by cmac's code only: what a cmac-only commit gives.
    const bad = { ...good, code: { ...good.code, cmac: `${good.code.cmac}-changed` } };
    const result = await runBisect({
      good: side,
      bad: side,
      goodId: good,
      badId: bad,
      layers: [],
      suites: ['sha1', 'cmac'],
      filter: '^(sha1/64/dispatch|cmac/aes-128/pl=48/preloaded/table)$',
      peers: false,
      timePerCase: 0.06,
      rounds: 2,
      processes: 2,
      paired: true,
      visitPercentile: 10,
      threshold: 0.03,
      alpha: 0.01,
      machine: { cpuModel: 'test', cpuCount: 2, os: 'linux' },
      cpu: { why: 'not pinned (test)' },
    });
    expect(result.cases.map((c) => c.id)).toEqual(['cmac/aes-128/pl=48/preloaded/table']);
    expect(result.cases[0]!.status).toBe('ok');
    expect(result.identicalCode).toEqual(['sha1/64/dispatch']);
    expect(result.complete).toBe(true);
  }, 120_000);
});
