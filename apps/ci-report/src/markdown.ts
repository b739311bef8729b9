// The Markdown report for a GitHub job summary or PR comment: the headline
// verdict first, then the attributed layers, the commits found, the
// regressed/improved cases, fingerprint differences, each bisection and
// find, and the machines that ran. Kept
// under GitHub's 65,536-character limit by showing fewer rows, never by
// cutting a table in half.
import type { CaseComparison } from '@layerbench/bench-runner';
import {
  describeLayerChange,
  formatBisectMarkdown,
  formatEffect,
  formatNs,
  layerCommitsLines,
  layerCommitsMarkdown,
  markdownCell,
} from '@layerbench/bench-runner/reporters';
import { measuredAs, sideBySide } from '@layerbench/bench-runner/compare';
import { confidenceLabel } from '@layerbench/bench-runner/stats';
import type { FindResult } from '@layerbench/bench-runner/results';
import type { ReportInputs } from './inputs.js';

/** GitHub rejects comments and job summaries longer than this. */
export const GITHUB_COMMENT_LIMIT = 65_536;

export interface Verdict {
  regressed: boolean;
  regressedCases: number;
  improvedCases: number;
  /** Layer -> number of regressed/improved cases it explains (from bisect files). */
  attributed: Map<string, number>;
  /** Bisections and finds that did not finish, with 'file: reason' (never a green report). */
  incomplete: { kind: 'bisection' | 'find'; text: string }[];
}

export function overallVerdict(inputs: ReportInputs): Verdict {
  let regressedCases = 0;
  let improvedCases = 0;
  const attributed = new Map<string, number>();
  const incomplete: Verdict['incomplete'] = [];
  for (const { data } of inputs.comparisons) {
    for (const c of data.cases) {
      if (c.verdict === 'regressed' || c.digestChanged) regressedCases++;
      else if (c.verdict === 'improved') improvedCases++;
    }
  }
  for (const { file, data } of inputs.bisects) {
    if (!data.complete)
      incomplete.push({
        kind: 'bisection',
        text: `${file}: ${data.incomplete?.reason ?? 'not every case was measured'}`,
      });
    regressedCases += data.summary.regressed;
    improvedCases += data.summary.improved;
    for (const [layer, n] of Object.entries(data.summary.attributed))
      attributed.set(layer, (attributed.get(layer) ?? 0) + n);
  }
  // A find's case counts once: its whole change between the good and the bad commit.
  for (const { file, data } of inputs.finds) {
    if (!data.complete) incomplete.push({ kind: 'find', text: `${file}: ${data.answer.message}` });
    if (data.whole?.verdict === 'regressed') regressedCases++;
    else if (data.whole?.verdict === 'improved') improvedCases++;
  }
  return { regressed: regressedCases > 0, regressedCases, improvedCases, attributed, incomplete };
}

function headlineLines(inputs: ReportInputs, verdict: Verdict): string[] {
  const icon = verdict.regressed ? ':red_circle:' : verdict.incomplete.length ? ':warning:' : ':green_circle:';
  const word = verdict.regressed
    ? 'regression'
    : verdict.incomplete.length
      ? 'incomplete: no regression in what was measured'
      : verdict.improvedCases > 0
        ? 'no regression, some improvements'
        : 'no regression';
  const measured = inputs.runs.reduce((n, r) => n + r.cases.length, 0);
  const sources = [
    inputs.comparisons.length
      ? `${inputs.comparisons.length} comparison${inputs.comparisons.length === 1 ? '' : 's'}`
      : '',
    inputs.bisects.length ? `${inputs.bisects.length} bisection${inputs.bisects.length === 1 ? '' : 's'}` : '',
    inputs.finds.length ? `${inputs.finds.length} find${inputs.finds.length === 1 ? '' : 's'}` : '',
    inputs.runs.length ? `${inputs.runs.length} run${inputs.runs.length === 1 ? '' : 's'} (${measured} cases)` : '',
  ].filter(Boolean);
  return [
    `## layerbench: ${icon} ${word}`,
    '',
    `**${verdict.regressedCases} case${verdict.regressedCases === 1 ? '' : 's'} regressed, ${verdict.improvedCases} improved** across ${sources.join(', ') || 'no inputs'}.`,
    '',
    ...verdict.incomplete.map(
      (i) =>
        `**Incomplete ${i.kind}** ${markdownCell(i.text)}: its numbers cover what was measured; it is not a pass.\n`,
    ),
  ];
}

function attributedLines(inputs: ReportInputs, verdict: Verdict): string[] {
  if (verdict.attributed.size === 0) return [];
  const out = ['### Attributed layers', ''];
  for (const [layer, n] of [...verdict.attributed].sort((a, b) => b[1] - a[1])) {
    const changes = [
      ...new Set(
        inputs.bisects.filter((b) => b.data.summary.attributed[layer]).map((b) => describeLayerChange(b.data, layer)),
      ),
    ];
    out.push(
      `- **${markdownCell(layer)}** explains ${n} case${n === 1 ? '' : 's'}: ${changes.map(markdownCell).join('; ')}`,
    );
  }
  out.push('');
  return out;
}

const shortCommit = (c: { commit: string }) => `\`${c.commit.slice(0, 10)}\``;

/** One line per find: the case, its whole change, and the commit (or why there is none). */
function findLines(inputs: ReportInputs): string[] {
  if (inputs.finds.length === 0) return [];
  const out = ['### Which commit', ''];
  for (const { file, data } of inputs.finds) {
    const what =
      data.caseId === undefined ? `\`${markdownCell(data.options.filter)}\`` : `\`${markdownCell(data.caseId)}\``;
    const range = `${shortCommit(data.good)} (good) and ${shortCommit(data.bad)} (bad), ${data.commits.length} commit${data.commits.length === 1 ? '' : 's'}`;
    const whole = data.whole ? ` ${data.whole.verdict} ${formatEffect(data.whole)};` : '';
    const answer =
      data.answer.status === 'found' && data.answer.first
        ? `first changed at **${shortCommit(data.answer.first)} ${markdownCell(data.answer.first.subject)}**`
        : `${data.answer.status === 'interrupted' ? ':warning: ' : ''}${markdownCell(data.answer.message)}${data.answer.candidates.length ? ` (${data.answer.candidates.map(shortCommit).join(', ')})` : ''}`;
    out.push(`- ${what} between ${range}:${whole} ${answer} — ${markdownCell(file)}`);
  }
  out.push('');
  return out;
}

/** A commit subject short enough for a table cell. */
const oneLine = (subject: string) => (subject.length > 72 ? `${subject.slice(0, 71)}…` : subject);

/** The path a find took: every step, in order, with what it measured. */
function findStepLines(file: string, data: FindResult): string[] {
  const open = data.answer.status === 'found' && data.whole?.verdict === 'regressed';
  const out = [`<details${open ? ' open' : ''}><summary>Find ${markdownCell(file)}</summary>`, ''];
  const how = data.options.paired
    ? `paired: each of ${data.options.processes} worker processes hosts good, bad and the commit measured`
    : `separate: ${data.options.processes} worker processes per commit`;
  out.push(
    `${data.options.timePerStep} s per commit per step, ${data.options.rounds} rounds, ${how}; threshold ${data.options.threshold}, ${confidenceLabel(data.options.alpha)} intervals; ${markdownCell(data.machine.cpuModel)} x${data.machine.cpuCount}, node ${markdownCell(data.machine.node)}.`,
    '',
    '| step | commit | position | outcome | vs good | from halfway | processes | subject |',
    '|---|---|---|---|---|---|---|---|',
  );
  const row = (
    step: string,
    c: { commit: string; subject: string },
    position: string,
    outcome: string,
    vsGood: string,
    halfway: string,
    processes: string,
  ) =>
    `| ${step} | ${shortCommit(c)} | ${position} | ${outcome} | ${vsGood} | ${halfway} | ${processes} | ${markdownCell(oneLine(c.subject))} |`;
  if (data.whole)
    out.push(
      row(
        'whole',
        data.bad,
        `${data.commits.length}/${data.commits.length}`,
        data.whole.verdict,
        formatEffect(data.whole),
        '',
        '',
      ),
    );
  if (data.control) out.push(row('A/A', data.good, '-', data.control.verdict, formatEffect(data.control), '', ''));
  for (const [i, s] of data.steps.entries()) {
    const outcome =
      s.outcome === 'changed'
        ? 'like bad'
        : s.outcome === 'same'
          ? 'like good'
          : `skipped: ${markdownCell(s.reason ?? '')}`;
    out.push(
      row(
        String(i + 1),
        s,
        `${s.position}/${data.commits.length}`,
        outcome,
        s.vsGood ? formatEffect(s.vsGood) : '',
        s.fromHalfway ? formatEffect(s.fromHalfway) : '',
        s.processes === undefined ? '' : String(s.processes),
      ),
    );
  }
  out.push('', `Exit code ${data.exitCode}: ${markdownCell(data.answer.message)}`, '', '</details>', '');
  return out;
}

function changedCaseLines(inputs: ReportInputs, maxRows: number): string[] {
  const rows: { file: string; c: CaseComparison }[] = [];
  for (const { file, data } of inputs.comparisons) {
    for (const c of data.cases)
      if (c.verdict === 'regressed' || c.verdict === 'improved' || c.digestChanged) rows.push({ file, c });
  }
  if (rows.length === 0) return [];
  rows.sort((a, b) => Math.abs(Math.log(b.c.ratio)) - Math.abs(Math.log(a.c.ratio)));
  const many = inputs.comparisons.length > 1;
  const alphas = new Set(inputs.comparisons.map(({ data }) => data.alpha));
  const level = alphas.size === 1 ? confidenceLabel([...alphas][0]!) : '1 − alpha';
  const out = ['### Regressed and improved cases', ''];
  out.push(`| case |${many ? ' comparison |' : ''} base | head | head/base [${level} CI] | verdict | implementation |`);
  out.push(`|---|${many ? '---|' : ''}---|---|---|---|---|`);
  for (const { file, c } of rows.slice(0, maxRows)) {
    const verdict = c.digestChanged
      ? `${c.verdict}, **output changed**`
      : c.verdict === 'regressed'
        ? '**regressed**'
        : c.verdict;
    const impl = c.baseImpl !== c.headImpl ? `${c.baseImpl ?? '?'} -> ${c.headImpl ?? '?'}` : (c.headImpl ?? '');
    out.push(
      `| \`${markdownCell(c.id)}\` |${many ? ` ${markdownCell(file)} |` : ''} ${formatNs(c.baseMedian)} | ${formatNs(c.headMedian)} | ${formatEffect({ ratio: c.ratio, ci: c.ratioCi, pValue: c.pValue, verdict: c.verdict })} | ${verdict} | ${markdownCell(impl)} |`,
    );
  }
  if (rows.length > maxRows) out.push('', `_${rows.length - maxRows} more changed cases are in the result files._`);
  const quiet = inputs.comparisons.reduce((n, { data }) => n + data.summary.unchanged + data.summary.inconclusive, 0);
  out.push('', `${quiet} other case${quiet === 1 ? '' : 's'} unchanged or inconclusive.`, '');
  return out;
}

/**
 * Per comparison whose cases moved beyond the threshold but stayed
 * inconclusive: the command that measures both sides in the same worker
 * processes (the runs' commits when they name them).
 */
function sideBySideLines(inputs: ReportInputs): string[] {
  const sides = inputs.runs.filter((r) => r.role !== undefined);
  const suites = [...new Set(sides.flatMap((r) => r.suites))];
  // The --time and processes of the base and head runs, which the hint's `layerbench run` repeats.
  const measured = measuredAs(sides.map((r) => r.merged));
  const out: string[] = [];
  for (const { file, data } of inputs.comparisons) {
    const hint = sideBySide(data, suites, measured);
    if (hint === undefined) continue;
    if (out.length === 0) out.push('### What separate runs cannot tell', '');
    out.push(
      `${markdownCell(hint.summary)}${inputs.comparisons.length > 1 ? ` (${markdownCell(file)})` : ''} ${markdownCell(hint.lead)}`,
      '',
      '```sh',
      hint.command,
      '```',
      '',
    );
  }
  return out;
}

function fingerprintLines(inputs: ReportInputs): string[] {
  const diffs = inputs.comparisons.flatMap(({ data }) => data.fingerprintDiffs);
  const machines = new Set(
    inputs.runs.map((r) => `${r.env.cpuModel} x${r.env.cpuCount}, node ${r.env.node}, OpenSSL ${r.env.openssl}`),
  );
  if (diffs.length === 0 && machines.size < 2) return [];
  const out = ['### Fingerprint differences', ''];
  if (diffs.length) {
    out.push('| kind | what | base | head |', '|---|---|---|---|');
    const seen = new Set<string>();
    for (const d of diffs) {
      const key = `${d.kind}|${d.what}|${d.base}|${d.head}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(
        `| ${markdownCell(d.kind)} | ${markdownCell(d.what)} | ${markdownCell(d.base)} | ${markdownCell(d.head)} |`,
      );
    }
    out.push('');
  }
  // Which commits changed the layers whose code differs, as compare recorded them (in a checkout holding both runs).
  const commits = inputs.comparisons.flatMap(({ data }) => layerCommitsLines(data.layerCommits ?? []));
  out.push(...layerCommitsMarkdown([...new Set(commits)]));
  if (machines.size > 1)
    out.push(`Runs come from ${machines.size} different machines; compare their numbers with care.`, '');
  return out;
}

function runLines(inputs: ReportInputs): string[] {
  if (inputs.runs.length === 0) return [];
  const out = [
    '### Runs',
    '',
    '| run | machine | CPU | node / OpenSSL | capabilities | shards | suites | cases | failed |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of inputs.runs) {
    const failed = r.cases.filter((c) => c.status === 'failed' || c.digestOk === false).length;
    out.push(
      `| ${markdownCell(r.label)} | \`${markdownCell(r.machineId)}\` | ${markdownCell(r.env.cpuModel)} x${r.env.cpuCount} | ${r.env.node} / ${r.env.openssl} | ${r.env.capabilities ? `\`${r.env.capabilities}\`` : '-'} | ${r.shards.join(', ') || '-'} | ${r.suites.join(', ')} | ${r.cases.length} | ${failed} |`,
    );
  }
  const dup = inputs.runs.flatMap((r) => r.duplicates);
  if (dup.length)
    out.push(
      '',
      `${dup.length} case${dup.length === 1 ? ' was' : 's were'} in more than one shard of a run; the first was kept.`,
    );
  const unnamed = inputs.runs.filter((r) => r.role === undefined);
  const sameMachine = unnamed.filter((r) => unnamed.some((other) => other !== r && other.machineId === r.machineId));
  if (sameMachine.length) {
    out.push(
      '',
      `${sameMachine.length} runs of one machine are separate runs, not shards of one: to compare two of them, give them as \`--base\` and \`--head\`.`,
    );
  }
  out.push('');
  return out;
}

/**
 * Per comparison, what its verdicts were judged against: a calibration of
 * the machine, or the conservative default that only calls changes of about
 * x2 (so "no regression" then says little about smaller ones).
 */
function noiseLines(inputs: ReportInputs): string[] {
  const described = inputs.comparisons.filter(({ data }) => data.noise !== undefined);
  if (described.length === 0) return [];
  const many = inputs.comparisons.length > 1;
  return [
    '### Between-run spread',
    '',
    ...described.map(
      ({ file, data }) => `- ${many ? `${markdownCell(file)}: ` : ''}${markdownCell(data.noise!.description)}`,
    ),
    '',
  ];
}

function render(inputs: ReportInputs, maxRows: number): string {
  const verdict = overallVerdict(inputs);
  const parts = [
    ...headlineLines(inputs, verdict),
    ...attributedLines(inputs, verdict),
    ...findLines(inputs),
    ...changedCaseLines(inputs, maxRows),
    ...sideBySideLines(inputs),
    ...noiseLines(inputs),
    ...fingerprintLines(inputs),
  ];
  for (const { file, data } of inputs.bisects) {
    parts.push(
      `<details${data.summary.regressed ? ' open' : ''}><summary>Bisection ${markdownCell(file)}</summary>`,
      '',
    );
    parts.push(formatBisectMarkdown(data, { level: 4, maxCases: maxRows }), '</details>', '');
  }
  for (const { file, data } of inputs.finds) parts.push(...findStepLines(file, data));
  parts.push(...runLines(inputs));
  return parts.join('\n');
}

/**
 * The Markdown report, at most `limit` characters: with every row if it fits,
 * else with fewer case rows per table (largest changes first).
 */
export function formatReportMarkdown(inputs: ReportInputs, limit = GITHUB_COMMENT_LIMIT - 1024): string {
  for (const maxRows of [Infinity, 200, 100, 50, 20, 10]) {
    const text = render(inputs, maxRows);
    if (text.length <= limit) return text;
  }
  const text = render(inputs, 5);
  if (text.length <= limit) return text;
  const note =
    "\n\n_The report was cut here to stay within GitHub's size limit; the full results are in the uploaded result files._\n";
  const cut = text.lastIndexOf('\n', limit - note.length);
  return text.slice(0, cut) + note;
}
