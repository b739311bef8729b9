// `layerbench run` and `list` end to end on the built CLI, with tiny time
// budgets: output shapes, the seeds' outputs (NTPsec MACs, esptest lines),
// shards that cover every case exactly once, and --out after Ctrl-C.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveBetweenRunCalibration } from '@layerbench/bench-runner/calibration';
import { readRunResult, writeResultFile } from '@layerbench/bench-runner/results';
import type { RunResult } from '@layerbench/bench-runner';
import { afterAll, describe, expect, it } from 'vitest';
import { heavyTestTimeout, interruptWhen, lines, runCli, spawnCli } from './spawn-cli.js';
import { syntheticCalibration } from './synthetic-results.js';

const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A --filter that selects exactly these ids. */
const exactly = (ids: string[]) => `^(${ids.map(escapeRegex).join('|')})$`;

async function listIds(args: string[]): Promise<string[]> {
  const result = await runCli(['list', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return lines(result.stdout);
}

describe('list', { timeout: heavyTestTimeout }, () => {
  it('--suites names every suite', async () => {
    const result = await runCli(['list', '--suites']);
    expect(result.code).toBe(0);
    const names = lines(result.stdout).map((line) => line.split(/\s+/)[0]);
    expect(names).toEqual(['aes', 'cmac', 'cmac-timing', 'sha1', 'hmac', 'esp', 'esptest', 'peers']);
  });

  it('prints unique case ids; peers is the union of the peer cases', async () => {
    const suites = (JSON.parse((await runCli(['list', '--suites', '--format', 'json'])).stdout) as { name: string }[])
      .map((suite) => suite.name)
      .filter((name) => name !== 'peers');
    const all = await listIds(suites);
    expect(all.length).toBeGreaterThan(0);
    expect(new Set(all).size).toBe(all.length);
    const json = await runCli(['list', ...suites, '--format', 'json']);
    const rows = JSON.parse(json.stdout) as { id: string; suite: string; params: { peer?: boolean } }[];
    expect(rows.map((row) => row.id)).toEqual(all);
    const peers = await listIds(['peers']);
    expect(peers.length).toBeGreaterThan(0);
    expect(peers.sort()).toEqual(
      rows
        .filter((row) => row.params.peer === true)
        .map((row) => row.id)
        .sort(),
    );
  });

  it('--shard k/n splits the cases: every case in exactly one shard, sizes within one', async () => {
    const all = await listIds([]);
    for (const count of [1, 2, 3, 7]) {
      const shards = await Promise.all(
        Array.from({ length: count }, (_, k) => listIds(['--shard', `${k + 1}/${count}`])),
      );
      const seen = shards.flat();
      expect(seen.sort()).toEqual([...all].sort());
      const sizes = shards.map((shard) => shard.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('--filter selects by regular expression over ids', async () => {
    const all = await listIds([]);
    const some = all.slice(0, 3);
    expect(await listIds(['--filter', exactly(some)])).toEqual(some);
  });
});

describe('run', { timeout: heavyTestTimeout }, () => {
  it('run cmac-timing --format ntpsec prints the NTPsec MACs', async () => {
    const result = await runCli(['run', 'cmac-timing', '--format', 'ntpsec', '--time', '0.02', '--filter', '/pl=48/']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^CPU capabilities: \S/);
    for (const mac of [
      '475ac1c053379e7dbd4ce80b87d2178e',
      'c906422bfe0963de6df50e022b4aa7d4',
      '991f4017858de97515260dd9ae440b06',
    ]) {
      expect(result.stdout).toContain(mac);
    }
    expect(result.stdout).toContain('# KL=key length, PL=packet length, CL=CMAC length');
  });

  it('run esptest prints the capability line, then the esptest lines', async () => {
    const result = await runCli(['run', 'esptest', '--esptest-seconds', '0.2']);
    expect(result.code, result.stderr).toBe(0);
    const out = lines(result.stdout);
    expect(out[0]).toMatch(/^CPU capabilities: [0-9a-f]/);
    expect(result.stdout).toMatch(/^Encrypted \d+ packets in [\d.]+s \([\d.]+ Mb\/s\)/m);
    expect(result.stdout).toMatch(/^Encrypted\+decrypted \d+ packets in [\d.]+s \([\d.]+ Mb\/s\)/m);
  });

  it("--compat prints esptest's own Mb/s figure (packets x 1400 / seconds / 250000)", async () => {
    const result = await runCli(['run', 'esptest', '--esptest-seconds', '0.2', '--compat']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# this run's figures, Mb\/s as esptest prints it/m);
    const lines = [...result.stdout.matchAll(/^Encrypted(?:\+decrypted)? (\d+) packets in 0\.2s \((\d+) Mb\/s\)$/gm)];
    expect(lines).toHaveLength(2);
    // esptest truncates its figure to a whole number.
    for (const [, packets, rate] of lines)
      expect(Number(rate)).toBe(Math.floor((Number(packets) * 1400) / 0.2 / 250000));
  });

  it('--format json: stdout is exactly one run result with the layers in its fingerprint', async () => {
    const ids = (await listIds(['cmac-timing'])).slice(0, 2);
    const result = await runCli(['run', 'cmac-timing', '--format', 'json', '--time', '0.02', '--filter', exactly(ids)]);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as RunResult;
    expect(run.kind).toBe('layerbench/run');
    expect(run.cases.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(run.options.filter).toBe(exactly(ids));
    expect(run.env.layers.map((layer) => layer.name).sort()).toEqual([
      '@layerbench/aes-core',
      '@layerbench/bench-runner',
      '@layerbench/cli',
      '@layerbench/cmac',
      '@layerbench/esp',
      '@layerbench/peers',
      '@layerbench/sha1-dispatch',
    ]);
    expect(run.env.layers.every((layer) => layer.source === 'workspace')).toBe(true);
    expect(run.env.layers.every((layer) => /^[0-9a-f]{64}$/.test(layer.contentHash ?? ''))).toBe(true);
    expect(run.env.capabilities).toMatch(/\S/);
    expect(run.env.dispatch.length).toBeGreaterThan(0);
    // Each case records the packages its code consists of (the unchanged-code guard of any reader of the file).
    expect(run.cases.map((c) => [c.layer, c.packages])).toEqual(
      ids.map(() => ['cmac', ['@layerbench/cmac', '@layerbench/aes-core', '@layerbench/cli']]),
    );
  });

  it('exit 2 with one line when --filter matches no case: nothing measured is not a pass', async () => {
    const result = await runCli(['run', 'sha1', '--filter', 'no-such-case', '--time', '0.02']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain("--filter 'no-such-case' matches no case of sha1");
  });

  it('--format bmf prints a Bencher Metric Format object keyed by case id', async () => {
    const ids = (await listIds(['cmac-timing'])).slice(0, 1);
    const result = await runCli(['run', 'cmac-timing', '--format', 'bmf', '--time', '0.02', '--filter', exactly(ids)]);
    expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(ids);
  });

  it('--shard k/n over a run covers the selected cases exactly once', async () => {
    const ids = (await listIds(['cmac-timing'])).slice(0, 5);
    const filter = exactly(ids);
    const runs = await Promise.all(
      [1, 2].map((k) =>
        runCli(['run', 'cmac-timing', '--format', 'json', '--time', '0.02', '--filter', filter, '--shard', `${k}/2`]),
      ),
    );
    const seen = runs.flatMap((result) => {
      expect(result.code, result.stderr).toBe(0);
      const run = JSON.parse(result.stdout) as RunResult;
      expect(run.options.shard).toMatch(/^[12]\/2$/);
      return run.cases.map((c) => c.id);
    });
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('--out is a valid result file after Ctrl-C, holding the finished cases', async () => {
    const ids = (await listIds(['cmac'])).slice(0, 8);
    const out = join(work, 'interrupted.json');
    const running = spawnCli(['run', 'cmac', '--time', '0.3', '--filter', exactly(ids), '--out', out, '--quiet']);
    // Interrupt once the first finished case has been written.
    const { result } = await interruptWhen(running, () => existsSync(out));
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/interrupted after \d+ of 8 cases \(kept in /);
    const run = readRunResult(out);
    expect(run.interrupted).toBe(true);
    expect(run.cases.length).toBeGreaterThanOrEqual(1);
    expect(run.cases.length).toBeLessThan(8);
    for (const finished of run.cases) expect(ids).toContain(finished.id);
  });

  it('default output of two suites: each in its own format under a heading', async () => {
    const ids = [...(await listIds(['cmac-timing'])).slice(0, 1), ...(await listIds(['sha1'])).slice(0, 1)];
    const result = await runCli(['run', 'cmac-timing', 'sha1', '--time', '0.02', '--filter', exactly(ids)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^== cmac-timing: /m);
    expect(result.stdout).toMatch(/^== sha1: /m);
    expect(result.stdout.indexOf('== cmac-timing')).toBeLessThan(result.stdout.indexOf('== sha1'));
    expect(result.stderr).not.toContain('\u001b[');
  });
});

describe('run --processes and check against a run of several processes', { timeout: heavyTestTimeout }, () => {
  const filter = '^sha1/64/(generic|unrolled)$';
  const noCalibration = { LAYERBENCH_CALIBRATION_DIR: join(work, 'no-calibration') };

  it('measures in k fresh processes, records each case per process, and compare takes the spread from the files', async () => {
    const files = [join(work, 'processes-a.json'), join(work, 'processes-b.json')];
    for (const out of files) {
      const result = await runCli(
        // Exactly 3 (no top-up: see the next test).
        [
          'run',
          'sha1',
          '--filter',
          filter,
          '--time',
          '0.05',
          '--processes',
          '3',
          '--extra-processes',
          '0',
          '--format',
          'json',
          '--out',
          out,
        ],
        { env: noCalibration },
      );
      expect(result.code, result.stderr).toBe(0);
      const printed = JSON.parse(result.stdout) as RunResult;
      const run = readRunResult(out);
      expect(printed.processes).toBe(3);
      expect(run.processes).toBe(3);
      expect(run.cases.map((c) => c.id).sort()).toEqual(['sha1/64/generic', 'sha1/64/unrolled']);
      for (const c of run.cases) {
        expect(c.status).toBe('ok');
        expect(c.processFigures?.['fastest-low']).toHaveLength(3);
        expect(c.processFigures?.median).toHaveLength(3);
      }
    }
    const compared = await runCli(['compare', files[0]!, files[1]!, '--format', 'json'], { env: noCalibration });
    expect([0, 1], compared.stderr).toContain(compared.code);
    const comparison = JSON.parse(compared.stdout) as {
      cases: { processes: unknown; betweenRuns: { source: string; sigma: number; dof: number } }[];
      noise: { description: string };
    };
    for (const c of comparison.cases) {
      expect(c.processes).toEqual({ base: 3, head: 3 });
      // The spread between the 3 + 3 processes when wider than the default's 10%: the two sides' variances with
      // equal weight, Welch-Satterthwaite degrees of freedom between one side's 2 and both sides' 4.
      if (c.betweenRuns.source === 'runs') {
        expect(c.betweenRuns.dof).toBeGreaterThanOrEqual(2);
        expect(c.betweenRuns.dof).toBeLessThanOrEqual(4);
      } else expect(c.betweenRuns).toMatchObject({ source: 'default', sigma: 0.1, dof: 3 });
    }
    expect(comparison.noise.description).toMatch(
      /^2 of 2 case\(s\) compared by the geometric mean of their processes \(base 3, head 3\); [0-2] of them with the spread between those processes, wider than the default; otherwise no between-run calibration/,
    );

    // The code is byte-identical to the baseline's: every case would be unchanged whatever it measured, so
    // check answers good at once and measures nothing.
    const same = await runCli(['check', '--baseline', files[0]!], { env: noCalibration });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(
      /^check: good \(exit 0\): the code of all 2 case\(s\) is identical to .*processes-a\.json's .*: nothing measured$/m,
    );
    expect(same.stderr).not.toContain('case(s) against');
    // Against a baseline of other code (its sha1-dispatch content hash differs), check measures as many
    // processes as the baseline's run, exactly the baseline's cases, and judges them by their timings.
    const base = readRunResult(files[0]!);
    const otherCode = join(work, 'processes-other-code.json');
    writeResultFile(otherCode, {
      ...base,
      env: {
        ...base.env,
        layers: base.env.layers.map((l) =>
          l.name === '@layerbench/sha1-dispatch' ? { ...l, contentHash: 'f'.repeat(64) } : l,
        ),
      },
    });
    const checked = await runCli(['check', '--baseline', otherCode], { env: noCalibration });
    expect(checked.stderr).toMatch(/layerbench check: 2 case\(s\) against .* in 3 processes/);
    expect(checked.stdout).not.toContain('code identical');
    // Code of the same speed on both sides, 3 processes each, the default spread: good, or cannot tell.
    expect([0, 125], checked.stdout + checked.stderr).toContain(checked.code);
  });

  it("tops a run up with more processes while a case has too few in the CPU's fast state, and says so", async () => {
    const out = join(work, 'processes-top-up.json');
    const result = await runCli(
      ['run', 'sha1', '--filter', filter, '--time', '0.2', '--processes', '2', '--extra-processes', '2', '--out', out],
      { env: noCalibration },
    );
    expect(result.code, result.stderr).toBe(0);
    // Two processes are fewer than compare takes calm figures from: said before they run.
    expect(result.stderr).toContain('layerbench run: 2 processes: compare takes calm figures only from 3 or more');
    const run = readRunResult(out);
    // How many depends on the machine's state while it ran; what was done must match what was said.
    expect(run.processes).toBeGreaterThanOrEqual(2);
    expect(run.processes).toBeLessThanOrEqual(4);
    for (const c of run.cases) expect(c.processFigures?.median).toHaveLength(run.processes!);
    const added = /layerbench run: (\d) more process\(es\), (\d) in all: /.exec(result.stderr);
    if (run.processes! > 2) expect(added?.slice(1).map(Number)).toEqual([run.processes! - 2, run.processes]);
    else expect(added).toBeNull();
    // Cases still short after the top-up are named, with their fast-state processes of all.
    const still = /still fewer than 2 processes in the CPU's fast state: (.*); compare may/.exec(result.stderr);
    if (still !== null) {
      expect(run.processes).toBe(4);
      for (const part of still[1]!.split(', '))
        expect(part).toMatch(new RegExp(`^sha1/64/(generic|unrolled) [01] of ${run.processes}$`));
    }
  });

  it("tops a run up when its processes lie above the stored calibration's calm level, and names the calibration", async () => {
    // The machine's fingerprint, from a run of one process.
    const first = join(work, 'processes-fingerprint.json');
    expect((await runCli(['run', 'sha1', '--filter', filter, '--time', '0.05', '--out', first])).code).toBe(0);
    const env = readRunResult(first).env;
    // A calibration of this machine whose calm level no process reaches (a fast state far below this one).
    // --time 0.5: calm figures form here from about 0.3 s a case (none at 0.2).
    const dir = join(work, 'low-calibration');
    const cases = Object.fromEntries(
      ['sha1/64/generic', 'sha1/64/unrolled'].map((id) => [
        id,
        { n: 8, medianNs: 300, sigma: { 'calm-relative': 0.01 }, calmLevel: 1 },
      ]),
    );
    // Made at a load no test run exceeds, so that the run is never busier than it (loadBeyondCalibration).
    const calibration = syntheticCalibration(env, 0.5, cases, 1000);
    const stored = saveBetweenRunCalibration(calibration, dir);
    const out = join(work, 'processes-low-level.json');
    const result = await runCli(
      ['run', 'sha1', '--filter', filter, '--time', '0.5', '--processes', '2', '--extra-processes', '1', '--out', out],
      { env: { LAYERBENCH_CALIBRATION_DIR: dir } },
    );
    expect(result.code, result.stderr).toBe(0);
    const run = readRunResult(out);
    // Some process recorded a calm figure (else no process would give one, and nothing is added): then all three ran.
    const calm = run.cases.some((c) => (c.processCalmLevels ?? []).length > 0);
    if (!calm) {
      expect(run.processes).toBe(2);
      return;
    }
    expect(run.processes).toBe(3);
    expect(result.stderr).toContain(
      `layerbench run: 1 more process(es), 3 in all: cases had fewer than 2 processes in the CPU's fast state at the level of the calibration ${stored} (its slower state is left out by compare)`,
    );
    expect(result.stderr).toMatch(
      /still fewer than 2 processes in the CPU's fast state at the level of the calibration .*: sha1\/64\/\w+ 0 of 3/,
    );
  });

  it('refuses --extra-processes without a run of several processes', async () => {
    const result = await runCli(['run', 'sha1', '--filter', filter, '--extra-processes', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--extra-processes goes with --processes k/);
    const negative = await runCli(['run', 'sha1', '--filter', filter, '--processes', '2', '--extra-processes', '-1']);
    expect(negative.code).toBe(2);
  });

  it('keeps the processes that finished at Ctrl-C', async () => {
    const out = join(work, 'processes-interrupted.json');
    // The processes write their files in a temporary folder under TMPDIR: process 2's file means process 1 ended.
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const running = spawnCli(['run', 'sha1', '--filter', filter, '--time', '0.3', '--processes', '20', '--out', out], {
      env: { TMPDIR: tmp },
    });
    const secondStarted = () => readdirSync(tmp).some((folder) => existsSync(join(tmp, folder, 'process-2.json')));
    const { result } = await interruptWhen(running, secondStarted);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/interrupted after 1 of 20 processes \(kept in /);
    const run = readRunResult(out);
    expect(run.interrupted).toBe(true);
    expect(run.processes).toBe(1);
    // The temporary folder is gone.
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses --processes 0 as bad input', async () => {
    const result = await runCli(['run', 'sha1', '--filter', filter, '--processes', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/processes/);
  });
});
