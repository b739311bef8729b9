// `layerbench env`, `mem` and `calibrate` end to end: output shapes and exit codes.
import type { Calibration, EnvFingerprint, MemResult } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { lines, runCli } from './spawn-cli.js';

const layerNames = ['@layerbench/aes-core', '@layerbench/cmac', '@layerbench/sha1-dispatch', '@layerbench/esp', '@layerbench/bench-runner'];

describe('env', () => {
  it('prints the capability line first, then dispatch, runtime and layers', async () => {
    const result = await runCli(['env']);
    expect(result.code, result.stderr).toBe(0);
    const out = lines(result.stdout);
    expect(out[0]).toMatch(/^CPU capabilities: [0-9a-f]/);
    const sections = ['Dispatch decisions:', 'Runtime:', 'Layers:'].map((heading) => out.indexOf(heading));
    expect(sections.every((index) => index > 0)).toBe(true);
    expect([...sections].sort((a, b) => a - b)).toEqual(sections);
    expect(result.stdout).toContain(`node ${process.version}`);
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
    expect(env.node).toBe(process.version);
    expect(env.capabilities).toMatch(/\S/);
    expect(env.layers.map((layer) => layer.name).sort()).toEqual([...layerNames].sort());
    for (const decision of env.dispatch) expect(decision.reason).not.toBe('');
  });
});

describe('mem', () => {
  it('prints bytes per object for the keyed objects of the layers', async () => {
    const result = await runCli(['mem', 'cmac', '--count', '200']);
    expect(result.code, result.stderr).toBe(0);
    const out = lines(result.stdout);
    expect(out[0]).toMatch(/^object +heap B +external B +arrayBuffers B +total B$/);
    expect(out.length).toBeGreaterThan(1);
    for (const row of out.slice(1)) expect(row).toMatch(/^\S+ +-?\d+ +-?\d+ +-?\d+ +-?\d+$/);
  });

  it('--format json prints the memory results', async () => {
    const result = await runCli(['mem', 'cmac', '--count', '200', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const results = JSON.parse(result.stdout) as MemResult[];
    expect(results.length).toBeGreaterThan(0);
    for (const memResult of results) expect(memResult.status).toBe('ok');
  });
});

describe('calibrate', () => {
  it('prints the false-alarm rate and the minimum detectable effect', async () => {
    const result = await runCli(['calibrate', '--time', '0.02', '--repeats', '2']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^False-alarm rate \(A\/A\): [\d.]+% \[/m);
    expect(result.stdout).toMatch(/^Minimum detectable effect: /m);
    expect(result.stdout).toMatch(/^Timing overhead of an empty case: [\d.]+ ns\/op/m);
  });

  it('--format json prints the calibration file', async () => {
    const result = await runCli(['calibrate', '--time', '0.02', '--repeats', '2', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const calibration = JSON.parse(result.stdout) as Calibration;
    expect(calibration.kind).toBe('layerbench/calibration');
    expect(calibration.repeats).toBe(2);
  });
});
