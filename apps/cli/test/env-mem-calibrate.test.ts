// `layerbench env`, `mem` and `calibrate` end to end: output shapes and exit codes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCalibration } from '@layerbench/bench-runner/results';
import type { EnvFingerprint, MemResult } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { heavyTestTimeout, lines, runCli } from './spawn-cli.js';

const layerNames = ['@layerbench/aes-core', '@layerbench/cmac', '@layerbench/sha1-dispatch', '@layerbench/esp', '@layerbench/bench-runner'];

describe('env', { timeout: heavyTestTimeout }, () => {
  it('prints the capability line first, then dispatch, runtime and layers', async () => {
    const result = await runCli(['env']);
    expect(result.code, result.stderr).toBe(0);
    const out = lines(result.stdout);
    expect(out[0]).toMatch(/^CPU capabilities: [0-9a-f]/);
    const sections = ['Dispatch decisions:', 'Runtime:', 'Layers:'].map((heading) => out.indexOf(heading));
    expect(sections.every((index) => index > 0)).toBe(true);
    expect([...sections].sort((a, b) => a - b)).toEqual(sections);
    expect(result.stdout).toContain(`node ${process.versions.node}`);
    expect(result.stdout).toContain(`OpenSSL ${process.versions.openssl}`);
    for (const name of layerNames) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\d+\\.\\d+\\.\\d+ +workspace`, 'm'));
    // Every reported dispatch decision has a reason.
    const dispatchLines = out.slice(sections[0]! + 1, sections[1]!);
    expect(dispatchLines.length).toBeGreaterThan(0);
    for (const line of dispatchLines) expect(line).toMatch(/-> \S+ +\S/);
  });

  it('--format json prints the fingerprint a run records', async () => {
    const result = await runCli(['env', '--format', 'json']);
    expect(result.code).toBe(0);
    const env = JSON.parse(result.stdout) as EnvFingerprint;
    expect(env.node).toBe(process.versions.node);
    expect(env.capabilities).toMatch(/\S/);
    expect(env.layers.map((layer) => layer.name).sort()).toEqual([...layerNames].sort());
    for (const decision of env.dispatch) expect(decision.reason).not.toBe('');
  });
});

describe('mem', { timeout: heavyTestTimeout }, () => {
  it('prints bytes per object for the keyed objects of the layers', async () => {
    const result = await runCli(['mem', 'cmac', '--count', '200', '--filter', 'aes-128/preloaded']);
    expect(result.code, result.stderr).toBe(0);
    const out = lines(result.stdout);
    expect(out[0]).toMatch(/^object +heap B +external B +arrayBuffers B +total B$/);
    expect(out.length).toBeGreaterThan(1);
    for (const row of out.slice(1)) expect(row).toMatch(/^\S+ +-?\d+ +-?\d+ +-?\d+ +-?\d+$/);
  });

  it('--format json prints the memory results', async () => {
    const result = await runCli(['mem', 'cmac', '--count', '200', '--filter', 'aes-128/preloaded', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const results = JSON.parse(result.stdout) as MemResult[];
    expect(results.length).toBeGreaterThan(0);
    for (const memResult of results) expect(memResult.status).toBe('ok');
  });
});

describe('calibrate', { timeout: heavyTestTimeout }, () => {
  it('prints the false-alarm rate and the minimum detectable effect; --out writes the calibration file', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-calibrate-'));
    try {
      const out = join(work, 'calibration.json');
      const result = await runCli(['calibrate', '--time', '0.02', '--repeats', '2', '--out', out]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^False-alarm rate \(A\/A\): [\d.]+% \[/m);
      expect(result.stdout).toMatch(/^Minimum detectable effect: /m);
      expect(result.stdout).toMatch(/^Timing overhead of an empty case: [\d.]+ ns\/op/m);
      const calibration = readCalibration(out);
      expect(calibration.repeats).toBe(2);
      expect(calibration.timePerCase).toBe(0.02);
      expect(result.stdout).toContain(`False-alarm rate (A/A): ${(calibration.falseAlarmRate * 100).toFixed(1)}%`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
