// A machine without chromium or tshark: the tests that need them are skipped
// with one line saying what and how to enable it, and under CI=true they fail
// instead. Checked on the helper itself (an empty PATH) and end to end: this
// package's Chromium test run by vitest with a PATH that holds only node.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumProgram, debianProgram, tsharkProgram } from '#vectors';

const nodeOnly = mkdtempSync(join(tmpdir(), 'path-node-only-'));
symlinkSync(process.execPath, join(nodeOnly, 'node'));
afterAll(() => rmSync(nodeOnly, { recursive: true, force: true }));

describe('debianProgram', () => {
  const need = { name: 'tshark', pathVariable: 'TSHARK_PATH', what: 'the probe' };

  it('finds a program on PATH', () => {
    const warnings: string[] = [];
    const found = debianProgram({ ...need, name: 'node' }, { PATH: nodeOnly }, (line) => warnings.push(line));
    expect(found.path).toBe(join(nodeOnly, 'node'));
    expect(found.skip).toBe(false);
    expect(found.require()).toBe(found.path);
    expect(warnings).toEqual([]);
  });

  it('missing outside CI: skip, with one line naming what is skipped and how to install it', () => {
    const warnings: string[] = [];
    const missing = debianProgram(need, { PATH: nodeOnly }, (line) => warnings.push(line));
    expect(missing.skip).toBe(true);
    expect(warnings).toEqual([
      'SKIPPED (missing program): the probe: tshark is not on PATH; to run it: apt-get install tshark (or set TSHARK_PATH); under CI=true this fails',
    ]);
  });

  it('missing under CI=true: not skipped, and the test fails naming the program', () => {
    const warnings: string[] = [];
    const missing = debianProgram(need, { PATH: nodeOnly, CI: 'true' }, (line) => warnings.push(line));
    expect(missing.skip).toBe(false);
    expect(warnings).toEqual([]);
    expect(() => missing.require()).toThrow(
      /^tshark is required under CI=true for the probe: tshark is not on PATH \(apt-get install tshark, or set TSHARK_PATH\)$/,
    );
  });

  it('an override that does not exist is missing too, and says so', () => {
    const warnings: string[] = [];
    debianProgram(need, { PATH: nodeOnly, TSHARK_PATH: '/nonexistent/tshark' }, (line) => warnings.push(line));
    expect(warnings[0]).toMatch(/TSHARK_PATH=\/nonexistent\/tshark is not an executable file/);
  });

  it('chromium and tshark are looked up the same way', () => {
    const quiet = { PATH: nodeOnly, CI: 'true' };
    expect(() => chromiumProgram(quiet).require()).toThrow(
      /^chromium is required under CI=true .*apt-get install chromium/,
    );
    expect(() => tsharkProgram(quiet).require()).toThrow(/^tshark is required under CI=true .*apt-get install tshark/);
  });
});

describe("this package's Chromium test on a machine without chromium (PATH holds only node)", () => {
  const vitest = join(createRequire(import.meta.url).resolve('vitest/package.json'), '..', 'vitest.mjs');
  const run = (extra: NodeJS.ProcessEnv) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env))
      if (!key.startsWith('VITEST') && key !== 'CHROMIUM_PATH' && key !== 'CI') env[key] = value;
    const result = spawnSync(process.execPath, [vitest, 'run', 'test/html.test.ts'], {
      env: { ...env, PATH: nodeOnly, NO_COLOR: '1', ...extra },
      encoding: 'utf8',
      timeout: 220_000,
    });
    return { code: result.status, output: `${result.stdout}${result.stderr}` };
  };

  // A whole vitest run in a child: slow on a loaded 2-core machine.
  const childRunTimeout = 240_000;

  it(
    'is skipped with one loud line, and the run passes',
    () => {
      const { code, output } = run({});
      expect(output.match(/SKIPPED \(missing program\).*$/gm)).toEqual([
        'SKIPPED (missing program): the HTML report checked in Chromium (apps/ci-report): chromium is not on PATH; to run it: apt-get install chromium (or set CHROMIUM_PATH); under CI=true this fails',
      ]);
      expect(output).toMatch(/Tests\s+\d+ skipped/);
      expect(code).toBe(0);
    },
    childRunTimeout,
  );

  it(
    'fails under CI=true, naming chromium',
    () => {
      const { code, output } = run({ CI: 'true' });
      expect(output).not.toMatch(/SKIPPED/);
      expect(output).toMatch(/chromium is required under CI=true/);
      expect(code).not.toBe(0);
    },
    childRunTimeout,
  );
});
