// Markdown of a run or a comparison, for job summaries and PR comments.
import { layerCommitsLines, layerCommitsMarkdown } from './layer-commits.js';
import type { Comparison, RunResult } from '../types.js';
import { basisLines, caseNote, describeDiff, formatInterval, summaryLine } from './comparison.js';
import { confidenceLabel } from '../stats/verdict.js';
import { markdownCell } from './markdown-cell.js';
import { describeEnv } from './table.js';
import { formatChange, formatNs, formatP, formatRate } from './units.js';

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(markdownCell).join(' | ')} |`),
  ];
}

const verdictMarks: Record<string, string> = {
  regressed: '🔴 regressed',
  improved: '🟢 improved',
  unchanged: 'unchanged',
  inconclusive: '⚪ inconclusive',
};

function runMarkdown(run: RunResult): string {
  const lines = [`### layerbench run ${run.createdAt}`, '', markdownCell(describeEnv(run.env)), ''];
  const rows = run.cases.map((c) => {
    const impl = c.implementation ?? String(c.params.impl ?? '');
    if (c.status !== 'ok' || !c.stats) {
      return [
        `\`${c.id}\``,
        impl,
        '',
        '',
        '',
        '',
        '',
        c.digest ? `\`${c.digest}\`` : '',
        `❌ ${c.error?.name}: ${c.error?.message}`,
      ];
    }
    const s = c.stats;
    return [
      `\`${c.id}\``,
      impl,
      formatNs(s.median),
      `${formatNs(s.ci[0])} – ${formatNs(s.ci[1])}`,
      formatNs(s.mad),
      formatRate(s.opsPerSec),
      s.mbPerSec !== undefined ? s.mbPerSec.toFixed(1) : '',
      c.digest ? `\`${c.digest}\`` : '',
      c.digestOk === true ? 'ok (digest checked)' : 'ok',
    ];
  });
  lines.push(...table(['case', 'impl', 'median/op', '95% CI', 'MAD', 'ops/s', 'MB/s', 'digest', 'status'], rows));
  if (run.overheadNs !== undefined) lines.push('', `Empty-case overhead: ${formatNs(run.overheadNs)}/op.`);
  if (run.interrupted) lines.push('', `**Interrupted** after ${run.cases.length} case(s).`);
  return `${lines.join('\n')}\n`;
}

function comparisonMarkdown(cmp: Comparison): string {
  const lines = [`### layerbench compare`, '', `**${markdownCell(summaryLine(cmp))}**`, ''];
  lines.push(
    `Noise threshold ±${(cmp.threshold * 100).toFixed(1)}%, alpha ${cmp.alpha} (${confidenceLabel(cmp.alpha)} intervals). Base ${cmp.base.createdAt}, head ${cmp.head.createdAt}.`,
    '',
  );
  for (const w of cmp.warnings ?? []) lines.push(`> ⚠️ ${markdownCell(w)}`, '');
  for (const b of basisLines(cmp)) lines.push(markdownCell(b), '');
  if (cmp.fingerprintDiffs.length > 0) {
    lines.push('**Environment differences** (first hints of the cause):', '');
    for (const d of cmp.fingerprintDiffs) lines.push(`- ${markdownCell(describeDiff(d))}`);
    lines.push('');
  }
  lines.push(...layerCommitsMarkdown(layerCommitsLines(cmp.layerCommits ?? [])));
  const rows = cmp.cases.map((c) => [
    `\`${c.id}\``,
    formatNs(c.baseMedian),
    formatNs(c.headMedian),
    formatChange(c.ratio),
    formatInterval(c.ratioCi),
    formatP(c.pValue),
    verdictMarks[c.verdict] ?? c.verdict,
    caseNote(c),
  ]);
  if (rows.length > 0)
    lines.push(
      ...table(['case', 'base', 'head', 'change', `${confidenceLabel(cmp.alpha)} CI`, 'p', 'verdict', 'note'], rows),
    );
  const extra: string[] = [];
  const digestChanged = cmp.cases.filter((c) => c.digestChanged).map((c) => `\`${c.id}\``);
  if (digestChanged.length > 0)
    extra.push(`- ⚠️ **Digest changed** (a correctness change): ${digestChanged.join(', ')}`);
  if (cmp.onlyBase.length > 0) extra.push(`- Only in base: ${cmp.onlyBase.map((id) => `\`${id}\``).join(', ')}`);
  if (cmp.onlyHead.length > 0) extra.push(`- Only in head: ${cmp.onlyHead.map((id) => `\`${id}\``).join(', ')}`);
  if (cmp.failed.length > 0) extra.push(`- Failed on either side: ${cmp.failed.map((id) => `\`${id}\``).join(', ')}`);
  if (extra.length > 0) lines.push('', ...extra);
  return `${lines.join('\n')}\n`;
}

export function formatMarkdown(result: RunResult | Comparison): string {
  return result.kind === 'layerbench/compare' ? comparisonMarkdown(result) : runMarkdown(result);
}
