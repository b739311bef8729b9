// `layerbench find --good <ref> --bad <ref> --filter <case>`: the first commit
// where one case changed (the `asv find` idea). Binary search over
// `git rev-list --ancestry-path good..bad`, each midpoint built in a cached
// worktree and measured beside the good and bad commits in the same worker
// processes (paired, find-paired.ts; or, with --separate, against the good
// commit in processes of its own, as bisect does without --paired); commits
// that do not build, and midpoints that cannot be told apart from halfway, are
// skipped like `git bisect skip`. Prints the path it took.
import { spawnSync } from 'node:child_process';
import { collectEnv } from '@layerbench/bench-runner';
import { writeResultFile, type FindResult, type FindStep } from '@layerbench/bench-runner/results';
import { processModel, type ProcessModel, type SampleComparison } from '@layerbench/bench-runner/stats';
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
import {
  asEffect,
  DEFAULT_VISIT_PERCENTILE,
  relativeToRounds,
  shuffle,
  visitsWithValues,
  visitValue,
  WARMUP_SECONDS,
} from '../bisect/run.js';
import { CompositionWorker, MixError } from '../bisect/worker/client.js';
import type { WorkerCase } from '../bisect/worker/protocol.js';
import { Interrupted, PairedStep, StepCommitError, type PairedStepOptions } from './find-paired.js';
import { progressStream, sayer } from '../terminal.js';
import { chooseSuites, DEFAULT_BISECT_SUITES } from '../suite-choice.js';
import {
  BISECT_DEFAULTS,
  PAIRED_DEFAULTS,
  percentileValue,
  processCount,
  resolverFor,
  sharedSourceOptions,
} from './bisect.js';
import { checkedCpuPlan, cpuChoice, cpuOptionHelp, describeCpuPlan, pinAll, planCpu, type CpuPlan } from '../cpu.js';
import { outputPath } from '../result-files.js';
import type { Command, CommandContext } from './types.js';

const options = {
  good: valueOption('ref', 'a commit where the case was as expected', anyText),
  bad: valueOption('ref', 'a later commit where it changed (default HEAD)', anyText),
  filter: valueOption('regex', 'the case (a regular expression matching exactly one case id)', regexText),
  suite: repeatedOption(
    'name',
    `the suite(s) holding the case (default: the layer suites holding a case --filter matches, and ${DEFAULT_BISECT_SUITES.join(', ')})`,
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
    `worker processes per step, the replicates (default ${PAIRED_DEFAULTS.processes}; per commit ${BISECT_DEFAULTS.processes} with --separate; at least 2)`,
    processCount,
  ),
  paired: booleanOption(
    'each worker process hosts every commit of a step, compared within processes (the default; for changes of a few percent)',
  ),
  separate: booleanOption(
    'each commit in worker processes of its own, a midpoint judged by its change from good alone (faster; large changes only)',
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
  out: valueOption('file', 'write the find result file here (also when it cannot tell or is interrupted)', anyText),
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
    'on the ancestry path between them; each commit is built in a cached worktree',
    '(<repo>/.layerbench-cache/worktrees/<commit>, reused across runs). Each step runs',
    'in several worker processes, each hosting every commit of the step (good, bad,',
    'and the midpoint or the A/A control) in a module graph of its own, visited in',
    'interleaved rounds and compared within processes (the paired model, as bisect',
    '--paired). The first step measures an A/A control (the good commit again): the',
    'whole change counts only when it is significant beyond the threshold and beyond',
    'what identical stacks show (when it is not clear, one more batch of processes is',
    'measured first). A midpoint counts as changed when it is nearer bad than good,',
    'with its interval clear of halfway; when',
    'it is not clear, one more batch of processes is measured, then the midpoint is',
    'skipped (cannot tell). Commits that do not build are skipped too (git bisect',
    'skip), and the nearest other one is tried. Every step is printed.',
    'With --separate, each commit runs in processes of its own and a midpoint counts',
    'as changed when its change from good is more than half of the whole change',
    '(faster; processes differ by 5-15% here, so for large changes only).',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Exit codes: 0 found (or the case is unchanged between good and bad: nothing to',
    'find), 2 bad input (usage, unknown ref, the good or bad commit does not build,',
    'the filter does not name one case), 3 interrupted (Ctrl-C): the steps so far are',
    'printed and the range left is named, never a pass; 125 cannot tell (the whole',
    'change is inconclusive or not beyond the A/A control, or only skipped commits',
    'are left between the last good and the first bad one).',
    '',
    'Example:',
    '  layerbench find --good v0.1.0 --bad HEAD --filter "sha1/.*size=1024" --deps link',
    "  layerbench find --good v0.1.0 --suite sha1 --filter '^sha1/1500/wasm$' --time 1",
  ].join('\n'),
  argSpec,
  run: find,
};

/**
 * The commits on the ancestry path good..bad, oldest first, with their
 * subjects, from one git call (each commit prints a `commit <sha>` line and
 * then its subject line).
 */
function revList(repoRoot: string, good: string, bad: string): { commits: string[]; subjects: Map<string, string> } {
  const r = spawnSync('git', ['rev-list', '--reverse', '--ancestry-path', '--format=%s', `${good}..${bad}`], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new UsageError(`git rev-list ${good}..${bad} failed: ${(r.stderr ?? '').trim()}`);
  const lines = r.stdout.split('\n');
  const subjects = new Map<string, string>();
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const header = /^commit ([0-9a-f]+)$/.exec(lines[i]!);
    if (!header) throw new Error(`git rev-list --format=%s: unexpected line ${JSON.stringify(lines[i])}`);
    subjects.set(header[1]!, lines[i + 1]!);
  }
  return { commits: [...subjects.keys()], subjects };
}

function subject(repoRoot: string, commit: string): string {
  return spawnSync('git', ['log', '-1', '--format=%s', commit], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
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

const closeAll = (workers: CompositionWorker[]) => Promise.all(workers.map((w) => w.close())).then(() => undefined);

/** The whole change (bad against good) and its A/A control, from the first step. */
interface WholeStep {
  whole: SampleComparison;
  control: SampleComparison | undefined;
  /** (bad / good) / (control / good): the change beyond the A/A control, significant or not (threshold 0). */
  overControl: SampleComparison | undefined;
}

/** What a step measured, for the result file: the midpoint against good, and (paired) against bad and halfway. */
interface StepFigures {
  vsGood?: SampleComparison;
  vsBad?: SampleComparison;
  fromHalfway?: SampleComparison;
  processes?: number;
}

/** A midpoint's answer: like good, like bad, or skipped (does not build, the case fails, cannot tell). */
type MidpointAnswer = ({ changed: boolean; text: string } | { skip: string }) & StepFigures;

/** A commit that cannot be measured at all (good or bad): find prints the message and exits 2. */
class EndpointError extends Error {
  override name = 'EndpointError';
}

/** How find measures: paired (the default), or each commit in processes of its own (--separate). */
interface Stepper {
  /** Starts measuring the good and bad commits; the cases the good commit has. */
  open(): Promise<WorkerCase[]>;
  /** The first step: bad and the A/A control against good. */
  whole(caseId: string): Promise<WholeStep>;
  /** One midpoint, against good (and bad, paired); `whole` is the first step's change. */
  midpoint(commit: string, caseId: string, whole: SampleComparison): Promise<MidpointAnswer>;
  close(): Promise<void>;
}

/** What every step of a find shares: the paired step's options, the two ends and the verdict rule. */
interface StepperSettings extends PairedStepOptions {
  good: string;
  bad: string;
  threshold: number;
  alpha: number;
}

const short = (c: string) => c.slice(0, 10);
const effectText = (c: SampleComparison) =>
  formatEffect({ ratio: c.ratio, ci: c.ratioCi, pValue: c.pValue, verdict: c.verdict });

/**
 * Each commit in `processes` worker processes of its own, the good commit's
 * kept for the whole search; a midpoint counts as changed when its change
 * from good is more than half of the whole change (in log terms).
 */
class SeparateStepper implements Stepper {
  private goodWorkers: CompositionWorker[] = [];
  private readonly live: CompositionWorker[] = [];
  constructor(private readonly s: StepperSettings) {}

  private async workers(commit: string): Promise<CompositionWorker[]> {
    const { s } = this;
    const started = await workersAt(s.resolver, commit, s.suites, s.filter, s.processes, s.cpu);
    this.live.push(...started);
    return started;
  }

  async open(): Promise<WorkerCase[]> {
    try {
      this.goodWorkers = await this.workers(this.s.good);
    } catch (err) {
      if (err instanceof LayerSourceError || err instanceof MixError)
        throw new EndpointError(`the good commit ${short(this.s.good)} cannot be measured: ${err.message}`);
      throw err;
    }
    return this.goodWorkers[0]!.cases;
  }

  /** A commit's processes against the good commit's in interleaved rounds (fresh values of both each step). */
  private async measureAgainstGood(caseId: string, workers: CompositionWorker[], control: CompositionWorker[] = []) {
    const { s } = this;
    const values: Record<string, number[][]> = {
      good: this.goodWorkers.map(() => []),
      head: workers.map(() => []),
    };
    if (control.length) values.control = control.map(() => []);
    const visits = [
      ...this.goodWorkers.map((w, p) => [w, values.good![p]!] as const),
      ...workers.map((w, p) => [w, values.head![p]!] as const),
      ...control.map((w, p) => [w, values.control![p]!] as const),
    ];
    const visitSeconds = s.time / (s.rounds * s.processes);
    for (let round = 0; round < s.rounds; round++) {
      for (const [w, into] of shuffle(visits, Math.random)) {
        if (s.signal?.aborted) throw new Interrupted();
        const m = await w.measure(caseId, visitSeconds);
        if (m.status !== 'ok') throw new MixError(m.error ? `${m.error.name}: ${m.error.message}` : 'the case failed');
        // One value per visit (see visitValue in bisect/run.ts); NaN keeps an empty visit's round.
        into.push(m.samples.length ? visitValue(m.samples, s.percentile) : Number.NaN);
      }
    }
    // Each visit relative to its round's state, as bisect does with separate processes.
    const located = Object.fromEntries(
      Object.entries(relativeToRounds(values)).map(([side, processes]) => [side, visitsWithValues(processes)]),
    );
    return processModel(located, { threshold: s.threshold, alpha: s.alpha });
  }

  async whole(caseId: string): Promise<WholeStep> {
    let bad: CompositionWorker[];
    try {
      bad = await this.workers(this.s.bad);
    } catch (err) {
      if (err instanceof LayerSourceError || err instanceof MixError)
        throw new EndpointError(`the bad commit ${short(this.s.bad)} cannot be measured: ${err.message}`);
      throw err;
    }
    // The A/A control of the first step: the good commit again, in processes of its own.
    const control = await this.workers(this.s.good);
    const model = await this.measureAgainstGood(caseId, bad, control);
    await closeAll([...bad, ...control]);
    return {
      whole: model.compare('good', 'head')!,
      control: model.compare('good', 'control'),
      overControl: model.contrast({ head: 1, control: -1 }, 0),
    };
  }

  async midpoint(commit: string, caseId: string, whole: SampleComparison): Promise<MidpointAnswer> {
    let workers: CompositionWorker[];
    try {
      workers = await this.workers(commit);
    } catch (err) {
      if (!(err instanceof LayerSourceError || err instanceof MixError)) throw err;
      return { skip: `does not build or load: ${err.message.split('\n')[0]}` };
    }
    let cmp: SampleComparison;
    try {
      cmp = (await this.measureAgainstGood(caseId, workers)).compare('good', 'head')!;
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      return { skip: `the case fails there: ${(err as Error).message}` };
    } finally {
      await closeAll(workers);
    }
    const halfway = Math.log(whole.ratio) / 2;
    const changed =
      Math.abs(Math.log(cmp.ratio)) > Math.abs(halfway) && Math.sign(Math.log(cmp.ratio)) === Math.sign(halfway);
    return { changed, text: `${effectText(cmp)}  ${cmp.verdict}`, vsGood: cmp, processes: workers.length };
  }

  close(): Promise<void> {
    return closeAll(this.live);
  }
}

/**
 * Paired (find-paired.ts): each step's commits in the same worker processes.
 * A midpoint is measured beside good and bad and counts as changed when it is
 * nearer bad than good: the contrast log(mid) - (log(good) + log(bad)) / 2 has
 * the whole change's sign, with its interval (at 1 - alpha) clear of 0. When
 * the interval is not clear, one more batch of processes is measured; if it is
 * still not clear, the midpoint is skipped (cannot tell), like a commit that
 * does not build: find never names a commit on a guess.
 */
class PairedStepper implements Stepper {
  private first: PairedStep | undefined;
  /** Steps whose processes are running (closed on Ctrl-C or an error too). */
  private readonly live = new Set<PairedStep>();
  constructor(private readonly s: StepperSettings) {}

  /** A commit of the first step that cannot be measured: bad input (exit 2), naming it. */
  private endpoint(err: StepCommitError): EndpointError {
    const { s } = this;
    const which = err.tag === 'bad' ? `the bad commit ${short(s.bad)}` : `the good commit ${short(s.good)}`;
    return new EndpointError(
      `${err.tag === undefined ? 'neither commit can' : `${which} cannot`} be measured: ${err.message}`,
    );
  }

  async open(): Promise<WorkerCase[]> {
    const { s } = this;
    try {
      this.first = await PairedStep.start(s, { good: s.good, bad: s.bad, control: s.good });
    } catch (err) {
      if (!(err instanceof StepCommitError)) throw err;
      throw this.endpoint(err);
    }
    this.live.add(this.first);
    const cases = this.first.casesOf('good');
    const id = cases.length === 1 ? cases[0]!.id : undefined;
    if (id !== undefined && !this.first.casesOf('bad').some((c) => c.id === id))
      throw new EndpointError(`the bad commit ${short(s.bad)} has no case ${id}`);
    return cases;
  }

  async whole(caseId: string): Promise<WholeStep> {
    const step = this.first!;
    const { threshold, alpha } = this.s;
    let model: ProcessModel;
    try {
      await step.measure(caseId);
      model = step.model(threshold, alpha);
      if (model.compare('good', 'bad')!.verdict === 'inconclusive') {
        // Not clear yet: one more batch of processes before saying so (as for a midpoint).
        await step.extend(caseId);
        model = step.model(threshold, alpha);
      }
    } catch (err) {
      if (!(err instanceof StepCommitError)) throw err;
      throw this.endpoint(err);
    }
    await this.done(step);
    return {
      whole: model.compare('good', 'bad')!,
      control: model.compare('good', 'control'),
      overControl: model.contrast({ bad: 1, control: -1 }, 0),
    };
  }

  async midpoint(commit: string, caseId: string, whole: SampleComparison): Promise<MidpointAnswer> {
    const { s } = this;
    let step: PairedStep;
    try {
      step = await PairedStep.start(s, { good: s.good, mid: commit, bad: s.bad });
    } catch (err) {
      if (!(err instanceof StepCommitError)) throw err;
      return { skip: `does not build or load: ${err.message.split('\n')[0]}` };
    }
    this.live.add(step);
    try {
      await step.measure(caseId);
      let answer = nearer(step.model(s.threshold, s.alpha), whole);
      if (answer.changed === undefined) {
        await step.extend(caseId);
        answer = nearer(step.model(s.threshold, s.alpha), whole);
      }
      const text = `${answer.text}  (${step.processCount} processes)`;
      const { vsGood, vsBad, fromHalfway } = answer;
      const figures = { vsGood, vsBad, fromHalfway, processes: step.processCount };
      if (answer.changed === undefined) return { skip: `cannot tell: ${text}`, ...figures };
      return { changed: answer.changed, text, ...figures };
    } catch (err) {
      if (!(err instanceof StepCommitError)) throw err;
      return { skip: `the case fails there: ${err.message}` };
    } finally {
      await this.done(step);
    }
  }

  private async done(step: PairedStep): Promise<void> {
    this.live.delete(step);
    await step.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.live].map((step) => step.close()));
  }
}

/**
 * Whether a paired midpoint is nearer bad than good: the contrast of mid
 * against the mean of good and bad (log scale), its interval clear of 0
 * (undefined: not clear).
 */
export function nearer(
  model: ProcessModel,
  whole: SampleComparison,
): {
  changed: boolean | undefined;
  text: string;
  vsGood: SampleComparison;
  vsBad: SampleComparison;
  fromHalfway: SampleComparison;
} {
  const vsGood = model.compare('good', 'mid')!;
  const vsBad = model.compare('bad', 'mid')!;
  const toward = model.contrast({ mid: 1, good: -0.5, bad: -0.5 }, 0)!;
  const sign = Math.sign(Math.log(whole.ratio));
  const [low, high] = toward.ratioCi;
  const clear = low > 1 || high < 1;
  const changed = clear ? Math.sign(Math.log(toward.ratio)) === sign : undefined;
  const side = changed === undefined ? 'between good and bad' : changed ? 'nearer bad' : 'nearer good';
  return {
    changed,
    vsGood,
    vsBad,
    fromHalfway: toward,
    text: `vs good ${effectText(vsGood)}, vs bad ${formatRatio(vsBad)}, ${side} (x${toward.ratio.toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}] from halfway)`,
  };
}

const formatRatio = (c: SampleComparison) =>
  `x${c.ratio.toFixed(3)} [${c.ratioCi[0].toFixed(3)}, ${c.ratioCi[1].toFixed(3)}]`;

async function find(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen } = parseArgs(args, argSpec);
  if (chosen.good === undefined) throw new UsageError('--good is required: --good <ref>');
  if (chosen.filter === undefined) throw new UsageError('--filter is required: --filter <case id regex>');
  if (chosen.paired && chosen.separate) throw new UsageError('--paired and --separate exclude each other');
  const filter = chosen.filter;
  // Checked before anything is built or measured: a path that cannot be written is bad input.
  const outFile = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const progress = progressStream(ctx, chosen.quiet);
  // Builds and downloads take minutes: said on stderr even when it is not a terminal (a CI log), unless --quiet.
  const say = sayer(ctx, chosen.quiet, 'find');
  const resolver = resolverFor(ctx, chosen, say);
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
  const { commits, subjects } = revList(repo, good, bad);
  if (commits.length === 0)
    throw new UsageError(`${badRef} is not a descendant of ${chosen.good} (no commits on the ancestry path)`);
  const paired = chosen.separate !== true;
  const threshold = chosen.threshold ?? BISECT_DEFAULTS.threshold;
  const processes = chosen.processes ?? (paired ? PAIRED_DEFAULTS.processes : BISECT_DEFAULTS.processes);
  const cpu = checkedCpuPlan(planCpu(chosen.cpu ?? 'auto'));
  say(`measuring processes ${describeCpuPlan(cpu)}`);
  const settings: StepperSettings = {
    resolver,
    good,
    bad,
    suites: await chooseSuites(chosen.suite, [], filter, say),
    filter,
    processes,
    rounds: chosen.rounds ?? BISECT_DEFAULTS.rounds,
    time: chosen.time ?? BISECT_DEFAULTS.time,
    percentile: chosen.percentile ?? DEFAULT_VISIT_PERCENTILE,
    threshold,
    alpha: chosen.alpha ?? BISECT_DEFAULTS.alpha,
    cpu,
    signal: ctx.signal,
  };
  const stepper: Stepper = paired ? new PairedStepper(settings) : new SeparateStepper(settings);
  const out = (line: string) => ctx.stdout.write(`${line}\n`);
  // Subjects of the range from revList; only the good commit (outside it) asks git again.
  const subjectOf = (commit: string) => subjects.get(commit) ?? subject(repo, commit);
  const named = (commit: string) => ({ commit, subject: subjectOf(commit) });
  const env = collectEnv();
  // The result file, filled in as the search goes and written on every way out (atomically).
  const record: FindResult = {
    kind: 'layerbench/find',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    options: {
      suites: settings.suites,
      filter,
      timePerStep: settings.time,
      rounds: settings.rounds,
      processes,
      paired,
      visitPercentile: settings.percentile,
      threshold,
      alpha: settings.alpha,
    },
    machine: {
      cpuModel: env.cpuModel,
      cpuCount: env.cpuCount,
      os: env.os,
      ...(env.machineId === undefined ? {} : { machineId: env.machineId }),
      node: process.version,
    },
    good: { ref: chosen.good, ...named(good) },
    bad: { ref: badRef, ...named(bad) },
    commits: commits.map(named),
    steps: [],
    answer: { status: 'failed', candidates: [], message: '' },
    exitCode: 0,
    complete: true,
  };
  /** Ends the search: records the answer, writes the file when asked, and gives the exit code. */
  const finish = (
    status: FindResult['answer']['status'],
    exitCode: number,
    message: string,
    found: { first?: string; candidates?: string[] } = {},
  ): number => {
    record.answer = {
      status,
      ...(found.first === undefined ? {} : { first: named(found.first) }),
      candidates: (found.candidates ?? []).map(named),
      message,
    };
    record.exitCode = exitCode;
    record.complete = status !== 'interrupted';
    if (outFile !== undefined) writeResultFile(outFile, record);
    return exitCode;
  };

  // Invariant: commits[lo] (or good when lo = -1) is like good; commits[hi] is changed.
  let lo = -1;
  let hi = commits.length - 1;
  let measuredWhole = false;
  try {
    const cases = await stepper.open();
    if (cases.length !== 1) {
      const ids = cases.map((c) => c.id);
      const message = `--filter must match exactly one case at ${short(good)}, it matches ${ids.length}${ids.length ? `: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}` : ''}`;
      ctx.stderr.write(`layerbench find: ${message}\n`);
      return finish('failed', 2, message);
    }
    const caseId = cases[0]!.id;
    record.caseId = caseId;
    out(
      `find: ${caseId} between ${short(good)} (good) and ${short(bad)} (bad): ${commits.length} commits, ${processes} processes each${paired ? ' (paired: each process hosts the good, the bad and the measured commit)' : ''}`,
    );
    const { whole, control, overControl } = await stepper.whole(caseId);
    record.whole = asEffect(whole);
    if (control) record.control = asEffect(control);
    out(`  bad  ${short(bad)}  ${effectText(whole)}  ${whole.verdict}`);
    if (control) out(`  A/A  ${short(good)}  ${effectText(control)}  ${control.verdict}`);
    const say = (message: string) => {
      out(`find: ${message}`);
      return message;
    };
    if (whole.verdict === 'unchanged') {
      const message = say(
        `${caseId} did not change beyond the noise threshold (${threshold}) between ${short(good)} and ${short(bad)}: nothing to find`,
      );
      return finish('unchanged', 0, message);
    }
    // Not a pass: a change that may be there, or one no larger than identical stacks differ, is not searched.
    if (whole.verdict === 'inconclusive') {
      const message = say(
        `cannot tell whether ${caseId} changed beyond the noise threshold (${threshold}) between ${short(good)} and ${short(bad)}: ${effectText(whole)}; more --time or --processes narrow it`,
      );
      return finish('cannot-tell', 125, message);
    }
    if (overControl?.verdict !== whole.verdict) {
      const message = say(
        `cannot tell: ${caseId} ${whole.verdict} between ${short(good)} and ${short(bad)}, but not beyond the A/A control (identical good processes differ by ${control ? effectText(control) : 'an unknown amount'})`,
      );
      return finish('cannot-tell', 125, message);
    }
    measuredWhole = true;
    const skipped = new Set<number>();
    while (hi - lo > 1) {
      const middle = Math.floor((lo + hi) / 2);
      const candidates = [];
      for (let i = lo + 1; i < hi; i++) if (!skipped.has(i)) candidates.push(i);
      if (candidates.length === 0) break;
      candidates.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle) || a - b);
      const index = candidates[0]!;
      const commit = commits[index]!;
      const answer = await stepper.midpoint(commit, caseId, whole);
      const step: FindStep = {
        ...named(commit),
        position: index + 1,
        outcome: 'skip' in answer ? 'skip' : answer.changed ? 'changed' : 'same',
        ...(answer.vsGood ? { vsGood: asEffect(answer.vsGood) } : {}),
        ...(answer.vsBad ? { vsBad: asEffect(answer.vsBad) } : {}),
        ...(answer.fromHalfway ? { fromHalfway: asEffect(answer.fromHalfway) } : {}),
        ...(answer.processes === undefined ? {} : { processes: answer.processes }),
        text: '',
      };
      record.steps.push(step);
      if ('skip' in answer) {
        skipped.add(index);
        step.reason = answer.skip;
        step.text = `  skip ${short(commit)}  (${index + 1}/${commits.length}) ${answer.skip}  ${step.subject}`;
        out(step.text);
        continue;
      }
      step.text = `  ${answer.changed ? 'bad ' : 'good'} ${short(commit)}  (${index + 1}/${commits.length}) ${answer.text}  ${step.subject}`;
      out(step.text);
      progress?.write(`find: ${record.steps.length} steps, ${hi - lo - 1} commits left\n`);
      if (answer.changed) hi = index;
      else lo = index;
    }
    const first = commits[hi]!;
    const unresolved = [];
    for (let i = lo + 1; i < hi; i++) unresolved.push(commits[i]!);
    if (unresolved.length > 0) {
      const message = say(`cannot tell which of these changed ${caseId} (the commits between were skipped):`);
      for (const c of [...unresolved, first]) out(`  ${short(c)}  ${subjectOf(c)}`);
      return finish('cannot-tell', 125, message, { candidates: [...unresolved, first] });
    }
    const message = say(
      `first commit where ${caseId} changed (${whole.verdict}, x${whole.ratio.toFixed(3)} overall): ${short(first)} ${subjectOf(first)}`,
    );
    return finish('found', 0, message, { first });
  } catch (err) {
    if (err instanceof EndpointError) {
      ctx.stderr.write(`layerbench find: ${err.message}\n`);
      return finish('failed', 2, err.message);
    }
    if (!(err instanceof Interrupted)) throw err;
    // Partial is never green: say what is known and exit 3.
    if (!measuredWhole) {
      const message = 'INCOMPLETE: interrupted before the whole change was measured; nothing is known';
      out(`find: ${message}`);
      return finish('interrupted', 3, message);
    }
    const message = 'INCOMPLETE: interrupted; the first changed commit is one of these (not searched further):';
    out(`find: ${message}`);
    const left = commits.slice(lo + 1, hi + 1);
    for (const c of left) out(`  ${short(c)}  ${subjectOf(c)}`);
    return finish('interrupted', 3, message, { candidates: left });
  } finally {
    await stepper.close();
  }
}
