// Console report of a comparison: where the environments differ first (the
// likeliest causes), then per case the change with its CI, p-value and
// verdict, then digest changes, one-sided and failed cases, and the summary.
import { layerCommitsHeading, layerCommitsLines } from './layer-commits.js';
import type { CaseComparison, Comparison, FingerprintDiff } from '../types.js';
import { confidenceLabel } from '../stats/verdict.js';
import { renderTextTable } from './text-table.js';
import { formatChange, formatNs, formatP } from './units.js';

export function describeDiff(d: FingerprintDiff): string {
  const what = d.field && d.field !== 'presence' ? `${d.what} ${d.field}` : d.what;
  return `${d.kind}: ${what}: ${d.base} -> ${d.head}`;
}

export function caseNote(c: CaseComparison): string {
  const notes: string[] = [];
  if (c.digestChanged) notes.push('DIGEST CHANGED');
  if (c.baseImpl !== c.headImpl) notes.push(`impl ${c.baseImpl ?? '?'} -> ${c.headImpl ?? '?'}`);
  // A withheld verdict says why: identical code (the guard) or different environments.
  if (c.suppressedVerdict !== undefined)
    notes.push(
      `${c.suppressedVerdict} in numbers, ${c.codeUnchanged === true ? 'code identical' : 'environments differ'}`,
    );
  else if (c.codeUnchanged === true) notes.push('code identical');
  if (c.stateRatio !== undefined) notes.push(`machine state x${c.stateRatio.toFixed(2)}`);
  return notes.join(', ');
}

/** The lines before the verdicts that say what they rest on: the between-run spread, and whether the runs are comparable. */
export function basisLines(cmp: Comparison): string[] {
  const lines: string[] = [];
  if (cmp.noise !== undefined) lines.push(`noise: ${cmp.noise.description}`);
  if ((cmp.incomparable?.length ?? 0) > 0) {
    lines.push(
      cmp.acrossEnvironments === true
        ? `environments differ (${cmp.incomparable!.join(', ')}): verdicts given anyway because --across-environments was asked for`
        : `environments differ (${cmp.incomparable!.join(', ')}): no regressed/improved verdicts (they would be about the machine or runtime, not the code); use \`layerbench bisect\` to measure both in one place`,
    );
  }
  const machine = cmp.cases.filter((c) => c.codeUnchanged === true && c.suppressedVerdict !== undefined);
  if (machine.length > 0) {
    const worst = Math.max(...machine.map((c) => Math.max(c.ratio, 1 / c.ratio)));
    lines.push(
      `identical code: ${machine.length} case(s) whose code is byte-identical on both sides (layers, engine, runtime, dispatch) differ beyond the noise (up to x${worst.toFixed(2)}): that is the machine, not the code, so they count as unchanged`,
    );
  }
  return lines;
}

export function formatInterval(ci: readonly [number, number]): string {
  return `[${formatChange(ci[0])}, ${formatChange(ci[1])}]`;
}

export function summaryLine(cmp: Comparison): string {
  const s = cmp.summary;
  return `geomean ${formatChange(cmp.geomean.ratio)} ${confidenceLabel(cmp.alpha)} CI ${formatInterval(cmp.geomean.ci)} · ${s.regressed} regressed, ${s.improved} improved, ${s.unchanged} unchanged, ${s.inconclusive} inconclusive`;
}

export function formatComparison(cmp: Comparison): string {
  const lines = [
    `compare: base ${cmp.base.createdAt} -> head ${cmp.head.createdAt} · noise threshold ±${(cmp.threshold * 100).toFixed(1)}% · alpha ${cmp.alpha} (${confidenceLabel(cmp.alpha)} intervals)`,
  ];
  for (const w of cmp.warnings ?? []) lines.push(`warning: ${w}`);
  lines.push(...basisLines(cmp));
  if (cmp.fingerprintDiffs.length > 0) {
    lines.push('environment differences:');
    for (const d of cmp.fingerprintDiffs) lines.push(`  ${describeDiff(d)}`);
  }
  if (cmp.layerCommits !== undefined && cmp.layerCommits.length > 0) {
    lines.push(`${layerCommitsHeading}:`);
    for (const line of layerCommitsLines(cmp.layerCommits)) lines.push(`  ${line}`);
  }
  const rows = cmp.cases.map((c) => [
    c.id,
    formatNs(c.baseMedian),
    formatNs(c.headMedian),
    formatChange(c.ratio),
    formatInterval(c.ratioCi),
    formatP(c.pValue),
    c.verdict,
    caseNote(c),
  ]);
  if (rows.length > 0) {
    lines.push(
      renderTextTable(
        ['case', 'base', 'head', 'change', `${confidenceLabel(cmp.alpha)} CI`, 'p', 'verdict', 'note'],
        rows,
        [false, true, true, true, true, true, false, false],
      ),
    );
  }
  const digestChanged = cmp.cases.filter((c) => c.digestChanged).map((c) => c.id);
  if (digestChanged.length > 0)
    lines.push(`DIGEST CHANGED (the output differs: a correctness change): ${digestChanged.join(', ')}`);
  if (cmp.onlyBase.length > 0) lines.push(`only in base: ${cmp.onlyBase.join(', ')}`);
  if (cmp.onlyHead.length > 0) lines.push(`only in head: ${cmp.onlyHead.join(', ')}`);
  if (cmp.failed.length > 0) lines.push(`failed on either side: ${cmp.failed.join(', ')}`);
  lines.push(summaryLine(cmp));
  return `${lines.join('\n')}\n`;
}
