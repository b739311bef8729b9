// `layerbench compare` and `check` exit codes. compare runs on synthetic
// result files with known distributions; check's exit codes are driven by a
// real baseline whose samples are scaled a thousandfold (far beyond the noise
// of even a heavily loaded machine).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrationFileName } from '@layerbench/bench-runner/calibration';
import { readComparison, readRunResult, writeResultFile } from '@layerbench/bench-runner/results';
import { computeStats } from '@layerbench/bench-runner/stats';
import type { BetweenRunCalibration, Comparison, RunResult } from '@layerbench/bench-runner';
import { afterAll, describe, expect, it } from 'vitest';
import { heavyTestTimeout, lines, runCli } from './spawn-cli.js';
import { samplesAround, syntheticCase, syntheticEnv, syntheticRun } from './synthetic-results.js';

const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-compare-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function writeRun(name: string, run: RunResult): string {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(run, null, 2));
  return path;
}

const base = writeRun(
  'base.json',
  syntheticRun([
    syntheticCase('sha1/64/unrolled', samplesAround(100, 1)),
    syntheticCase('sha1/1500/unrolled', samplesAround(1000, 2)),
  ]),
);
const unchanged = writeRun(
  'unchanged.json',
  syntheticRun([
    syntheticCase('sha1/64/unrolled', samplesAround(100, 3)),
    syntheticCase('sha1/1500/unrolled', samplesAround(1000, 4)),
  ]),
);
// The seed's story: same code, the dispatcher fell back to generic, 64-byte hashing got 40% slower.
const regressed = writeRun(
  'regressed.json',
  syntheticRun(
    [
      syntheticCase('sha1/64/unrolled', samplesAround(140, 5)),
      syntheticCase('sha1/1500/unrolled', samplesAround(1000, 6)),
    ],
    syntheticEnv({
      openssl: '3.5.0',
      dispatch: [{ layer: 'sha1-dispatch', decision: 'whole-message', impl: 'generic', reason: 'synthetic fallback' }],
    }),
  ),
);

// A stored between-run calibration of the synthetic machine: each case moves 0.2% from process to process.
const calibrated = { LAYERBENCH_CALIBRATION_DIR: join(work, 'calibration') };
const noCalibration = { LAYERBENCH_CALIBRATION_DIR: join(work, 'no-calibration') };
const synthetic = syntheticEnv();
const calibration: BetweenRunCalibration = {
  kind: 'layerbench/between-runs',
  schemaVersion: 1,
  createdAt: '2026-12-01T10:00:00.000Z',
  env: synthetic,
  suites: ['sha1'],
  timePerCase: 0.5,
  processes: 8,
  load: Array.from({ length: 8 }, (): [number, number] => [0.5, 0.5]),
  threshold: 0.02,
  alpha: 0.01,
  basis: 'median',
  pooled: { median: { p50: 0.002, p90: 0.002 } },
  floor: { quantile: 0, sigma: 0 },
  cases: {
    'sha1/64/unrolled': { n: 8, medianNs: 100, sigma: { median: 0.002 } },
    'sha1/1500/unrolled': { n: 8, medianNs: 1000, sigma: { median: 0.002 } },
  },
  falseAlarms: { flagged: 0, compared: 56, pairsFlagged: 0, pairs: 28 },
  detection: [{ effect: 0.05, detected: 56, compared: 56 }],
};
writeResultFile(join(calibrated.LAYERBENCH_CALIBRATION_DIR, calibrationFileName(synthetic, 0.5)), calibration);

describe('compare', { timeout: heavyTestTimeout }, () => {
  it('says which between-run spread it used: the stored calibration, or the conservative default', async () => {
    const withCalibration = await runCli(['compare', base, regressed], { env: calibrated });
    expect(withCalibration.stdout).toMatch(
      /^noise: between-run spread measured by `layerbench calibrate` on this machine \(8 processes at --time 0.5/m,
    );
    const without = await runCli(['compare', base, regressed], { env: noCalibration });
    expect(without.stdout).toMatch(/^noise: no between-run calibration for this machine .*conservative default/m);
    // 40% slower is within what the default allows between two runs: not called.
    expect(without.code, without.stdout).toBe(0);
    const much = writeRun('much-slower.json', syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(500, 8))]));
    const fivefold = await runCli(['compare', base, much], { env: noCalibration });
    expect(fivefold.code, fivefold.stdout).toBe(1);
    // An explicit --calibration file wins over the stored one.
    const file = join(work, 'explicit-calibration.json');
    writeResultFile(file, calibration);
    const explicit = await runCli(['compare', base, regressed, '--calibration', file], { env: noCalibration });
    expect(explicit.code, explicit.stdout).toBe(1);
    expect(explicit.stdout).toContain(file);
    // A calibration given by hand that does not fit these runs says how.
    const other = join(work, 'other-calibration.json');
    writeResultFile(other, {
      ...calibration,
      timePerCase: 1,
      cases: { 'sha1/64/unrolled': calibration.cases['sha1/64/unrolled']! },
    });
    const unfit = await runCli(['compare', base, regressed, '--calibration', other], { env: noCalibration });
    expect(unfit.stdout).toMatch(
      /^noise: .*\(note: it was measured at --time 1, these runs at --time 0\.5; 1 of the 2 common cases are not in it\); 1 of 2 case\(s\) not in the calibration, judged with the conservative default spread \(10% per process, heavy-tailed\)$/m,
    );
    // A stored calibration of another --time (the nearest there is) is used, and the noise line says so.
    const otherTime = { LAYERBENCH_CALIBRATION_DIR: join(work, 'calibration-t1') };
    writeResultFile(join(otherTime.LAYERBENCH_CALIBRATION_DIR, calibrationFileName(synthetic, 1)), {
      ...calibration,
      timePerCase: 1,
    });
    const nearest = await runCli(['compare', base, regressed], { env: otherTime });
    expect(nearest.code, nearest.stdout).toBe(1);
    expect(nearest.stdout).toMatch(
      /^noise: between-run spread measured by `layerbench calibrate` on this machine \(8 processes at --time 1, .*\(note: calibrated at --time 1, the runs used --time 0\.5\)/m,
    );
  });

  it('does not judge runs busier than any calibration process by that calibration', async () => {
    const busy = syntheticEnv({ openssl: '3.5.0', loadAvgStart: [3.2, 1, 1], loadAvgEnd: [3.4, 1, 1] });
    const busyRegressed = writeRun(
      'busy-regressed.json',
      syntheticRun(
        [
          syntheticCase('sha1/64/unrolled', samplesAround(140, 5)),
          syntheticCase('sha1/1500/unrolled', samplesAround(1000, 6)),
        ],
        busy,
      ),
    );
    // The calibration's processes ran at load 0.5: the head at 3.4 is beyond it, so the default judges (40%: not called).
    const stored = await runCli(['compare', base, busyRegressed], { env: calibrated });
    expect(stored.stdout).toMatch(
      /^noise: the stored calibration .* does not describe these runs: they ran at a load average of up to 3\.4, its processes at most 0\.5 \(taken as 1\.0: its own measuring process\); calibrate at the load the comparisons see: assuming the conservative default/m,
    );
    expect(stored.code, stored.stdout).toBe(0);
    const file = join(work, 'explicit-calibration-busy.json');
    writeResultFile(file, calibration);
    const explicit = await runCli(['compare', base, busyRegressed, '--calibration', file], { env: noCalibration });
    expect(explicit.stdout).toMatch(/^noise: the calibration .* does not describe these runs/m);
    // A calibration made at that load judges them.
    writeResultFile(file, { ...calibration, load: [[3.0, 3.3]] });
    const fits = await runCli(['compare', base, busyRegressed, '--calibration', file], { env: noCalibration });
    expect(fits.code, fits.stdout).toBe(1);
  });

  it('exit 3 when no case was measured in both files: nothing compared is not a pass', async () => {
    const other = writeRun(
      'other-cases.json',
      syntheticRun([syntheticCase('sha1/16384/unrolled', samplesAround(100, 9))]),
    );
    const result = await runCli(['compare', base, other], { env: calibrated });
    expect(result.code, result.stdout).toBe(3);
    expect(result.stdout).toMatch(/^nothing compared: no case was measured in both files .*\(exit 3\)$/m);
    const json = await runCli(['compare', base, other, '--format', 'json'], { env: calibrated });
    expect(json.code).toBe(3);
    expect(lines(json.stderr)).toHaveLength(1);
  });

  it('exit 3 between different runtimes or CPUs, pointing to bisect; --across-environments gives the verdicts', async () => {
    const node18 = writeRun(
      'node18.json',
      syntheticRun(
        [
          syntheticCase('sha1/64/unrolled', samplesAround(500, 10)),
          syntheticCase('sha1/1500/unrolled', samplesAround(1000, 11)),
        ],
        syntheticEnv({ node: 'v18.20.8', v8: '10.2' }),
      ),
    );
    const result = await runCli(['compare', base, node18], { env: calibrated });
    expect(result.code, result.stdout).toBe(3);
    expect(result.stdout).toMatch(/environments differ \(Node v20\.20\.2 -> v18\.20\.8\).*layerbench bisect/);
    const asked = await runCli(['compare', base, node18, '--across-environments'], { env: calibrated });
    expect(asked.code, asked.stdout).toBe(1);
    const otherCpu = writeRun(
      'other-cpu.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(100, 12))], syntheticEnv({ cpuCount: 8 })),
    );
    expect((await runCli(['compare', base, otherCpu], { env: calibrated })).code).toBe(3);
  });

  it('exit 0 when nothing changed', async () => {
    const result = await runCli(['compare', base, unchanged], { env: calibrated });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('sha1/64/unrolled');
    expect(result.stdout).toMatch(/ 0 regressed, 0 improved, 2 unchanged/);
    expect(result.stdout).toMatch(/^no regression \(exit 0\)$/m);
  });

  it('exit 1 when a case regressed; fingerprint differences come first', async () => {
    const result = await runCli(['compare', base, regressed], { env: calibrated });
    expect(result.code, result.stderr).toBe(1);
    const firstCase = result.stdout.indexOf('sha1/64/unrolled');
    const opensslDiff = result.stdout.indexOf('3.5.0');
    const dispatchDiff = result.stdout.indexOf('generic');
    expect(opensslDiff).toBeGreaterThanOrEqual(0);
    expect(dispatchDiff).toBeGreaterThanOrEqual(0);
    expect(opensslDiff).toBeLessThan(firstCase);
    expect(dispatchDiff).toBeLessThan(firstCase);
    expect(result.stdout).toMatch(/regressed/);
    expect(result.stdout).toMatch(/ 1 regressed, 0 improved, 1 unchanged/);
    expect(result.stdout).toMatch(/^regressed: sha1\/64\/unrolled \(exit 1\)$/m);
    expect(result.stdout).not.toContain('\u001b[');
    // One process a side and under x4: it could be one process's mode, and stderr says how to confirm.
    expect(result.stderr).toMatch(
      /^1 regressed case\(s\) compared one process a side moved less than x4 \(sha1\/64\/unrolled x1\.\d\d\): a process now and then runs a case in a mode of its own/m,
    );
    expect(result.stderr).toContain('`layerbench run --processes 4`');
  });

  it('exit 0 the other way round (an improvement is not a regression)', async () => {
    const result = await runCli(['compare', regressed, base], { env: calibrated });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/ 0 regressed, 1 improved/);
  });

  it('a case whose code is byte-identical on both sides is unchanged whatever its timings; --judge-identical-code judges it', async () => {
    const hashed = syntheticEnv({
      layers: ['@layerbench/sha1-dispatch', '@layerbench/cli', '@layerbench/bench-runner'].map((name, i) => ({
        name,
        version: '0.1.0',
        source: 'workspace',
        contentHash: String(i).repeat(64),
      })),
    });
    const sameCodeBase = writeRun(
      'same-code-base.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(100, 7))], hashed),
    );
    // Five times slower on byte-identical code: the machine (another job on the
    // sibling hyperthread), not the code.
    const sameCodeSlow = writeRun(
      'same-code-slow.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(500, 8))], hashed),
    );
    const guarded = await runCli(['compare', sameCodeBase, sameCodeSlow], { env: calibrated });
    expect(guarded.code, guarded.stderr).toBe(0);
    expect(guarded.stdout).toMatch(
      /^identical code: 1 case\(s\) .* \(up to x5\.\d\d\): that is the machine, not the code/m,
    );
    expect(guarded.stdout).toMatch(/sha1\/64\/unrolled .* unchanged +regressed in numbers, code identical/);
    const judged = await runCli(['compare', sameCodeBase, sameCodeSlow, '--judge-identical-code'], { env: calibrated });
    expect(judged.code).toBe(1);
    expect(judged.stdout).toContain('regressed: sha1/64/unrolled');
    // Another hash of the case's layer: the guard does not apply, the timings decide.
    const otherCode = writeRun(
      'other-code-slow.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(500, 9))], {
        ...hashed,
        layers: hashed.layers.map((l) =>
          l.name === '@layerbench/sha1-dispatch' ? { ...l, contentHash: 'f'.repeat(64) } : l,
        ),
      }),
    );
    const changed = await runCli(['compare', sameCodeBase, otherCode], { env: calibrated });
    expect(changed.code).toBe(1);
    expect(changed.stdout).not.toContain('identical code:');
  });

  it("an inconclusive case that moved beyond the threshold: the side-by-side command, with the runs' commits", async () => {
    const atCommit = (commit: string) =>
      syntheticEnv({ layers: [{ name: '@layerbench/sha1-dispatch', version: '0.1.0', source: 'workspace', commit }] });
    const before = writeRun(
      'hint-base.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(100, 11))], atCommit('a'.repeat(40))),
    );
    // 20% slower: beyond the 3% threshold, within the conservative default spread of separate runs.
    const after = writeRun(
      'hint-head.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(120, 12))], atCommit('b'.repeat(40))),
    );
    const result = await runCli(['compare', before, after], { env: noCalibration });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/sha1\/64\/unrolled .* inconclusive/);
    expect(result.stderr).toContain('1 case(s) moved by more than the threshold');
    expect(result.stderr).toContain(
      `layerbench bisect --paired --good git:${'a'.repeat(12)} --bad git:${'b'.repeat(12)} --suite sha1 --filter '^(sha1/64/unrolled)$'`,
    );
    // Both runs of one commit and one build: runs of several processes at the runs' --time, a file a side.
    const oneBuild = syntheticEnv({
      layers: [
        {
          name: '@layerbench/sha1-dispatch',
          version: '0.1.0',
          source: 'workspace',
          commit: 'c'.repeat(40),
          contentHash: 'd'.repeat(64),
        },
      ],
    });
    const sameBefore = writeRun(
      'hint-same-base.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(100, 11))], oneBuild),
    );
    const sameAfter = writeRun(
      'hint-same-head.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(120, 12))], oneBuild),
    );
    const same = await runCli(['compare', sameBefore, sameAfter, '--judge-identical-code'], { env: noCalibration });
    expect(same.stderr).toContain(
      "layerbench run sha1 --time 0.5 --processes 4 --filter '^(sha1/64/unrolled)$' --out <side>.json",
    );
    // Nothing moved: no hint.
    const quiet = await runCli(['compare', base, unchanged], { env: calibrated });
    expect(quiet.stderr).not.toContain('moved by more than the threshold');
  });

  it('exit 1 when an output digest changed, even if not slower', async () => {
    const wrong = writeRun(
      'wrong-digest.json',
      syntheticRun([syntheticCase('sha1/64/unrolled', samplesAround(100, 7), 'ffff')]),
    );
    const result = await runCli(['compare', base, wrong], { env: calibrated });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^output digest changed: sha1\/64\/unrolled \(exit 1\)$/m);
  });

  it('--format json prints the comparison and --out writes the same file', async () => {
    const out = join(work, 'comparison.json');
    const result = await runCli(
      ['compare', base, regressed, '--format', 'json', '--out', out, '--threshold', '0.05', '--alpha', '0.01'],
      { env: calibrated },
    );
    expect(result.code).toBe(1);
    const printed = JSON.parse(result.stdout) as Comparison;
    expect(printed.kind).toBe('layerbench/compare');
    expect(printed.threshold).toBe(0.05);
    expect(printed.alpha).toBe(0.01);
    const written = readComparison(out);
    expect(written.cases.map((c) => [c.id, c.verdict])).toEqual(printed.cases.map((c) => [c.id, c.verdict]));
    expect(written.cases.find((c) => c.id === 'sha1/64/unrolled')?.verdict).toBe('regressed');
    expect(written.fingerprintDiffs.map((diff) => diff.kind)).toEqual(expect.arrayContaining(['openssl', 'dispatch']));
  });

  it('--format markdown prints a Markdown table', async () => {
    const result = await runCli(['compare', base, regressed, '--format', 'markdown'], { env: calibrated });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\|.*\|$/m);
  });

  it('exit 2 with the file and the problem for corrupt, truncated, wrong-kind and missing files', async () => {
    const text = readFileSync(base, 'utf8');
    const truncated = join(work, 'truncated.json');
    writeFileSync(truncated, text.slice(0, Math.floor(text.length / 2)));
    const corrupt = join(work, 'corrupt.json');
    writeFileSync(corrupt, 'this is not json');
    const wrongKind = join(work, 'wrong-kind.json');
    writeFileSync(wrongKind, JSON.stringify({ ...JSON.parse(text), kind: 'layerbench/compare' }));
    const missing = join(work, 'missing.json');
    for (const bad of [truncated, corrupt, wrongKind, missing]) {
      const result = await runCli(['compare', base, bad]);
      expect(result.code, bad).toBe(2);
      expect(result.stdout).toBe('');
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr).toContain(bad);
    }
    const swapped = await runCli(['compare', missing, base]);
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toContain(missing);
    expect(swapped.stderr).toMatch(/no such file/i);
  });
});

describe('check (git bisect run)', { timeout: heavyTestTimeout }, () => {
  it('exit 125 when the baseline has none of the selected cases', async () => {
    const result = await runCli(['check', '--baseline', base, 'cmac-timing', '--time', '0.02', '--quiet'], {
      env: noCalibration,
    });
    expect(result.code, result.stderr).toBe(125);
    expect(result.stderr).toContain('the baseline has none of the selected cases');
    expect(lines(result.stderr)).toHaveLength(1);
  });

  it("exit 128, before measuring, for a --filter that matches none of the baseline's cases (the same at every commit)", async () => {
    const result = await runCli(['check', '--baseline', base, '--filter', 'no-such-case', '--quiet'], {
      env: noCalibration,
    });
    expect(result.code, result.stderr).toBe(128);
    const measured = readRunResult(base).cases.filter((c) => c.status === 'ok').length;
    expect(lines(result.stderr)).toEqual([
      `layerbench: --filter 'no-such-case' matches none of the ${measured} measured case(s) of ${base} (see layerbench check --help)`,
    ]);
  });

  it('exit 1 against a baseline 1000 times faster, 0 against one 1000 times slower, 125 naming check --against for one 30% apart', async () => {
    // A pre-keyed case: one-shot cases are bimodal while the JIT settles, which widens their intervals.
    const ids = lines((await runCli(['list', 'cmac-timing', '--filter', 'aes-128/pl=48/preloaded/table$'])).stdout);
    expect(ids).toHaveLength(1);
    const filter = `^${ids[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
    const measured = join(work, 'measured.json');
    const run = await runCli(['run', 'cmac-timing', '--time', '0.2', '--filter', filter, '--out', measured, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const real = readRunResult(measured);
    // A baseline of other code (cmac's content hash differs), so the unchanged-code guard does not apply.
    const otherCode = {
      ...real.env,
      layers: real.env.layers.map((l) => (l.name === '@layerbench/cmac' ? { ...l, contentHash: 'f'.repeat(64) } : l)),
    };
    const scaled = (factor: number): RunResult => ({
      ...real,
      env: otherCode,
      cases: real.cases.map((c) => {
        const samples = c.samples.map((sample) => sample * factor);
        const scaledCase = { ...c, samples, stats: computeStats(samples, c.bytesPerOp) };
        if (c.sliceMedians !== undefined) scaledCase.sliceMedians = c.sliceMedians.map((slice) => slice * factor);
        if (c.relativeSliceMedians !== undefined)
          scaledCase.relativeSliceMedians = c.relativeSliceMedians.map((slice) => slice * factor);
        if (c.sliceFastest !== undefined) scaledCase.sliceFastest = c.sliceFastest.map((slice) => slice * factor);
        return scaledCase;
      }),
    });
    const fasterBaseline = writeRun('faster-baseline.json', scaled(0.001));
    const slowerBaseline = writeRun('slower-baseline.json', scaled(1000));

    const bad = await runCli(['check', '--baseline', fasterBaseline, '--time', '0.2', '--quiet'], {
      env: noCalibration,
    });
    expect(bad.code, bad.stdout + bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/^check: bad \(exit 1\): regressed: /m);
    const good = await runCli(['check', '--baseline', slowerBaseline, '--time', '0.2', '--quiet'], {
      env: noCalibration,
    });
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^check: good \(exit 0\)/m);
    // The same 1000-fold difference on byte-identical code cannot be a regression: good, nothing measured.
    const sameCode = writeRun('same-code-faster-baseline.json', { ...scaled(0.001), env: real.env });
    const guarded = await runCli(['check', '--baseline', sameCode, '--time', '0.2', '--quiet'], { env: noCalibration });
    expect(guarded.code, guarded.stdout + guarded.stderr).toBe(0);
    expect(guarded.stdout).toMatch(
      /^check: good \(exit 0\): the code of all 1 case\(s\) is identical to .*: nothing measured$/m,
    );
    // Identical code under another dispatch decision (LAYERBENCH_* forcing a backend, as the SHA-1 seed
    // does) is not the same code: measured and judged.
    const otherDispatch = writeRun('other-dispatch-baseline.json', {
      ...scaled(0.001),
      env: { ...real.env, dispatch: real.env.dispatch.map((d) => ({ ...d, impl: `${d.impl}-forced` })) },
    });
    const dispatched = await runCli(['check', '--baseline', otherDispatch, '--time', '0.2', '--quiet'], {
      env: noCalibration,
    });
    expect(dispatched.code, dispatched.stdout + dispatched.stderr).toBe(1);
    expect(dispatched.stdout).not.toContain('nothing measured');
    // 30% apart, within what separate runs may drift without a calibration: cannot tell (125), and the paired
    // form of the step is named with the baseline's commit.
    const nearBaseline = writeRun('near-baseline.json', scaled(1 / 1.3));
    const near = await runCli(['check', '--baseline', nearBaseline, '--time', '0.2', '--quiet'], {
      env: noCalibration,
    });
    expect(near.code, near.stdout + near.stderr).toBe(125);
    expect(near.stdout).toMatch(/^check: cannot tell \(exit 125\): inconclusive: /m);
    const commits = new Set(otherCode.layers.filter((l) => l.name !== 'runtime').map((l) => l.commit));
    const commit = commits.size === 1 ? [...commits][0] : undefined;
    expect(near.stderr).toContain(
      `check --against git:${commit === undefined ? '<good commit>' : commit.slice(0, 12)} (same suites and --filter)`,
    );
    // The second look: with the 1000-fold baseline looked at (--second-look-below above it, so that no machine
    // load can move the case out of the range), check measures this checkout again in 2 fresh processes and
    // keeps the verdict when each calls it regressed too; by default (x4, times the load average over the CPU
    // count when above 1) a 1000-fold change is not looked at.
    expect(bad.stdout).not.toContain('second look');
    const looked = await runCli(
      ['check', '--baseline', fasterBaseline, '--time', '0.2', '--second-look-below', '1e9', '--quiet'],
      { env: noCalibration },
    );
    expect(looked.code, looked.stdout + looked.stderr).toBe(1);
    expect(looked.stdout).toMatch(
      /^second look: 1 case\(s\) called regressed one process a side by less than x1000000000, measured again in 2 fresh process\(es\) of this checkout .* at alpha 0\.1:$/m,
    );
    expect(looked.stdout).toMatch(/first x\d+\.\d{3}; fresh x\d+\.\d{3} regressed, x\d+\.\d{3} regressed: regressed$/m);
    expect(looked.stdout).toMatch(/^check: bad \(exit 1\): regressed: /m);
    const once = await runCli(
      ['check', '--baseline', fasterBaseline, '--time', '0.2', '--second-look-below', '1e9', '--second-look', '0'],
      { env: noCalibration },
    );
    expect(once.code, once.stdout + once.stderr).toBe(1);
    expect(once.stdout).not.toContain('second look');
    // Another runtime: cannot tell (125), whatever the timings.
    const node18 = writeRun('node18-baseline.json', { ...scaled(0.001), env: { ...otherCode, node: '18.20.8' } });
    const other = await runCli(['check', '--baseline', node18, '--time', '0.2', '--quiet'], { env: noCalibration });
    expect(other.code, other.stdout + other.stderr).toBe(125);
  });
});
