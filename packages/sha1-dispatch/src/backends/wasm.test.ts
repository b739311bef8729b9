// The shipped WebAssembly bytes cannot drift from sha1.wat, and the generated
// sources cannot drift from their generators.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assembleWat } from '../../scripts/build-wasm.mjs';
import { decodeBase64, wasmLoadError, wasmLoads } from './wasm.js';
import { sha1WasmBase64 } from './sha1-wasm.generated.js';

const pkg = fileURLToPath(new URL('../../', import.meta.url));

describe('wasm backend build', () => {
  it('re-assembling sha1.wat gives exactly the committed bytes', async () => {
    const wat = readFileSync(`${pkg}src/backends/sha1.wat`, 'utf8');
    const fresh = await assembleWat(wat);
    const committed = decodeBase64(sha1WasmBase64);
    expect(committed.length).toBe(fresh.length);
    expect(Buffer.from(committed).equals(Buffer.from(fresh))).toBe(true);
  });

  it('sha1.wat, unrolled.generated.ts and sha1-wasm.generated.ts are what their scripts emit', () => {
    for (const script of ['gen-wat.mjs', 'gen-unrolled.mjs', 'build-wasm.mjs']) {
      expect(
        () => execFileSync(process.execPath, [`${pkg}scripts/${script}`, '--check'], { stdio: 'pipe' }),
        script,
      ).not.toThrow();
    }
  });

  it('loads synchronously here', () => {
    expect(wasmLoads()).toBe(true);
    expect(wasmLoadError()).toBeUndefined();
  });
});
