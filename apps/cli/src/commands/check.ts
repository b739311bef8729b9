// `layerbench check --baseline <file>`: one step of `git bisect run`. Measures
// the baseline's cases on this checkout and answers good (0), regressed (1) or
// cannot tell (125, which makes git bisect skip the commit).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeUnchanged, compareResults, recordedPackages, runCommit } from '@layerbench/bench-runner/compare';
import { formatComparison } from '@layerbench/bench-runner/reporters';
import type { BenchCase, Comparison, RunResult } from '@layerbench/bench-runner';
import {
  UsageError,
  anyText,
  booleanOption,
  formatOptionHelp,
  fraction,
  nonNegativeInteger,
  parseArgs,
  positiveInteger,
  positiveNumber,
  ratioAboveOne,
  regexText,
  valueOption,
} from '../args.js';
import { exactIdsFilter, extraProcessesFor, measureInProcesses, runInProcesses } from '../fresh-processes.js';
import { failureLines, measure, prepareCases, suiteErrorLines, unmeasuredEnv } from '../measure.js';
import type { MeasureRequest } from '../measure.js';
import { caseLayers, chooseNoise } from '../between-runs.js';
import { StaleBuildError } from '../layers.js';
import { InputFileError, readRunInput } from '../result-files.js';
import { allSuites, selectCases, suiteByName } from '../suites/index.js';
import { sayer, styleFor } from '../terminal.js';
import { bisectSessionBad, eachStepHint } from '../bisect-session.js';
import { cpuChoice } from '../cpu.js';
import type { Command, CommandContext } from './types.js';
import { side } from './bisect.js';
import { checkAgainstStack } from './check-against.js';
import { movingRef } from './check-ends.js';
import { defaultLongerLook } from './longer-look.js';
import {
  defaultSecondLookProcesses,
  secondLook,
  secondLookLines,
  secondLookLeastAlpha,
  secondLookPlan,
  secondLookSuspects,
} from './second-look.js';
import { oneProcessModeRange } from './compare.js';

import { checkExit, ruledOutNote, slowdownRuledOut, type CheckVerdict } from './check-exit.js';

export { checkExit, type CheckVerdict } from './check-exit.js';

const options = {
  baseline: valueOption(
    'file',
    'the result file of a good state (from `layerbench run --out`) (this or --against is required)',
    anyText,
  ),
  against: valueOption(
    'spec',
    "measure this checkout side by side with the stack of <spec> (e.g. git:v1.0; bisect's side syntax) in the same worker processes (bisect --paired), instead of against a result file",
    side,
  ),
  bad: valueOption(
    'spec',
    'with --against: the bad end of the range (e.g. git:<commit>, a branch or a sha: not HEAD, which git bisect moves). The two ends are measured once (kept in .layerbench-cache for the other steps); each step judges only the cases that regressed between them, each against the midpoint of its own change',
    side,
  ),
  'each-step': booleanOption(
    "with --against inside git bisect: measure every step against --against alone, instead of taking the session's bad end as --bad",
  ),
  filter: valueOption('regex', "only cases whose id matches (default: the baseline's filter)", regexText),
  time: valueOption('seconds', "seconds of measurement per case (default: the baseline's)", positiveNumber('seconds')),
  cpu: valueOption('n|auto|none', "the CPU to measure on (default: the baseline's, else not pinned)", cpuChoice),
  processes: valueOption(
    'k',
    "measure in k fresh processes one after the other (default: as many as the baseline's run)",
    positiveInteger('processes'),
  ),
  'extra-processes': valueOption(
    'n',
    "in k processes (k >= 2): up to n more while a case has fewer than k processes in the shared CPU's fast state, as `run --extra-processes` (default k/2 rounded up; 0: exactly k)",
    nonNegativeInteger('processes'),
  ),
  'second-look': valueOption(
    'n',
    `one process a side: measure a case called regressed by less than --second-look-below again in n fresh processes and keep it regressed only when each of them calls it regressed too (at alpha ${secondLookLeastAlpha}), else inconclusive (default ${defaultSecondLookProcesses}; 0: no second look)`,
    nonNegativeInteger('processes'),
  ),
  'second-look-below': valueOption(
    'ratio',
    `the ratio below which a case called regressed one process a side gets the second look (default ${oneProcessModeRange}, per-process modes of x1.35-x3.1 were measured on a shared machine; times the head run's load average over its CPU count when above 1)`,
    ratioAboveOne('checkout over baseline'),
  ),
  'longer-look': valueOption(
    'x',
    `with --against: measure the cases left inconclusive again at x times --time in twice the fresh processes, and judge them by that (default ${defaultLongerLook}; 1: no longer look)`,
    positiveInteger('factor'),
  ),
  threshold: valueOption(
    'ratio',
    'slowdowns smaller than this count as good (e.g. 0.05)',
    fraction('a relative change'),
  ),
  alpha: valueOption('p', 'significance level of the per-case test', fraction('a probability')),
  build: booleanOption(
    'run `npm run build` in this checkout first (exit 125 when it fails), then check with the fresh build',
  ),
  calibration: valueOption(
    'file',
    'the between-run calibration to use (default: the stored one of this machine and runtime)',
    anyText,
  ),
  'across-environments': booleanOption('judge speed even when the CPU, core count or runtime differ from the baseline'),
  quiet: booleanOption('no progress on stderr', 'q'),
};

const argSpec = { options, positionals: { name: '[suite...]' } };

export const checkCommand: Command = {
  name: 'check',
  summary: "for `git bisect run`: measure the baseline's cases, exit 0 good / 1 regressed / 125 cannot tell",
  usage: [
    'Usage: layerbench check --baseline <file> [suite...] [options]',
    '       (or --against <spec> in place of --baseline <file>)',
    '',
    "Runs the baseline's cases (or the given suites, restricted to cases the baseline",
    'has) on this checkout and compares them with the baseline, exactly as',
    '`layerbench compare` does: each interval includes the between-run spread of the',
    'case from `layerbench calibrate` (or the conservative default). One guard: a case',
    "whose code is byte-identical to the baseline's (its layer and the layers below it,",
    "the CLI's suites, bench-runner, the runtime, CPU and dispatch decisions, by content",
    'hash) cannot have regressed and counts as unchanged, so a commit that did not touch',
    'a case is never blamed for it; when that holds for every case, nothing is measured:',
    'good. The build emits no comments, so a comment-only commit is such a commit.',
    '',
    `One process a side, a case called regressed by less than x${oneProcessModeRange} (what a process running`,
    'a case in a mode of its own can look like; on a loaded machine, x4 times the load',
    'average over the CPU count) gets a second look: --second-look fresh',
    `processes of this checkout (default ${defaultSecondLookProcesses}), each compared with the baseline at alpha`,
    `${secondLookLeastAlpha}; it stays regressed only when each calls it regressed too, else inconclusive.`,
    '',
    'With --against <spec>, the stack of <spec> (built once in a cached worktree) and',
    'this checkout are measured side by side in the same worker processes, compared',
    'within processes (`layerbench bisect --paired`, without the layer swaps; 6',
    "processes, 12 rounds, --time per case and side, default 0.6; suites default to bisect's),",
    'which sees changes of a few percent that two separate runs cannot. Cases left',
    `inconclusive get a longer look: measured again at x${defaultLongerLook} --time in twice the processes`,
    '(--longer-look) and judged by that. A case whose layer, the layers below it, the',
    'engine and the runtime are the same code on both sides is not measured; when no',
    "selected case's code differs from <spec>'s, nothing is measured: good. --cpu,",
    '--calibration and --across-environments belong to --baseline.',
    '',
    'With --against <good> --bad <spec> (the two ends of the bisection), the ends are',
    'measured once and kept; each step judges only the cases that regressed between',
    'them, each against the midpoint of its own change (sqrt of bad/good): bad when',
    "its interval lies beyond it, good when below. A case that runs one end's code is",
    "that end's without measuring. No case regressed between the ends: 128.",
    "Inside a git bisect session, --against <good> without --bad takes the session's",
    'bad end (the commit first marked bad, from BISECT_LOG) as --bad and says so;',
    '--each-step measures every step against <good> alone instead.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Exit codes (what `git bisect run` expects):',
    '  0    good: no selected case regressed (an inconclusive case whose interval rules out',
    '       a slowdown beyond the threshold, its high end at most 1 + threshold, counts too)',
    '  1    bad: a case regressed beyond the threshold',
    '  125  cannot tell: a verdict was inconclusive with such a slowdown still possible, the',
    '       build failed, a case failed or computed a different digest, the baseline has',
    '       none of the selected cases, or the CPU, core count or runtime differ from the',
    "       baseline's",
    '  128  bad input (usage, unreadable baseline, a --filter matching none of the',
    "       baseline's cases, no case regressed between --against and --bad): stops",
    '       `git bisect run` rather than marking the commit bad, which exit 2 would do',
    '',
    'Example:',
    '  layerbench run sha1 --time 1 --out /tmp/good.json     # on the good commit',
    '  git bisect start HEAD v1.0 && git bisect run node apps/cli/dist/main.js check \\',
    '      --build --baseline /tmp/good.json --filter "sha1/.*64" --threshold 0.05',
    '  git bisect run node apps/cli/dist/main.js check --build --against git:v1.0 sha1 --filter /1500/ --time 3',
    '  git bisect start main v1.0 && git bisect run node apps/cli/dist/main.js check \\',
    '      --build --against git:v1.0 --bad git:main sha1',
  ].join('\n'),
  argSpec,
  run: async (args, ctx) => {
    try {
      return await checkAgainstBaseline(args, ctx);
    } catch (error) {
      const style = styleFor(ctx.stderr, ctx.env);
      if (error instanceof UsageError || error instanceof InputFileError) {
        const hint =
          error instanceof UsageError
            ? ' (see layerbench check --help)'
            : error instanceof StaleBuildError
              ? ' (or give check --build, which builds first: at every step of git bisect run, as git checks each commit out)'
              : '';
        ctx.stderr.write(`${style.red('layerbench:')} ${error.message}${hint}\n`);
        return checkExit.badInput;
      }
      // This checkout could not be measured at all (e.g. a layer's API differs here):
      // exit 1 would mark the commit bad, so say "cannot tell" and let git bisect skip it.
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      ctx.stderr.write(
        `${style.red('layerbench check:')} could not measure this checkout: ${detail}\ncannot tell (125)\n`,
      );
      return checkExit.cannotTell;
    }
  },
};

/** The bisect answer for one comparison of this checkout's run against the baseline. */
export function checkVerdict(comparison: Comparison, head: RunResult): CheckVerdict {
  const failures = failureLines(head);
  if (failures.length > 0)
    return { code: checkExit.cannotTell, reason: `${failures.length} case(s) failed or computed a wrong digest` };
  const changedDigest = comparison.cases.filter((result) => result.digestChanged).map((result) => result.id);
  if (changedDigest.length > 0)
    return { code: checkExit.cannotTell, reason: `output digest changed: ${changedDigest.join(', ')}` };
  if ((comparison.incomparable?.length ?? 0) > 0 && comparison.acrossEnvironments !== true) {
    return {
      code: checkExit.cannotTell,
      reason: `environments differ from the baseline's (${comparison.incomparable!.join(', ')}); use \`layerbench bisect\``,
    };
  }
  const regressed = comparison.cases.filter((result) => result.verdict === 'regressed').map((result) => result.id);
  if (regressed.length > 0) return { code: checkExit.regressed, reason: `regressed: ${regressed.join(', ')}` };
  const open = comparison.cases.filter((result) => result.verdict === 'inconclusive');
  const ruledOut = open.filter((result) => slowdownRuledOut(result.ratioCi, comparison.threshold));
  const inconclusive = open.filter((result) => !ruledOut.includes(result)).map((result) => result.id);
  if (inconclusive.length > 0)
    return { code: checkExit.cannotTell, reason: `inconclusive: ${inconclusive.join(', ')}` };
  if (comparison.cases.length === 0) return { code: checkExit.cannotTell, reason: 'no case was compared' };
  const note = ruledOutNote(ruledOut.map((result) => ({ id: result.id, ratio: result.ratio, ci: result.ratioCi })));
  return { code: checkExit.good, reason: `${comparison.cases.length} case(s) not regressed${note}` };
}

/**
 * The number of cases check would measure, when the code of every one is
 * byte-identical to the baseline's (codeUnchanged: its layer and those below
 * it, the CLI, the engine, the runtime, the CPU and the dispatch decisions);
 * undefined when any differs or none is selected.
 */
async function identicalToBaseline(request: MeasureRequest, baseline: RunResult): Promise<number | undefined> {
  const prepared = await prepareCases(request);
  if (prepared.selected.length === 0) return undefined;
  const head = unmeasuredEnv(prepared.layers);
  const baselineCases = new Map(baseline.cases.map((c) => [c.id, c]));
  const same = prepared.selected.every((c) => {
    // The packages both sides record (the baseline's file, this checkout's case), else the CLI's map.
    const layers = recordedPackages(baselineCases.get(c.id) ?? {}, c) ?? caseLayers(c);
    return layers !== undefined && codeUnchanged(baseline.env, head, layers);
  });
  return same ? prepared.selected.length : undefined;
}

/** The root of the checkout this CLI was built in (the package.json with workspaces above it). */
function workspaceRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { workspaces?: unknown }).workspaces !== undefined
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `--build`: build this checkout, then run check again in a fresh process on the new build. */
async function buildThenCheck(args: string[], ctx: CommandContext): Promise<number> {
  const root = workspaceRoot();
  if (root === undefined) throw new InputFileError('--build: no npm workspace root found above the layerbench CLI');
  ctx.stderr.write(`layerbench check: building ${root}\n`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', env: ctx.env });
  if (build.status !== 0) {
    ctx.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
    ctx.stderr.write(
      `layerbench check: the build failed (${build.error?.message ?? `exit ${build.status}`}): cannot tell (125)\n`,
    );
    return checkExit.cannotTell;
  }
  const main = join(root, 'apps', 'cli', 'dist', 'main.js');
  const rest = args.filter((arg) => arg !== '--build');
  return new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [main, 'check', ...rest], {
      cwd: ctx.cwd,
      env: ctx.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => ctx.stdout.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => ctx.stderr.write(chunk));
    child.on('error', (error) => {
      ctx.stderr.write(`layerbench check: could not start the fresh build: ${error.message}\n`);
      resolve(checkExit.cannotTell);
    });
    child.on('close', (code) => resolve(code ?? checkExit.cannotTell));
  });
}

async function checkAgainstBaseline(args: string[], ctx: CommandContext): Promise<number> {
  const parsed = parseArgs(args, argSpec);
  const chosen = parsed.options;
  if (chosen.baseline !== undefined && chosen.against !== undefined) {
    throw new UsageError('--baseline and --against exclude each other: compare with a result file, or with a stack');
  }
  if (chosen.baseline === undefined && chosen.against === undefined) {
    throw new UsageError('--baseline <file> or --against <spec> is required');
  }
  if (chosen.build) return buildThenCheck(args, ctx);
  if (chosen.against !== undefined) {
    for (const flag of [
      'cpu',
      'calibration',
      'across-environments',
      'extra-processes',
      'second-look',
      'second-look-below',
    ] as const) {
      if (chosen[flag] !== undefined && chosen[flag] !== false) {
        throw new UsageError(`--${flag} belongs to --baseline; --against measures both sides in the same processes`);
      }
    }
    for (const name of parsed.positionals) suiteByName(name);
    if (chosen.bad !== undefined && chosen['each-step']) {
      throw new UsageError('--each-step and --bad exclude each other: --bad names the far end every step is judged by');
    }
    if (chosen.bad !== undefined) {
      const moving = Object.values(chosen.bad.layers).find(
        (l): l is { kind: 'git'; ref: string } => l.kind === 'git' && movingRef(l.ref),
      );
      if (moving) {
        throw new UsageError(
          `--bad git:${moving.ref} moves as git bisect checks commits out: name the bad end by its commit or a branch`,
        );
      }
      if (
        Object.values(chosen.bad.layers).every((l) => l.kind === 'workspace') &&
        chosen.bad.runtime.kind === 'current'
      ) {
        throw new UsageError('--bad workspace is this checkout: name the bad end by its commit or a branch');
      }
    }
    // Inside git bisect the session knows the far bad end: measure the two ends once rather than every case the
    // range touches at every step.
    const session = chosen.bad === undefined && !chosen['each-step'] ? bisectSessionBad(ctx.cwd) : undefined;
    if (session !== undefined) {
      const say = sayer(ctx, chosen.quiet, 'check');
      say(
        `inside git bisect: the session's ${session.term} end ${session.commit.slice(0, 12)} is --bad: the two ends are measured once, then each step only on the cases that regressed between them (${eachStepHint})`,
      );
    }
    return checkAgainstStack(
      {
        against: chosen.against,
        bad: session === undefined ? chosen.bad : side(`git:${session.commit}`, '--bad'),
        badFromSession: session !== undefined,
        suites: parsed.positionals,
        filter: chosen.filter,
        time: chosen.time,
        processes: chosen.processes,
        longerLook: chosen['longer-look'],
        threshold: chosen.threshold,
        alpha: chosen.alpha,
        quiet: chosen.quiet,
      },
      ctx,
    );
  }
  if (chosen['each-step']) {
    throw new UsageError('--each-step belongs to --against; --baseline measures this checkout against its file');
  }
  if (chosen['longer-look'] !== undefined) {
    throw new UsageError('--longer-look belongs to --against; --baseline has its second look (--second-look)');
  }
  if (chosen.bad !== undefined) {
    throw new UsageError('--bad belongs to --against: the two ends are measured side by side');
  }
  if (chosen.baseline === undefined) throw new UsageError('--baseline <file> or --against <spec> is required');

  const baseline = readRunInput(ctx, chosen.baseline);
  const style = styleFor(ctx.stderr, ctx.env);
  const suiteNames = parsed.positionals.length > 0 ? parsed.positionals : baseline.suites;
  const suites = suiteNames.length > 0 ? suiteNames.map(suiteByName) : allSuites;
  const filter = chosen.filter ?? baseline.options.filter;
  const baselineOk = baseline.cases.filter((result) => result.status === 'ok');
  // A --filter that matches none of the baseline's cases is the same at every commit: bad input (128), which
  // stops git bisect at once, not 125 at every step, which would skip them all.
  if (chosen.filter !== undefined && selectCases(baselineOk, { filter: chosen.filter }).length === 0) {
    throw new UsageError(
      `--filter '${chosen.filter}' matches none of the ${baselineOk.length} measured case(s) of ${chosen.baseline}`,
    );
  }
  const baselineIds = new Set(baselineOk.map((result) => result.id));

  const timePerCase = chosen.time ?? baseline.options.timePerCase;
  const cpu = chosen.cpu ?? baseline.env.measuredOnCpu ?? 'none';
  const processes = chosen.processes ?? baseline.processes ?? 1;
  const extra = extraProcessesFor(
    chosen['extra-processes'],
    processes,
    '--processes k (2 or more), or a baseline of several processes',
  );
  const request: MeasureRequest = {
    suites,
    selection: filter === undefined ? {} : { filter },
    timePerCase,
    cpu,
    quiet: chosen.quiet,
    onlyIds: baselineIds,
    onStart: ({ cases }) => {
      if (cases.length === 0) return; // said below: the baseline has none of the selected cases
      ctx.stderr.write(
        `layerbench check: ${cases.length} case(s) against ${chosen.baseline}${processes > 1 ? ` in ${processes} processes` : ''}\n`,
      );
    },
  };
  // In several processes each child runs exactly the selected cases.
  const childArgs = (selected: readonly BenchCase[]): string[] => [
    ...suites.map((suite) => suite.name),
    '--filter',
    exactIdsFilter(selected.map((c) => c.id)),
    '--time',
    String(timePerCase),
    '--cpu',
    String(cpu),
  ];
  // A commit that touched only other layers, documentation or comments leaves every case's code byte-identical
  // to the baseline's, and the guard would call each unchanged whatever it measured: answer without measuring.
  const identical = await identicalToBaseline(request, baseline);
  if (identical !== undefined) {
    ctx.stdout.write(
      `check: good (exit 0): the code of all ${identical} case(s) is identical to ${chosen.baseline}'s (their layers and those below them, the CLI's suites, bench-runner, the runtime, the CPU and the dispatch decisions): nothing measured\n`,
    );
    return checkExit.good;
  }
  const measurement =
    processes > 1
      ? await measureInProcesses(request, childArgs, processes, 'check', ctx, extra)
      : await measure(request, ctx);
  if (typeof measurement === 'number') {
    ctx.stderr.write(`layerbench check: no process could measure this checkout: cannot tell (125)\n`);
    return measurement === 130 ? 130 : checkExit.cannotTell;
  }
  if (measurement.selected.length === 0) {
    ctx.stderr.write(`layerbench check: the baseline has none of the selected cases: cannot tell (125)\n`);
    return checkExit.cannotTell;
  }
  if (measurement.run.interrupted === true) {
    ctx.stderr.write('layerbench check: interrupted\n');
    return 130;
  }
  for (const line of suiteErrorLines(measurement.suiteErrors)) ctx.stderr.write(`${style.red('error:')} ${line}\n`);
  const compareWithBaseline = (head: RunResult, alpha = chosen.alpha): Comparison =>
    compareResults(baseline, head, {
      ...(chosen.threshold === undefined ? {} : { threshold: chosen.threshold }),
      ...(alpha === undefined ? {} : { alpha }),
      noise: chooseNoise(ctx, baseline, head, chosen.calibration),
      acrossEnvironments: chosen['across-environments'],
      caseLayers,
      guardUnchangedCode: true,
    });
  let comparison = compareWithBaseline(measurement.run);
  ctx.stdout.write(formatComparison(comparison).replace(/\n?$/, '\n'));
  for (const line of failureLines(measurement.run)) ctx.stderr.write(`${style.red(line)}\n`);
  const plan = secondLookPlan({
    processes: chosen['second-look'],
    below: chosen['second-look-below'],
    head: measurement.run.env,
    alpha: comparison.alpha,
  });
  if (secondLookSuspects(comparison, plan).length > 0) {
    // A second look in fresh processes, each running every case the first did (a case measured alone
    // would meet another JIT history), each compared with the baseline as the first was, at the plan's alpha.
    const say = (message: string) => {
      if (!chosen.quiet && ctx.stderr.isTTY === true) ctx.stderr.write(`check: second look, ${message}\n`);
    };
    const fresh = await runInProcesses(ctx, childArgs(measurement.selected), plan.processes, say);
    if (fresh.interrupted) {
      ctx.stderr.write('layerbench check: interrupted\n');
      return 130;
    }
    if (fresh.failure !== undefined) {
      ctx.stderr.write(
        `layerbench check: second look, process ${fresh.failure.process} exited ${fresh.failure.code}:\n${fresh.failure.stderr.replace(/\n?$/, '\n')}`,
      );
    }
    const looked = secondLook(
      comparison,
      fresh.runs.map((run) => compareWithBaseline(run, plan.alpha)),
      plan,
    );
    comparison = looked.comparison;
    ctx.stdout.write(`${secondLookLines(looked.looks, plan, fresh.runs.length).join('\n')}\n`);
  }
  const verdict = checkVerdict(comparison, measurement.run);
  const word = verdict.code === checkExit.good ? 'good' : verdict.code === checkExit.regressed ? 'bad' : 'cannot tell';
  ctx.stdout.write(`check: ${word} (exit ${verdict.code}): ${verdict.reason}\n`);
  if (verdict.reason.startsWith('inconclusive')) {
    // Separate runs cannot tell a change of a few percent here; the paired form of this step can.
    const commit = runCommit(baseline.env);
    ctx.stderr.write(
      `check: to tell changes of a few percent, measure the baseline's commit and this checkout in the same worker processes: check --against git:${commit === undefined ? '<good commit>' : commit.slice(0, 12)} (same suites and --filter)\n`,
    );
  }
  return verdict.code;
}
