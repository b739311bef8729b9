// `layerbench find --good <ref> --bad <ref> --filter <case>`: the first commit
// where one case changed (the `asv find` idea). Binary search over
// `git rev-list --ancestry-path good..bad`, each midpoint built in a cached
// worktree and measured against the good commit in interleaved rounds, each
// commit in several worker processes (the replicates, as in bisect; one copy
// of each layer per process); commits that do not build are skipped like
// `git bisect skip`. Prints the path it took.
import { spawnSync } from 'node:child_process';
import { processModel, type SampleComparison } from '@layerbench/bench-runner/stats';
import {
  anyText,
  booleanOption,
  formatOptionHelp,
  fraction,
  parseArgs,
  positiveInteger,
  positiveNumber,
  regexText,
  repeatedOption,
  UsageError,
  valueOption,
} from '../args.js';
import { formatEffect } from '@layerbench/bench-runner/reporters';
import { LayerSourceError, resolveCommit, type LayerResolver } from '../bisect/side-sources.js';
import { CODE_LAYERS, type CodeLayerName } from '../bisect/side-spec.js';
import { DEFAULT_VISIT_PERCENTILE, shuffle, visitValue, WARMUP_SECONDS } from '../bisect/run.js';
import { CompositionWorker, MixError } from '../bisect/worker/client.js';
import { progressStream } from '../terminal.js';
import {
  BISECT_DEFAULTS,
  DEFAULT_BISECT_SUITES,
  percentileValue,
  processCount,
  resolverFor,
  sharedSourceOptions,
} from './bisect.js';
import { checkedCpuPlan, cpuChoice, cpuOptionHelp, describeCpuPlan, pinAll, planCpu, type CpuPlan } from '../cpu.js';
import type { Command, CommandContext } from './types.js';

const options = {
  good: valueOption('ref', 'a commit where the case was as expected', anyText),
  bad: valueOption('ref', 'a later commit where it changed (default HEAD)', anyText),
  filter: valueOption('regex', 'the case (a regular expression matching exactly one case id)', regexText),
  suite: repeatedOption(
    'name',
    `the suite(s) holding the case (default: ${DEFAULT_BISECT_SUITES.join(', ')})`,
    anyText,
  ),
  time: valueOption(
    'seconds',
    `seconds measured per commit per step, over its processes and rounds (default ${BISECT_DEFAULTS.time})`,
    positiveNumber('seconds'),
  ),
  rounds: valueOption(
    'n',
    `interleaved rounds per step (default ${BISECT_DEFAULTS.rounds})`,
    positiveInteger('rounds'),
  ),
  processes: valueOption(
    'n',
    `worker processes per commit, the replicates (default ${BISECT_DEFAULTS.processes}; at least 2)`,
    processCount,
  ),
  cpu: valueOption('n|auto|none', cpuOptionHelp, cpuChoice),
  percentile: valueOption(
    'p',
    "the percentile of a visit's samples that stands for the visit (default 10; 50 = median)",
    percentileValue,
  ),
  threshold: valueOption('ratio', 'a change smaller than this is noise (default 0.03)', fraction('a relative change')),
  alpha: valueOption('p', 'significance level (default 0.01)', fraction('a probability')),
  ...sharedSourceOptions,
  quiet: booleanOption('no progress on stderr'),
};

const argSpec = { options };

export const findCommand: Command = {
  name: 'find',
  summary: 'binary-search the commits between two refs for the one that changed a case',
  usage: [
    'Usage: layerbench find --good <ref> [--bad <ref>] --filter <case> [options]',
    '',
    'Measures the case at the good and bad commits, then binary-searches the commits',
    'on the ancestry path between them: each midpoint is built in a cached worktree',
    '(<repo>/.layerbench-cache/worktrees/<commit>, reused across runs) and measured',
    'against the good commit in interleaved rounds, each commit in several worker',
    'processes (the replicates, as in bisect). The first step measures an A/A',
    'control too (the good commit again, in processes of its own): the whole change',
    'counts only when it is significant beyond what identical stacks show, else there',
    'is nothing to find. A midpoint counts as changed when its change from good is',
    'more than half of the whole change (in log terms).',
    'Commits that do not build are skipped (git bisect skip), the nearest other one',
    'is tried. Every step is printed.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Exit codes: 0 found (or no change to find), 2 bad input (usage, unknown ref,',
    'the good or bad commit does not build, the filter does not name one case),',
    '3 interrupted (Ctrl-C): the steps so far are printed and the range left is named,',
    'never a pass; 125 cannot tell (only commits that do not build are left).',
    '',
    'Example:',
    '  layerbench find --good v0.1.0 --bad HEAD --filter "sha1/.*size=1024" --deps link',
  ].join('\n'),
  argSpec,
  run: find,
};

function revList(repoRoot: string, good: string, bad: string): string[] {
  const r = spawnSync('git', ['rev-list', '--reverse', '--ancestry-path', `${good}..${bad}`], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new UsageError(`git rev-list ${good}..${bad} failed: ${(r.stderr ?? '').trim()}`);
  return r.stdout.split('\n').filter(Boolean);
}

function subject(repoRoot: string, commit: string): string {
  return spawnSync('git', ['log', '-1', '--format=%s', commit], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
}

interface Step {
  commit: string;
  ratio?: number;
  text: string;
  outcome: 'changed' | 'same' | 'skip';
}

/** Builds a commit's stack and starts its worker processes; a build failure is a LayerSourceError. */
async function workersAt(
  resolver: LayerResolver,
  commit: string,
  suites: string[],
  filter: string,
  processes: number,
  cpu: CpuPlan,
): Promise<CompositionWorker[]> {
  const dirs = {} as Record<CodeLayerName, string>;
  for (const name of CODE_LAYERS) dirs[name] = resolver.resolveLayer(name, { kind: 'git', ref: commit }).dir;
  const options = {
    nodePath: process.execPath,
    nodeVersion: process.version,
    dirs,
    suites,
    filter,
    warmupSeconds: WARMUP_SECONDS,
  };
  // One after the other: processes started together share their start-up conditions, and with them their JIT
  // state (see startVariants in bisect/run.ts), which would make a commit's processes one replicate, not several.
  const workers: CompositionWorker[] = [];
  try {
    for (let p = 0; p < processes; p++) workers.push(await CompositionWorker.start(options));
    // Every commit's processes on the same CPU (cpu.ts); a failure to pin was reported when the plan was made.
    pinAll(
      workers.map((w) => w.pid),
      cpu,
    );
  } catch (err) {
    await Promise.all(workers.map((w) => w.close()));
    throw err;
  }
  return workers;
}

const closeAll = (workers: CompositionWorker[]) => Promise.all(workers.map((w) => w.close()));

async function find(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen } = parseArgs(args, argSpec);
  if (chosen.good === undefined) throw new UsageError('--good is required: --good <ref>');
  if (chosen.filter === undefined) throw new UsageError('--filter is required: --filter <case id regex>');
  const filter = chosen.filter;
  const progress = progressStream(ctx, chosen.quiet);
  // Builds and downloads take minutes: said on stderr even when it is not a terminal (a CI log), unless --quiet.
  const resolver = resolverFor(ctx, chosen, (m) => {
    if (!chosen.quiet) ctx.stderr.write(`find: ${m}\n`);
  });
  const repo = resolver.repoRoot;
  const badRef = chosen.bad ?? 'HEAD';
  let good: string;
  let bad: string;
  try {
    good = resolveCommit(repo, chosen.good);
    bad = resolveCommit(repo, badRef);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const commits = revList(repo, good, bad);
  if (commits.length === 0)
    throw new UsageError(`${badRef} is not a descendant of ${chosen.good} (no commits on the ancestry path)`);
  const suites = chosen.suite.length ? chosen.suite : DEFAULT_BISECT_SUITES;
  const threshold = chosen.threshold ?? BISECT_DEFAULTS.threshold;
  const alpha = chosen.alpha ?? BISECT_DEFAULTS.alpha;
  const time = chosen.time ?? BISECT_DEFAULTS.time;
  const rounds = chosen.rounds ?? BISECT_DEFAULTS.rounds;
  const processes = chosen.processes ?? BISECT_DEFAULTS.processes;
  const percentile = chosen.percentile ?? DEFAULT_VISIT_PERCENTILE;
  const cpu = checkedCpuPlan(planCpu(chosen.cpu ?? 'auto'));
  if (!chosen.quiet) ctx.stderr.write(`find: measuring processes ${describeCpuPlan(cpu)}\n`);
  const out = (line: string) => ctx.stdout.write(`${line}\n`);
  const short = (c: string) => c.slice(0, 10);

  let goodWorkers: CompositionWorker[];
  try {
    goodWorkers = await workersAt(resolver, good, suites, filter, processes, cpu);
  } catch (err) {
    if (err instanceof LayerSourceError || err instanceof MixError) {
      ctx.stderr.write(`layerbench find: the good commit ${short(good)} cannot be measured: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const live: CompositionWorker[] = [...goodWorkers];
  // Invariant: commits[lo] (or good when lo = -1) is like good; commits[hi] is changed.
  let lo = -1;
  let hi = commits.length - 1;
  let measuredWhole = false;
  try {
    const cases = goodWorkers[0]!.cases;
    if (cases.length !== 1) {
      const ids = cases.map((c) => c.id);
      ctx.stderr.write(
        `layerbench find: --filter must match exactly one case at ${short(good)}, it matches ${ids.length}${ids.length ? `: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}` : ''}\n`,
      );
      return 2;
    }
    const caseId = cases[0]!.id;
    const visitSeconds = time / (rounds * processes);
    /**
     * Measures a commit's processes against the good commit's in interleaved
     * rounds (fresh values of both each step), and compares them with the
     * process model, as bisect does.
     */
    const measureAgainstGood = async (workers: CompositionWorker[], control: CompositionWorker[] = []) => {
      const values: Record<string, number[][]> = {
        good: goodWorkers.map(() => []),
        head: workers.map(() => []),
      };
      if (control.length) values.control = control.map(() => []);
      const visits = [
        ...goodWorkers.map((w, p) => [w, values.good![p]!] as const),
        ...workers.map((w, p) => [w, values.head![p]!] as const),
        ...control.map((w, p) => [w, values.control![p]!] as const),
      ];
      for (let round = 0; round < rounds; round++) {
        for (const [w, into] of shuffle(visits, Math.random)) {
          if (ctx.signal?.aborted) throw new Interrupted();
          const m = await w.measure(caseId, visitSeconds);
          if (m.status !== 'ok')
            throw new MixError(m.error ? `${m.error.name}: ${m.error.message}` : 'the case failed');
          // One value per visit (see visitValue in bisect/run.ts).
          if (m.samples.length) into.push(visitValue(m.samples, percentile));
        }
      }
      const model = processModel(values, { threshold, alpha });
      return {
        cmp: model.compare('good', 'head')!,
        control: control.length ? model.compare('good', 'control') : undefined,
        // (head / good) / (control / good): the change beyond the A/A control, significant or not (threshold 0).
        overControl: control.length ? model.contrast({ head: 1, control: -1 }, 0) : undefined,
      };
    };
    const effectText = (c: SampleComparison) =>
      formatEffect({ ratio: c.ratio, ci: c.ratioCi, pValue: c.pValue, verdict: c.verdict });

    out(
      `find: ${caseId} between ${short(good)} (good) and ${short(bad)} (bad): ${commits.length} commits, ${processes} processes each`,
    );
    let badWorkers: CompositionWorker[];
    try {
      badWorkers = await workersAt(resolver, bad, suites, filter, processes, cpu);
    } catch (err) {
      ctx.stderr.write(`layerbench find: the bad commit ${short(bad)} cannot be measured: ${(err as Error).message}\n`);
      return 2;
    }
    live.push(...badWorkers);
    // The A/A control of the first step: the good commit again, in processes of its own.
    const controlWorkers = await workersAt(resolver, good, suites, filter, processes, cpu);
    live.push(...controlWorkers);
    const firstStep = await measureAgainstGood(badWorkers, controlWorkers);
    await closeAll([...badWorkers, ...controlWorkers]);
    const whole = firstStep.cmp;
    out(`  bad  ${short(bad)}  ${effectText(whole)}  ${whole.verdict}`);
    if (firstStep.control) out(`  A/A  ${short(good)}  ${effectText(firstStep.control)}  ${firstStep.control.verdict}`);
    if (whole.verdict !== 'regressed' && whole.verdict !== 'improved') {
      out(
        `find: ${caseId} did not change beyond the noise threshold (${threshold}) between ${short(good)} and ${short(bad)}: nothing to find`,
      );
      return 0;
    }
    if (firstStep.overControl?.verdict !== whole.verdict) {
      out(
        `find: ${caseId} ${whole.verdict} between ${short(good)} and ${short(bad)}, but not beyond the A/A control (identical good processes differ by ${firstStep.control ? effectText(firstStep.control) : 'an unknown amount'}): nothing to find`,
      );
      return 0;
    }
    const halfway = Math.log(whole.ratio) / 2;
    measuredWhole = true;
    const skipped = new Set<number>();
    const path: Step[] = [];
    while (hi - lo > 1) {
      const middle = Math.floor((lo + hi) / 2);
      const candidates = [];
      for (let i = lo + 1; i < hi; i++) if (!skipped.has(i)) candidates.push(i);
      if (candidates.length === 0) break;
      candidates.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle) || a - b);
      const index = candidates[0]!;
      const commit = commits[index]!;
      let workers: CompositionWorker[];
      try {
        workers = await workersAt(resolver, commit, suites, filter, processes, cpu);
      } catch (err) {
        if (!(err instanceof LayerSourceError || err instanceof MixError)) throw err;
        skipped.add(index);
        const text = `  skip ${short(commit)}  (${index + 1}/${commits.length}) does not build or load: ${err.message.split('\n')[0]}`;
        path.push({ commit, text, outcome: 'skip' });
        out(text);
        continue;
      }
      live.push(...workers);
      let cmp: SampleComparison;
      try {
        cmp = (await measureAgainstGood(workers)).cmp;
      } catch (err) {
        if (err instanceof Interrupted) throw err;
        skipped.add(index);
        const text = `  skip ${short(commit)}  (${index + 1}/${commits.length}) the case fails there: ${(err as Error).message}`;
        path.push({ commit, text, outcome: 'skip' });
        out(text);
        await closeAll(workers);
        continue;
      }
      await closeAll(workers);
      const changed =
        Math.abs(Math.log(cmp.ratio)) > Math.abs(halfway) && Math.sign(Math.log(cmp.ratio)) === Math.sign(halfway);
      const text = `  ${changed ? 'bad ' : 'good'} ${short(commit)}  (${index + 1}/${commits.length}) ${effectText(cmp)}  ${cmp.verdict}  ${subject(repo, commit)}`;
      path.push({ commit, ratio: cmp.ratio, text, outcome: changed ? 'changed' : 'same' });
      out(text);
      progress?.write(`find: ${path.length} steps, ${hi - lo - 1} commits left\n`);
      if (changed) hi = index;
      else lo = index;
    }
    const first = commits[hi]!;
    const unresolved = [];
    for (let i = lo + 1; i < hi; i++) unresolved.push(commits[i]!);
    if (unresolved.length > 0) {
      out(`find: cannot tell which of these changed ${caseId} (the commits between do not build):`);
      for (const c of [...unresolved, first]) out(`  ${short(c)}  ${subject(repo, c)}`);
      return 125;
    }
    out(
      `find: first commit where ${caseId} changed (${whole.verdict}, x${whole.ratio.toFixed(3)} overall): ${short(first)} ${subject(repo, first)}`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    // Partial is never green: say what is known and exit 3.
    if (!measuredWhole) out(`find: INCOMPLETE: interrupted before the whole change was measured; nothing is known`);
    else {
      out(`find: INCOMPLETE: interrupted; the first changed commit is one of these (not searched further):`);
      for (let i = lo + 1; i <= hi; i++) out(`  ${short(commits[i]!)}  ${subject(repo, commits[i]!)}`);
    }
    return 3;
  } finally {
    await closeAll(live);
  }
}

/** Ctrl-C during a step: find stops between visits. */
class Interrupted extends Error {
  override name = 'Interrupted';
}
