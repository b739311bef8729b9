import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { collectEnv, contentHash, layerFingerprint, machineId } from './env.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-runner-env-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('collectEnv', () => {
  it('describes the runtime and merges what the layers report', () => {
    const env = collectEnv({
      capabilities: 'ffebffff 7ffef3ff 000037ab 00000000',
      dispatch: [{ layer: 'sha1-dispatch', decision: 'block', impl: 'generic', reason: 'forced' }],
    });
    expect(env.node).toBe(process.versions.node);
    expect(env.v8).toBe(process.versions.v8);
    expect(env.openssl).toBe(process.versions.openssl);
    expect(env.cpuCount).toBeGreaterThan(0);
    expect(env.loadAvgStart).toHaveLength(3);
    expect(env.capabilities).toBe('ffebffff 7ffef3ff 000037ab 00000000');
    expect(env.dispatch[0]!.impl).toBe('generic');
    expect(env.layers).toEqual([]);
    expect(env.machineId).toBe(machineId());
  });
  it('machineId is a short stable hex hash without the hostname', () => {
    expect(machineId()).toMatch(/^[0-9a-f]{12}$/);
    expect(machineId()).toBe(machineId());
  });
});

describe('layerFingerprint', () => {
  it('reads name and version and hashes the built code of a workspace package', () => {
    const fp = layerFingerprint(packageDir, 'workspace');
    expect(fp.name).toBe('@layerbench/bench-runner');
    expect(fp.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(fp.source).toBe('workspace');
    expect(fp.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(fp.commit).toMatch(/^[0-9a-f]{40}$/);
  });
  it('works outside a git checkout and hashes dist contents independent of order', () => {
    const pkg = path.join(tmp, 'pkg');
    mkdirSync(path.join(pkg, 'dist', 'sub'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'x', version: '1.2.3' }));
    writeFileSync(path.join(pkg, 'dist', 'b.js'), 'b');
    writeFileSync(path.join(pkg, 'dist', 'sub', 'a.js'), 'a');
    const fp = layerFingerprint(pkg);
    expect(fp).toEqual({ name: 'x', version: '1.2.3', contentHash: contentHash(path.join(pkg, 'dist')) });
    writeFileSync(path.join(pkg, 'dist', 'b.js'), 'changed');
    expect(layerFingerprint(pkg).contentHash).not.toBe(fp.contentHash);
  });
  it('hashes the code that runs, not source maps, declarations or build info (two checkouts of the same code are one layer)', () => {
    const make = (name: string, js: string, checkout: string) => {
      const pkg = path.join(tmp, name);
      mkdirSync(path.join(pkg, 'dist'), { recursive: true });
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
      writeFileSync(path.join(pkg, 'dist', 'index.js'), js);
      writeFileSync(path.join(pkg, 'dist', 'index.js.map'), `{"sources":["${checkout}/src/index.ts"]}`);
      writeFileSync(path.join(pkg, 'dist', 'index.d.ts'), `// ${checkout}`);
      writeFileSync(path.join(pkg, 'dist', '.tsbuildinfo'), checkout);
      return layerFingerprint(pkg).contentHash;
    };
    const a = make('hash-a', 'export const x = 1;\n', '/checkout/one');
    expect(make('hash-b', 'export const x = 1;\n', '/checkout/two')).toBe(a);
    expect(make('hash-c', 'export const x = 2;\n', '/checkout/one')).not.toBe(a);
  });
  it('fails clearly without a package.json', () => {
    expect(() => layerFingerprint(path.join(tmp, 'nothing'))).toThrow(/cannot read .*package\.json/);
  });
});
