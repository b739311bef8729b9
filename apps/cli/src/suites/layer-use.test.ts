// What each case really runs, against the layer stacks bisect relies on: a
// swap of a layer a case does not run is not measured for that case
// (bisect/variants.ts, caseRunsLayer), so a stack that left out a layer a
// case calls would hide that layer's regression in that case, and blame
// another. Every suite is built on layers whose every function, and every
// object those functions return, records the layer it came from when
// called; each case is then set up and run, and what it called must lie in
// its layer's stack. The recorder must also see each case call its own
// layer, so a recorder that records nothing fails here too.
import { describe, expect, it } from 'vitest';
import { layerPackages } from '../between-runs.js';
import { caseRunsLayer } from '../bisect/variants.js';
import { LAYER_KEYS } from '../bisect/worker/load-layers.js';
import { loadWorkspaceLayers, type Layers } from '../layers.js';
import { allSuites, peersSuite } from './index.js';

type LayerKey = keyof Layers;

/**
 * The Layers keys of the code layers bisect takes a case of `caseLayer` to run
 * (caseRunsLayer, the predicate bisect itself uses); undefined for a layer the
 * stacks do not know.
 */
function stackKeys(caseLayer: string): Set<LayerKey> | undefined {
  if (layerPackages(caseLayer) === undefined) return undefined;
  const keys = new Set<LayerKey>();
  for (const [layer, key] of Object.entries(LAYER_KEYS) as [keyof typeof LAYER_KEYS, LayerKey][]) {
    if (caseRunsLayer(caseLayer, layer)) keys.add(key);
  }
  return keys;
}

/**
 * `real` with every function (and what it returns, and their methods)
 * adding its layer's key to `called` when called. Proxies over shadow
 * targets, so frozen objects and class instances with private fields work:
 * calls reach the real function with the real `this` and arguments.
 */
function recordingLayers(real: Layers, called: Set<LayerKey>): Layers {
  const proxyOf = new WeakMap<object, object>();
  const realOf = new WeakMap<object, object>();
  const unwrap = (v: unknown): unknown =>
    (typeof v === 'object' || typeof v === 'function') && v !== null && realOf.has(v) ? realOf.get(v) : v;
  const wrap = (key: LayerKey, v: unknown): unknown => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
    if (realOf.has(v) || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
    if (v instanceof Promise) return v.then((x: unknown) => wrap(key, x));
    const known = proxyOf.get(v);
    if (known) return known;
    // A plain function as the shadow of a function: it must be constructible for `new` to reach the trap.
    const shadow: object = typeof v === 'function' ? function shadowFn() {} : Array.isArray(v) ? [] : {};
    const proxy = new Proxy(shadow, {
      get: (_t, prop) => wrap(key, Reflect.get(v, prop)),
      set: (_t, prop, value) => Reflect.set(v, prop, unwrap(value)),
      has: (_t, prop) => Reflect.has(v, prop),
      ownKeys: () => Reflect.ownKeys(v),
      getOwnPropertyDescriptor: (_t, prop) => {
        const d = Reflect.getOwnPropertyDescriptor(v, prop);
        return d && { ...d, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(v),
      apply: (_t, self, args: unknown[]) => {
        called.add(key);
        return wrap(key, Reflect.apply(v as (...a: unknown[]) => unknown, unwrap(self), args.map(unwrap)));
      },
      construct: (_t, args: unknown[]) => {
        called.add(key);
        return wrap(key, Reflect.construct(v as new (...a: unknown[]) => object, args.map(unwrap))) as object;
      },
    });
    proxyOf.set(v, proxy);
    realOf.set(proxy, v);
    return proxy;
  };
  const out = {} as Record<LayerKey, unknown>;
  for (const key of Object.keys(real) as LayerKey[]) out[key] = wrap(key, real[key]);
  return out as unknown as Layers;
}

const real = await loadWorkspaceLayers();

describe('the recorder', () => {
  it('records the layer of a function, of what it returns and of its methods, and nothing for data', async () => {
    const called = new Set<LayerKey>();
    const layers = recordingLayers(real, called);
    const key = new Uint8Array(16);
    void layers.aes.AES_BACKEND_ENV;
    void layers.aes.aesBackends;
    expect([...called]).toEqual([]);
    const cipher = layers.aes.createAes(key);
    expect([...called]).toEqual(['aes']);
    called.clear();
    cipher.encryptBlock(new Uint8Array(16), new Uint8Array(16));
    expect([...called]).toEqual(['aes']);
    called.clear();
    // A cipher handed to another layer is the real one there: that layer's own calls are its own.
    const mac = new layers.cmac.Cmac(cipher);
    expect(mac.mac(new Uint8Array(48))).toHaveLength(16);
    expect([...called]).toEqual(['cmac']);
  });
});

for (const suite of allSuites) {
  describe(`suite ${suite.name}: every case calls only its layer's stack`, () => {
    it('when built, set up and run', async () => {
      const called = new Set<LayerKey>();
      const cases = suite.cases(recordingLayers(real, called), { esptestSeconds: 1 });
      expect(cases.length).toBeGreaterThan(0);
      // Calls while building are the suite's: they must lie in the stack of some case of it (the peers suite
      // builds every layer suite and keeps only their peer cases, which call no layer when set up and run).
      const union = new Set<LayerKey>();
      for (const c of cases) for (const k of stackKeys(c.layer) ?? []) union.add(k);
      const buildOutside = [...called].filter((k) => !union.has(k));
      if (suite !== peersSuite) expect(buildOutside, `${suite.name}: layers called while building`).toEqual([]);
      for (const c of cases) {
        const stack = stackKeys(c.layer);
        expect(stack, `${c.id}: its layer '${c.layer}' has a known stack`).toBeDefined();
        called.clear();
        const instance = await c.setup();
        instance.fn();
        instance.fn();
        instance.digest();
        instance.teardown?.();
        const outside = [...called].filter((k) => !stack!.has(k));
        expect(outside, `${c.id} (layer ${c.layer}) calls layers outside its stack`).toEqual([]);
        const own = LAYER_KEYS[c.layer as keyof typeof LAYER_KEYS];
        if (own !== undefined) expect(called.has(own), `${c.id} is seen calling its own layer`).toBe(true);
      }
    });
  });
}
