import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { collectEnv } from '../env.js';
import { ResultFileError, readComparison, readRunResult, stringifyResult, writeResultFile } from './file.js';
import { computeStats } from '../stats/stats.js';
import { compareResults } from '../compare/compare.js';
import type { RunResult } from '../types.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-runner-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sampleRun(): RunResult {
  const samples = [366.1, 365.9, 367.2, 366.0, 370.4];
  return {
    kind: 'layerbench/run',
    schemaVersion: 1,
    createdAt: '2026-11-30T14:00:00.000Z',
    suites: ['cmac'],
    options: { timePerCase: 1 },
    env: collectEnv({
      capabilities: '078bffff 7ed8320b 209c01a9 00000000',
      dispatch: [{ layer: 'sha1-dispatch', decision: 'block', impl: 'unrolled', reason: 'fastest available' }],
      layers: [{ name: '@layerbench/cmac', version: '0.1.0', source: 'workspace' }],
    }),
    cases: [
      {
        id: 'cmac/aes-128/pl=48/preloaded',
        layer: 'cmac',
        params: { algorithm: 'AES-128', keyBytes: 16, packetBytes: 48, macBytes: 16, section: 'CMAC' },
        bytesPerOp: 48,
        status: 'ok',
        digest: '475ac1c053379e7dbd4ce80b87d2178e',
        samples,
        stats: computeStats(samples, 48),
      },
      {
        id: 'broken',
        layer: 'cmac',
        params: {},
        status: 'failed',
        error: { name: 'Error', message: 'boom' },
        samples: [],
      },
    ],
    overheadNs: 0.4,
  };
}

function writeRaw(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function problemOf(read: () => unknown): ResultFileError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ResultFileError);
    return error as ResultFileError;
  }
  throw new Error('expected a ResultFileError');
}

describe('result files', () => {
  it('round-trips a run through write and read', () => {
    const file = path.join(dir, 'nested', 'run.json');
    const run = sampleRun();
    writeResultFile(file, run);
    expect(readRunResult(file)).toEqual(run);
  });

  it('keeps unknown fields added within schema version 1', () => {
    const file = path.join(dir, 'extra.json');
    const run = { ...sampleRun(), note: 'added later' };
    writeResultFile(file, run);
    expect((readRunResult(file) as unknown as { note: string }).note).toBe('added later');
  });

  it('writes number arrays on one line', () => {
    const text = stringifyResult({ samples: [1, 2.5, -3e-7], nested: { a: [] } });
    expect(text).toContain('"samples": [1,2.5,-3e-7]');
    expect(JSON.parse(text)).toEqual({ samples: [1, 2.5, -3e-7], nested: { a: [] } });
  });

  it('leaves no temp file behind', () => {
    const sub = path.join(dir, 'atomic');
    writeResultFile(path.join(sub, 'a.json'), sampleRun());
    writeResultFile(path.join(sub, 'a.json'), sampleRun());
    expect(readdirSync(sub)).toEqual(['a.json']);
  });

  it('keeps the existing file intact when a write fails', () => {
    const sub = path.join(dir, 'failing');
    const file = path.join(sub, 'a.json');
    writeResultFile(file, sampleRun());
    const before = readFileSync(file, 'utf8');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => writeResultFile(file, circular)).toThrow(TypeError);
    // The rename fails when the target is a folder: the temp file must be cleaned up.
    mkdirSync(path.join(sub, 'folder.json'));
    expect(() => writeResultFile(path.join(sub, 'folder.json'), sampleRun())).toThrow();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(sub).sort()).toEqual(['a.json', 'folder.json']);
  });

  it('names a missing file', () => {
    const e = problemOf(() => readRunResult(path.join(dir, 'missing.json')));
    expect(e.problem).toBe('unreadable');
    expect(e.message).toContain('missing.json');
  });

  it('rejects an empty file', () => {
    const e = problemOf(() => readRunResult(writeRaw('empty.json', '  \n')));
    expect(e.problem).toBe('empty');
  });

  it('rejects a file that is not JSON', () => {
    const file = writeRaw('not-json.json', 'ns/op 366\n');
    const e = problemOf(() => readRunResult(file));
    expect(e.problem).toBe('corrupt-json');
    expect(e.file).toBe(file);
    expect(e.message).toMatch(/^.*not-json\.json: result file is not valid JSON/);
  });

  it('recognises a truncated file', () => {
    const full = stringifyResult(sampleRun());
    for (const cut of [10, Math.floor(full.length / 2), full.length - 2]) {
      const e = problemOf(() => readRunResult(writeRaw(`trunc-${cut}.json`, full.slice(0, cut))));
      expect(e.problem).toBe('truncated');
      expect(e.message).toContain('truncated');
    }
  });

  it('rejects a JSON value that is not an object', () => {
    expect(problemOf(() => readRunResult(writeRaw('array.json', '[1,2]'))).problem).toBe('not-an-object');
  });

  it('rejects the wrong kind', () => {
    const file = writeRaw('run-as-compare.json', stringifyResult(sampleRun()));
    const e = problemOf(() => readComparison(file));
    expect(e.problem).toBe('wrong-kind');
    expect(e.message).toContain('expected a layerbench/compare file, got kind "layerbench/run"');
  });

  it('rejects an unknown schema version', () => {
    const file = writeRaw('v2.json', stringifyResult({ ...sampleRun(), schemaVersion: 2 }));
    const e = problemOf(() => readRunResult(file));
    expect(e.problem).toBe('unknown-schema-version');
    expect(e.message).toContain('unknown schemaVersion 2');
  });

  it('names the field of a schema violation', () => {
    const run = sampleRun() as unknown as { cases: { stats: { median: unknown } }[] };
    run.cases[0]!.stats.median = 'fast';
    const e = problemOf(() => readRunResult(writeRaw('bad-field.json', stringifyResult(run))));
    expect(e.problem).toBe('schema-violation');
    expect(e.message).toContain('cases[0].stats.median');
  });

  it('rejects timings that are not positive', () => {
    for (const bad of [0, -1]) {
      const run = sampleRun();
      run.cases[0]!.samples = [366.1, bad, 367.2];
      const e = problemOf(() => readRunResult(writeRaw(`sample-${bad}.json`, stringifyResult(run))));
      expect(e.problem).toBe('schema-violation');
      expect(e.message).toContain('cases[0].samples[1]');
      expect(e.message).toContain('must be a positive number');
    }
    const run = sampleRun();
    run.cases[0]!.processFigures = { 'fastest-low': [366, 0] };
    const e = problemOf(() => readRunResult(writeRaw('figure-0.json', stringifyResult(run))));
    expect(e.message).toContain('processFigures.fastest-low[1]');
  });

  it('rejects summary statistics that are not speeds', () => {
    const spoils: [string, (stats: Record<string, unknown>) => void][] = [
      ['cases[0].stats.median', (stats) => (stats.median = 0)],
      ['cases[0].stats.opsPerSec', (stats) => (stats.opsPerSec = -2.7e6)],
      ['cases[0].stats.ci', (stats) => (stats.ci = [370, 365])],
      ['cases[0].stats.mad', (stats) => (stats.mad = -0.1)],
    ];
    for (const [field, spoil] of spoils) {
      const run = sampleRun();
      spoil(run.cases[0]!.stats as unknown as Record<string, unknown>);
      const e = problemOf(() => readRunResult(writeRaw('stats.json', stringifyResult(run))));
      expect(e.problem).toBe('schema-violation');
      expect(e.message).toContain(field);
    }
    // A case of no bytes has a throughput of 0: still a sound file.
    const run = sampleRun();
    run.cases[0]!.stats = computeStats(run.cases[0]!.samples, 0);
    expect(readRunResult(writeRaw('zero-bytes.json', stringifyResult(run))).cases[0]!.stats!.mbPerSec).toBe(0);
  });

  it("reads back a comparison's layer commits, and rejects a malformed one", () => {
    const found = {
      layer: 'cmac',
      folder: 'packages/cmac',
      good: 'a'.repeat(40),
      bad: 'b'.repeat(40),
      commits: [{ commit: 'c'.repeat(40), subject: 'cmac: slower' }],
      uncommitted: false,
    };
    const withCommits = { ...compareResults(sampleRun(), sampleRun()), layerCommits: [found] };
    expect(readComparison(writeRaw('commits.json', stringifyResult(withCommits))).layerCommits).toEqual([found]);
    const broken = { ...withCommits, layerCommits: [{ ...found, commits: [{ commit: 7 }] }] };
    const e = problemOf(() => readComparison(writeRaw('commits.json', stringifyResult(broken))));
    expect(e.problem).toBe('schema-violation');
    expect(e.message).toContain('layerCommits[0].commits[0]');
  });

  it('rejects a comparison with impossible ratios or p-values', () => {
    const spoils: [string, (comparison: Record<string, unknown>) => void][] = [
      ['cases[0].ratio', (c) => ((c.cases as Record<string, unknown>[])[0]!.ratio = -1.02)],
      ['cases[0].baseMedian', (c) => ((c.cases as Record<string, unknown>[])[0]!.baseMedian = 0)],
      ['cases[0].pValue', (c) => ((c.cases as Record<string, unknown>[])[0]!.pValue = 7)],
      ['geomean.ci', (c) => ((c.geomean as Record<string, unknown>).ci = [1.2, 0.9])],
    ];
    const sound = compareResults(sampleRun(), sampleRun());
    expect(readComparison(writeRaw('comparison.json', stringifyResult(sound))).cases).toHaveLength(1);
    for (const [field, spoil] of spoils) {
      const comparison = structuredClone(sound) as unknown as Record<string, unknown>;
      spoil(comparison);
      const e = problemOf(() => readComparison(writeRaw('comparison.json', stringifyResult(comparison))));
      expect(e.problem).toBe('schema-violation');
      expect(e.message).toContain(field);
    }
  });

  it('rejects calm levels that do not pair with the calm figures', () => {
    const run = sampleRun();
    run.cases[0]!.processFigures = { 'calm-relative': [0.35, 0.36] };
    run.cases[0]!.processCalmLevels = [4100, 4120, 4130];
    const e = problemOf(() => readRunResult(writeRaw('calm-levels.json', stringifyResult(run))));
    expect(e.message).toContain('cases[0].processCalmLevels');
    expect(e.message).toContain('3 level(s) for 2 calm figure(s)');
    run.cases[0]!.processCalmLevels = [4100, 4120];
    expect(readRunResult(writeRaw('calm-levels-ok.json', stringifyResult(run))).cases[0]!.processCalmLevels).toEqual([
      4100, 4120,
    ]);
  });

  it('rejects a case id that appears twice', () => {
    const run = sampleRun();
    run.cases[1] = { ...run.cases[0]!, samples: [...run.cases[0]!.samples] };
    const e = problemOf(() => readRunResult(writeRaw('twice.json', stringifyResult(run))));
    expect(e.problem).toBe('schema-violation');
    expect(e.message).toContain("cases[1].id: 'cmac/aes-128/pl=48/preloaded' is also cases[0].id");
  });

  it('names a missing env field', () => {
    const run = sampleRun() as unknown as { env: Record<string, unknown> };
    delete run.env.cpuModel;
    const e = problemOf(() => readRunResult(writeRaw('no-cpu.json', stringifyResult(run))));
    expect(e.message).toContain('env.cpuModel');
  });
});
