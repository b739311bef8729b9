// `layerbench env`, `mem` and `calibrate` end to end: output shapes and exit codes.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { calibrationFileName } from '@layerbench/bench-runner/calibration';
import { readBetweenRunCalibration, readCalibration, readRunResult } from '@layerbench/bench-runner/results';
import { calmStatesOf } from '../src/fresh-processes.js';
import type { EnvFingerprint, MemResult } from '@layerbench/bench-runner';
import { describe, expect, it } from 'vitest';
import { heavyTestTimeout, interruptWhen, lines, runCli, spawnCli } from './spawn-cli.js';

const layerNames = [
  '@layerbench/aes-core',
  '@layerbench/cmac',
  '@layerbench/sha1-dispatch',
  '@layerbench/esp',
  '@layerbench/bench-runner',
];

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
    for (const name of layerNames)
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\d+\\.\\d+\\.\\d+ +workspace`, 'm'));
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
  it('exit 2 with one line when the suites or the filter select no memory case', async () => {
    for (const args of [
      ['mem', 'sha1'],
      ['mem', 'cmac', '--filter', 'no-such-object'],
    ]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(lines(result.stderr)).toHaveLength(1);
    }
    expect((await runCli(['mem', 'sha1'])).stderr).toMatch(
      /sha1 has no memory cases \(suites with memory cases: .*hmac/,
    );
  });

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
  const ids = ['sha1/16384/unrolled', 'sha1/16384/wasm'];
  const filter = `^(${ids.join('|')})$`;

  it('--keep-runs numbers on from the runs a folder already has, --from-runs calibrates from them all, and --no-store leaves the stored one', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-calibrate-keep-'));
    try {
      const env = { LAYERBENCH_CALIBRATION_DIR: join(work, 'store') };
      const kept = join(work, 'kept');
      const args = [
        ...['calibrate', 'sha1', '--filter', filter, '--time', '0.02', '--processes', '4'],
        ...['--extra-processes', '0', '--quiet'],
      ];
      const first = await runCli([...args, '--keep-runs', kept], { env });
      expect(first.code, first.stderr).toBe(0);
      const before = readFileSync(join(kept, 'run-1.json'), 'utf8');
      const second = await runCli([...args, '--keep-runs', kept], { env });
      expect(second.code, second.stderr).toBe(0);
      const names = readdirSync(kept).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      expect(names).toEqual(Array.from({ length: 8 }, (_, i) => `run-${i + 1}.json`));
      // The first session's runs are untouched.
      expect(readFileSync(join(kept, 'run-1.json'), 'utf8')).toBe(before);
      // --no-store: a look at the first sitting's runs alone leaves the stored calibration as it was.
      const store = env.LAYERBENCH_CALIBRATION_DIR;
      const storedFile = join(store, readdirSync(store)[0]!);
      const storedBefore = readFileSync(storedFile, 'utf8');
      const firstFour = join(work, 'first-four');
      mkdirSync(firstFour);
      for (const name of names.slice(0, 4)) copyFileSync(join(kept, name), join(firstFour, name));
      const look = await runCli(['calibrate', '--from-runs', firstFour, '--no-store', '--quiet'], { env });
      expect(look.code, look.stderr).toBe(0);
      expect(look.stdout).toMatch(/^Between-run calibration: 4 fresh processes/m);
      expect(look.stdout).not.toContain('Stored for compare and check');
      expect(readdirSync(store)).toEqual([basename(storedFile)]);
      expect(readFileSync(storedFile, 'utf8')).toBe(storedBefore);
      const all = await runCli(['calibrate', '--from-runs', kept, '--quiet', '--format', 'json'], { env });
      expect(all.code, all.stderr).toBe(0);
      expect(JSON.parse(all.stdout).processes).toBe(8);
      expect(JSON.parse(all.stdout).falseAlarms.pairs).toBe(28);
      expect(readFileSync(storedFile, 'utf8')).not.toBe(storedBefore);

      // --pairs: a fixed sample of the pairs, said on stderr and in the report.
      const sampled = await runCli(['calibrate', '--from-runs', kept, '--no-store', '--pairs', '10'], { env });
      expect(sampled.code, sampled.stderr).toBe(0);
      expect(sampled.stderr).toContain(
        'comparing 10 of the 28 pairs of processes (cross-validated; --pairs to change)',
      );
      expect(sampled.stdout).toContain(
        'False alarms of separate-run A/A comparisons (10 of the 28 pairs of processes, a fixed sample in which each process takes part about equally, each against the spread of the other processes;',
      );
      expect(sampled.stdout).toMatch(
        /^ {2}\d+ of 20 case comparisons called regressed or improved .*; \d+ of 10 pairs would exit 1/m,
      );
      const interleaved = await runCli(['calibrate', '--interleaved', '--pairs', '10'], { env });
      expect(interleaved.code).toBe(2);
      expect(interleaved.stderr).toContain('--pairs goes with a between-run calibration');

      // Ctrl-C while the pairs are compared (60 processes, every one of their 1770 pairs: 28 s of comparing on
      // the development machine, uninterrupted) stops within seconds and stores nothing. The copies start a
      // minute apart, as one sitting.
      const many = join(work, 'many');
      mkdirSync(many);
      const start = Date.parse(readRunResult(join(kept, 'run-1.json')).createdAt);
      for (let k = 0; k < 60; k++) {
        const run = JSON.parse(readFileSync(join(kept, names[k % 8]!), 'utf8'));
        run.createdAt = new Date(start + k * 60_000).toISOString();
        writeFileSync(join(many, `run-${k + 1}.json`), JSON.stringify(run));
      }
      const storedNow = readFileSync(storedFile, 'utf8');
      const comparing = spawnCli(['calibrate', '--from-runs', many, '--pairs', '1770'], { env });
      const { result: stopped, afterMs } = await interruptWhen(
        comparing,
        () => comparing.output().stderr.includes('comparing every pair'),
        500,
      );
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(afterMs).toBeLessThan(10_000);
      expect(stopped.stderr).toContain('interrupted while comparing pairs of processes; nothing stored');
      expect(readFileSync(storedFile, 'utf8')).toBe(storedNow);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('between runs: fresh processes, the false-alarm rate and minimum detectable effects, stored where compare finds them', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-calibrate-'));
    try {
      const env = { LAYERBENCH_CALIBRATION_DIR: join(work, 'store') };
      const out = join(work, 'calibration.json');
      const result = await runCli(
        [
          'calibrate',
          'sha1',
          '--filter',
          filter,
          '--time',
          '0.02',
          '--processes',
          '4',
          '--extra-processes',
          '0',
          '--out',
          out,
        ],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        /^Between-run calibration: 4 fresh processes of `run sha1 --filter .* --time 0\.02` \(2 cases\)$/m,
      );
      expect(result.stdout).toMatch(
        /^ {2}\d+ of 12 case comparisons called regressed or improved \([\d.]+%\); \d+ of 6 pairs would exit 1/m,
      );
      expect(result.stdout).toMatch(/^Minimum detectable effect at --time 0\.02/m);
      // Four processes give three neighbouring pairs: too few for the spread between neighbours.
      expect(result.stdout).toContain(
        'no spread between neighbouring processes was measured (fewer than 6 processes): all of it counts as shared',
      );
      const calibration = readBetweenRunCalibration(out);
      expect(calibration.processes).toBe(4);
      expect(Object.keys(calibration.cases).sort()).toEqual(ids);
      const stored = readdirSync(env.LAYERBENCH_CALIBRATION_DIR);
      expect(stored).toEqual([calibrationFileName(calibration.env, 0.02)]);
      expect(result.stdout).toContain(
        `Stored for compare and check: ${join(env.LAYERBENCH_CALIBRATION_DIR, stored[0]!)}`,
      );
      // compare now uses it.
      const a = join(work, 'a.json');
      const b = join(work, 'b.json');
      for (const file of [a, b])
        expect(
          (await runCli(['run', 'sha1', '--filter', filter, '--time', '0.02', '--quiet', '--out', file], { env })).code,
        ).toBe(0);
      const cmp = await runCli(['compare', a, b], { env });
      expect(cmp.stdout).toMatch(
        /^noise: between-run spread measured by `layerbench calibrate` on this machine \(4 processes at --time 0\.02/m,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('tops up with more processes while a case has fewer than 6 in the fast state, by the state probe alone', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-calibrate-topup-'));
    try {
      const env = { LAYERBENCH_CALIBRATION_DIR: join(work, 'store') };
      const kept = join(work, 'kept');
      const result = await runCli(
        [
          ...['calibrate', 'sha1', '--filter', filter, '--time', '0.02', '--processes', '4'],
          ...['--extra-processes', '2', '--keep-runs', kept, '--format', 'json'],
        ],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      const runs = readdirSync(kept)
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
        .map((name) => readRunResult(join(kept, name)));
      // Four processes can never hold six in the fast state: whenever any of them gave a case a calm figure
      // (a state probe level), the two more follow; when none did, more processes would not give one either.
      const levels = runs.slice(0, 4).some((run) => [...calmStatesOf(run).values()].some((level) => level !== null));
      const total = levels ? 6 : 4;
      expect(runs).toHaveLength(total);
      expect(JSON.parse(result.stdout).processes).toBe(total);
      if (levels) {
        expect(result.stderr).toMatch(
          /process 5 \(at most 6\): \d case\(s\) with fewer than 6 processes in the CPU's fast state/,
        );
        expect(result.stderr).toContain(
          "2 more process(es), 6 in all: cases had fewer than 6 processes in the CPU's fast state",
        );
      } else expect(result.stderr).not.toContain('more process(es)');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('stops at Ctrl-C within seconds, storing nothing (exit 130)', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-calibrate-int-'));
    try {
      const env = { LAYERBENCH_CALIBRATION_DIR: join(work, 'store') };
      const running = spawnCli(['calibrate', 'sha1', '--time', '1', '--processes', '8'], { env });
      const { result, afterMs } = await interruptWhen(
        running,
        () => running.output().stderr.includes('process 1 of 8'),
        500,
      );
      expect(result.code, result.stderr).toBe(130);
      expect(afterMs).toBeLessThan(10_000);
      expect(result.stderr).toMatch(/interrupted after 0 of 8 processes; nothing stored/);
      expect(existsSync(env.LAYERBENCH_CALIBRATION_DIR)).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('--interleaved: the one-process calibration, and it stops at Ctrl-C too', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-calibrate-'));
    try {
      const out = join(work, 'calibration.json');
      const result = await runCli(['calibrate', '--interleaved', '--time', '0.02', '--repeats', '2', '--out', out]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^False-alarm rate \(A\/A\): [\d.]+% \[/m);
      expect(result.stdout).toMatch(/^Minimum detectable effect: /m);
      const calibration = readCalibration(out);
      expect(calibration.repeats).toBe(2);
      expect(calibration.timePerCase).toBe(0.02);

      const interleaved = spawnCli(['calibrate', '--interleaved', '--time', '1', '--repeats', '20']);
      const { result: stopped, afterMs } = await interruptWhen(
        interleaved,
        () => interleaved.output().stderr.includes('calibrate: interleaved'),
        1000,
      );
      expect(stopped.code, stopped.stderr).toBe(130);
      // It stops after the comparison under way (2 s of timing at --time 1, several times that on a
      // loaded machine: 20 s was seen at load 20-30), not after all 120 (at least 240 s of timing).
      expect(afterMs).toBeLessThan(60_000);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
