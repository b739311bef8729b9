import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResultFileError, writeResultFile } from './file.js';
import { readFindResult, type FindResult } from './find-schema.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-runner-find-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const effect = (ratio: number, verdict: 'regressed' | 'unchanged' | 'inconclusive') => ({
  ratio,
  ci: [ratio * 0.98, ratio * 1.02] as [number, number],
  pValue: verdict === 'regressed' ? 0.0001 : 0.5,
  verdict,
});

function sampleFind(): FindResult {
  const c = (n: number) => ({ commit: `${n}`.repeat(40).slice(0, 40), subject: `commit ${n}` });
  return {
    kind: 'layerbench/find',
    schemaVersion: 1,
    createdAt: '2026-12-02T23:00:00.000Z',
    caseId: 'sha1/1500/wasm',
    options: {
      suites: ['sha1'],
      filter: '^sha1/1500/wasm$',
      timePerStep: 1,
      rounds: 12,
      processes: 6,
      paired: true,
      visitPercentile: 10,
      threshold: 0.03,
      alpha: 0.01,
    },
    machine: { cpuModel: 'Example CPU', cpuCount: 2, os: 'linux x64', node: 'v20.20.2' },
    good: { ref: 'v0.1.0', ...c(0) },
    bad: { ref: 'HEAD', ...c(3) },
    commits: [c(1), c(2), c(3)],
    whole: effect(1.06, 'regressed'),
    control: effect(1.0, 'unchanged'),
    steps: [
      {
        ...c(2),
        position: 2,
        outcome: 'changed',
        vsGood: effect(1.061, 'regressed'),
        vsBad: effect(1.001, 'unchanged'),
        fromHalfway: effect(1.03, 'regressed'),
        processes: 6,
        text: '  bad  2222222222  (2/3) ...',
      },
      { ...c(1), position: 1, outcome: 'skip', reason: 'does not build or load: tsc failed', text: '  skip ...' },
    ],
    answer: { status: 'found', first: c(2), candidates: [], message: 'first commit where sha1/1500/wasm changed' },
    exitCode: 0,
    complete: true,
  };
}

describe('the find result file', () => {
  it('round-trips through an atomic write and a validating read', () => {
    const file = path.join(dir, 'find.json');
    writeResultFile(file, sampleFind());
    expect(readFindResult(file)).toEqual(sampleFind());
  });

  it.each([
    ['an unknown answer status', (r: Record<string, unknown>) => ((r.answer as { status: string }).status = 'maybe')],
    [
      'a step without its outcome',
      (r: Record<string, unknown>) => delete (r.steps as object[])[0]!['outcome' as never],
    ],
    ['a non-finite ratio', (r: Record<string, unknown>) => ((r.whole as { ratio: unknown }).ratio = 'NaN')],
    ['a ratio of 0', (r: Record<string, unknown>) => ((r.whole as { ratio: unknown }).ratio = 0)],
    ['a p-value above 1', (r: Record<string, unknown>) => ((r.whole as { pValue: unknown }).pValue = 1.5)],
    [
      'an interval whose low end is above its high end',
      (r: Record<string, unknown>) => ((r.whole as { ci: number[] }).ci = [1.3, 1.1]),
    ],
    ['a negative interval end', (r: Record<string, unknown>) => ((r.whole as { ci: number[] }).ci = [-0.1, 1.1])],
  ])('refuses a file with %s, naming the field', (_what, spoil) => {
    const data = sampleFind() as unknown as Record<string, unknown>;
    spoil(data);
    const file = path.join(dir, 'spoiled.json');
    writeFileSync(file, JSON.stringify(data));
    let caught: unknown;
    try {
      readFindResult(file);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ResultFileError);
    expect((caught as ResultFileError).problem).toBe('schema-violation');
  });

  it('refuses another kind and a truncated file', () => {
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...sampleFind(), kind: 'layerbench/bisect' }));
    expect(() => readFindResult(other)).toThrow(/expected a layerbench\/find file/);
    const cut = path.join(dir, 'cut.json');
    writeFileSync(cut, JSON.stringify(sampleFind()).slice(0, 200));
    expect(() => readFindResult(cut)).toThrow(/truncated/);
  });
});
