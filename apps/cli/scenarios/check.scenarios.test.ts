// The `check` scenario: `git bisect run layerbench check --build --baseline
// base.json` over a throwaway history on a temporary clone, as a user runs it.
// One commit is the real regression (the SHA-1 seed's: the dispatcher falls
// back to its generic block function); the others are unrelated — a harmless
// change in another layer (cmac) before it, a documentation change, a
// comment-only change in sha1-dispatch itself (the build emits no comments, so
// its code is identical and check answers good without a verdict on timings),
// and harmless changes in aes-core and esp after it. The assertion is the
// product's own claim: git bisect names the regression commit. No timing
// threshold: the baseline is measured once at the base commit, every bisect
// step builds its checkout and measures it in a fresh process, and check's
// verdicts (with no calibration stored: the conservative default spread)
// decide.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneHistory, commentOnly, forceGenericSha1, harmlessExport, type History } from './history.ts';

const SCENARIO_TIMEOUT = 30 * 60_000;
const FILTER = '^sha1/(64|1500)/dispatch$';

let history: History;
let env: NodeJS.ProcessEnv;

/** A command in the clone; its output goes to the test log (the scenario report quotes it). */
function inClone(command: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(command, args, { cwd: history.repo, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  process.stdout.write(`\n$ ${command} ${args.join(' ')}  -> exit ${r.status}\n${out}`);
  return { code: r.status, out };
}

beforeAll(() => {
  history = cloneHistory('layerbench-check-scenarios-');
  // No between-run calibration from this machine's store: the verdicts use compare's stated default.
  const calibrationDir = join(history.dir, 'no-calibration');
  mkdirSync(calibrationDir);
  env = { ...process.env, LAYERBENCH_CALIBRATION_DIR: calibrationDir, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
});
afterAll(() => history?.remove());

describe('check scenarios: git bisect run over unrelated commits and one regression', () => {
  it('names the commit where the SHA-1 dispatcher falls back to generic, not the harmless cmac, comment, aes-core or esp commits', {
    timeout: SCENARIO_TIMEOUT,
  }, () => {
    const cmacHarmless = history.commit('cmac: a harmless export', (repo) => harmlessExport(repo, 'cmac'));
    const docs = history.commit(
      'docs: a note in the root README',
      (repo) => appendFileSync(join(repo, 'README.md'), '\nScenario test: a documentation change.\n'),
      cmacHarmless,
    );
    const comment = history.commit('sha1-dispatch: comments only', (repo) => commentOnly(repo, 'sha1-dispatch'), docs);
    const regression = history.commit('sha1-dispatch: fall back to generic', forceGenericSha1, comment);
    const aesHarmless = history.commit(
      'aes-core: a harmless export',
      (repo) => harmlessExport(repo, 'aes-core'),
      regression,
    );
    const espHarmless = history.commit('esp: a harmless export', (repo) => harmlessExport(repo, 'esp'), aesHarmless);

    // The baseline: the base commit, built and measured once.
    history.git('checkout', '--quiet', '--detach', history.base);
    expect(inClone('npm', ['run', 'build']).code).toBe(0);
    const baseline = join(history.dir, 'base.json');
    const main = join(history.repo, 'apps', 'cli', 'dist', 'main.js');
    const run = inClone(process.execPath, [
      main,
      'run',
      'sha1',
      '--filter',
      FILTER,
      '--time',
      '0.3',
      '--out',
      baseline,
      '--quiet',
    ]);
    expect(run.code).toBe(0);

    history.git('bisect', 'start', espHarmless, history.base);
    const bisect = inClone('git', [
      'bisect',
      'run',
      process.execPath,
      main,
      'check',
      '--build',
      '--baseline',
      baseline,
    ]);
    const log = history.git('bisect', 'log');
    process.stdout.write(`\n$ git bisect log\n${log}\n`);
    history.git('bisect', 'reset');

    expect(bisect.code, bisect.out).toBe(0);
    expect(bisect.out).toMatch(new RegExp(`^${regression} is the first bad commit`, 'm'));
    // Every commit before the regression that bisect tested was good, not skipped.
    for (const commit of [cmacHarmless, docs, comment]) {
      if (log.includes(commit)) expect(log, commit).toMatch(new RegExp(`git bisect good ${commit}`));
    }
  });
});
