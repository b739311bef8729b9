// The build stamp (scripts/build-stamp.mjs) and what the CLI makes of it: a
// layer whose src/ moved on after its build is named with the files that
// changed; test files, and packages built without a stamp, are not.
import { mkdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distDigest, sourceDigests, staleSources, stampFile, writeStamp } from '../../../scripts/build-stamp.mjs';
import { staleBuildProblem } from './built-from.js';
import { enginePackage, layerPackages } from './layer-env.js';
import { stampedPackages, workspaceBuildProblems } from './layers.js';

describe('build stamp', () => {
  let pkg: string;
  const put = (rel: string, text: string) => {
    mkdirSync(join(pkg, rel, '..'), { recursive: true });
    writeFileSync(join(pkg, rel), text);
  };
  beforeEach(() => {
    pkg = mkdtempSync(join(tmpdir(), 'layerbench-stamp-'));
    put('src/index.ts', 'export const a = 1;\n');
    put('src/backends/ct.ts', 'export const b = 2;\n');
    put('src/index.test.ts', 'test\n');
    put('src/test/helper.ts', 'helper\n');
  });
  afterEach(() => rmSync(pkg, { recursive: true, force: true }));

  it('records the sources that are not tests', () => {
    expect(Object.keys(sourceDigests(pkg))).toEqual(['src/backends/ct.ts', 'src/index.ts']);
    writeStamp(pkg);
    expect(staleSources(pkg)).toBeUndefined();
    expect(staleBuildProblem(pkg)).toBeUndefined();
  });

  it('names the files changed, added and removed since the build', () => {
    writeStamp(pkg);
    put('src/backends/ct.ts', 'export const b = 3;\n');
    put('src/new.ts', 'export {};\n');
    rmSync(join(pkg, 'src/index.ts'));
    expect(staleSources(pkg)).toEqual({
      changed: ['src/backends/ct.ts'],
      added: ['src/new.ts'],
      removed: ['src/index.ts'],
    });
    expect(staleBuildProblem(pkg, 'rebuild it')).toBe(
      'dist/ was built from other sources than src/ holds now (changed since the build: src/backends/ct.ts, ' +
        'src/new.ts (new), src/index.ts (removed)); rebuild it',
    );
  });

  it('counts a comment as a change and lists at most three files', () => {
    writeStamp(pkg);
    for (const f of ['a', 'b', 'c', 'd']) put(`src/${f}.ts`, '// x\n');
    expect(staleBuildProblem(pkg)).toMatch(/src\/a\.ts \(new\), src\/b\.ts \(new\), src\/c\.ts \(new\) and 1 more\)/);
  });

  it('leaves a build current when only tests change', () => {
    writeStamp(pkg);
    put('src/index.test.ts', 'changed\n');
    put('src/test/helper.ts', 'changed\n');
    put('src/more.test.ts', 'new\n');
    expect(staleSources(pkg)).toBeUndefined();
  });

  it("cannot tell once dist/ was rebuilt without a stamp (an older commit's build)", () => {
    put('dist/index.js', 'export const a = 1;\n');
    writeStamp(pkg);
    put('src/index.ts', 'export const a = 0;\n');
    expect(staleSources(pkg)?.changed).toEqual(['src/index.ts']);
    // The older build wrote its own dist/ and left the stamp of the newer one.
    put('dist/index.js', 'export const a = 0;\n');
    expect(staleSources(pkg)).toBeUndefined();
  });

  it('cannot tell without a readable stamp', () => {
    expect(staleSources(pkg)).toBeUndefined();
    writeFileSync(join(pkg, stampFile), '{ not json');
    expect(staleSources(pkg)).toBeUndefined();
    writeFileSync(join(pkg, stampFile), JSON.stringify({ kind: 'something-else', sources: {} }));
    expect(staleSources(pkg)).toBeUndefined();
  });
});

describe("this workspace's build", () => {
  it('stamps every layer, the engine, the CLI and the peers, and is current (npm test builds first)', () => {
    const stamped = stampedPackages();
    expect(stamped.map(([name]) => name)).toEqual([
      ...Object.values(layerPackages),
      enginePackage,
      '@layerbench/cli',
      '@layerbench/peers',
    ]);
    for (const [name, dir] of stamped) {
      // The stamp is of this dist/, so the comparison below is made, not skipped.
      const stamp = JSON.parse(readFileSync(join(dir, stampFile), 'utf8')) as { dist: string };
      expect(stamp.dist, name).toBe(distDigest(dir));
    }
    expect(workspaceBuildProblems()).toEqual([]);
  });
});
