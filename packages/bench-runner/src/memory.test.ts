import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { measureMemory } from './memory.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-runner-mem-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('measureMemory', () => {
  it('charges each object its buffer and its heap share; isolates a failing factory', async () => {
    const results = await measureMemory(
      [
        { id: 'buffer-1k', layer: 'test', params: {}, create: () => new Uint8Array(1024) },
        {
          id: 'numbers',
          layer: 'test',
          params: {},
          create: () => ({ values: Array.from({ length: 64 }, (_, i) => i + 0.5) }),
        },
        {
          id: 'throws',
          layer: 'test',
          params: {},
          create: () => {
            throw new RangeError('no key');
          },
        },
      ],
      { count: 2000 },
    );
    const [buffer, numbers, throws] = results;
    expect(buffer!.status).toBe('ok');
    expect(buffer!.count).toBe(2000);
    // 1024 bytes of backing store per object (allocator rounding allowed).
    expect(buffer!.perObject.arrayBuffers).toBeGreaterThanOrEqual(1000);
    expect(buffer!.perObject.arrayBuffers).toBeLessThan(1200);
    expect(buffer!.perObject.total).toBeCloseTo(buffer!.perObject.heapUsed + buffer!.perObject.external, 9);
    // 64 boxed doubles are at least 64 * 8 bytes on the heap.
    expect(numbers!.perObject.heapUsed).toBeGreaterThan(512);
    expect(numbers!.perObject.arrayBuffers).toBeLessThan(16);
    expect(throws!.status).toBe('failed');
    expect(throws!.error).toEqual({ name: 'RangeError', message: 'no key' });
  });
  it('rejects a bad count', async () => {
    await expect(measureMemory([], { count: 0 })).rejects.toThrow(RangeError);
  });
});

describe('ensureExposedGc', () => {
  it('re-runs the command with --expose-gc and passes on the exit code (uses the built dist)', () => {
    const dist = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js')).href;
    const script = path.join(tmp, 'child.mjs');
    writeFileSync(
      script,
      `import { ensureExposedGc } from ${JSON.stringify(dist)};
       if (!ensureExposedGc()) { console.log('parent done, exitCode ' + process.exitCode); process.exit(); }
       console.log('child has gc: ' + typeof globalThis.gc + ', argv ' + process.argv.slice(2).join(' '));
       process.exit(3);`,
    );
    const out = spawnSync(process.execPath, [script, 'one', 'two'], {
      encoding: 'utf8',
      env: { ...process.env, LAYERBENCH_EXPOSE_GC_CHILD: '' },
    });
    expect(out.stdout).toContain('child has gc: function, argv one two');
    expect(out.stdout).toContain('parent done, exitCode 3');
    expect(out.status).toBe(3);
  });
});
