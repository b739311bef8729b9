// Which swaps a case is measured under: only those of layers it runs (its
// layer, the layers below it, the engine and the runtime). A swap of another
// layer is the all-good or all-bad stack again for that case, so bisect leaves
// it out for that case, in the worker (not built, not warmed) and in the
// analysis (the case's `layersNotRun`). That the stacks hold what each case
// really calls is src/suites/layer-use.test.ts.
import { describe, expect, it } from 'vitest';
import { findRepoRoot } from '../src/bisect/side-sources.ts';
import { CODE_LAYERS, type CodeLayerName } from '../src/bisect/side-spec.ts';
import { caseLayersSkipped, caseRunsLayer, planVariants, variantRunsCase } from '../src/bisect/variants.ts';
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
      expect((await kept.view.measure('sha1/64/dispatch', 0.02)).status).toBe('ok');
    } finally {
      await worker.close();
    }
  }, 60_000);
});
