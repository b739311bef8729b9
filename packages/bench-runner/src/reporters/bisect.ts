// Human-readable forms of a bisect result (results/bisect-schema.ts): the
// console table `layerbench bisect` prints and the Markdown it and ci-report
// (PR comment, job summary) show. Both lead with the verdict, say plainly when
// the bisect did not finish, name the attributed layers with their version,
// dispatch and capability changes, then the per-case numbers with the A/A
// control beside each total.
import { describeLayerCommits } from './layer-commits.js';
import { confidenceLabel } from '../stats/verdict.js';
import type { BisectCase, BisectEffect, BisectResult } from '../results/bisect-schema.js';
import { markdownCell as md } from './markdown-cell.js';

export function formatRatio(r: number): string {
  return `x${r.toFixed(r >= 10 ? 1 : 3)}`;
}

export function formatEffect(e: BisectEffect | undefined): string {
  if (!e) return 'n/a';
  return `${formatRatio(e.ratio)} [${e.ci[0].toFixed(3)}, ${e.ci[1].toFixed(3)}]`;
}

function shortVersion(result: BisectResult, side: 'good' | 'bad', layer: string): string {
  const fp = result[side].layers.find((l) => l.name === layer || l.name.endsWith(`/${layer}`));
  if (!fp) return '?';
  if (layer === 'runtime') return `node ${fp.version}`;
  return fp.version;
}

function commitOf(result: BisectResult, side: 'good' | 'bad', layer: string): string | undefined {
  return result[side].layers.find((l) => l.name === layer || l.name.endsWith(`/${layer}`))?.commit?.slice(0, 7);
}

/** Dispatch/capability changes named per layer in one line (the rest are in the stack changes). */
const MAX_EFFECTS = 3;

/** The commits that changed the layer's folder, as the bisect recorded them (`layerCommits`); undefined when it did not. */
function layerCommitsNote(result: BisectResult, layer: string): string | undefined {
  const found = result.layerCommits?.find((l) => l.layer === layer);
  return found === undefined ? undefined : describeLayerCommits(found);
}

/**
 * One line naming what changed in a layer: version, commit, and every
 * dispatch/capability/OpenSSL change its swap reproduces, e.g.
 * `sha1-dispatch 0.1.0 -> 0.1.0 (commit abc1234 -> def5678): dispatch sha1-dispatch: block unrolled -> generic`.
 */
export function describeLayerChange(result: BisectResult, layer: string): string {
  let text = `${layer} ${shortVersion(result, 'good', layer)} -> ${shortVersion(result, 'bad', layer)}`;
  const g = commitOf(result, 'good', layer);
  const b = commitOf(result, 'bad', layer);
  const notes: string[] = [];
  if (g !== b) notes.push(`commit ${g ?? 'none'} -> ${b ?? 'none'}`);
  const inRange = layerCommitsNote(result, layer);
  if (inRange !== undefined) notes.push(inRange);
  if (notes.length > 0) text += ` (${notes.join('; ')})`;
  const reported = (v: string) => v !== 'not reported';
  const effects = result.changes
    .filter((c) => c.kind !== 'layer' && c.kind !== 'runtime' && c.causedBy.includes(layer))
    // Decisions both sides report first: a renamed size band says less than 'unrolled -> generic'.
    .sort((a, b) => Number(reported(b.good) && reported(b.bad)) - Number(reported(a.good) && reported(a.bad)))
    .map((c) => {
      const strip = (s: string) => s.replace(/ \(.*\)$/, '');
      const what = c.what.startsWith(`${layer}: `) ? c.what.slice(layer.length + 2) : c.what;
      if (c.kind === 'dispatch') return `dispatch ${what}: ${strip(c.good)} -> ${strip(c.bad)}`;
      return `${c.what} ${c.good} -> ${c.bad}`;
    });
  // What the measured cases actually ran, when this layer's swap changes it: the most direct evidence.
  const ran = new Map<string, string[]>();
  for (const c of result.cases) {
    const im = c.implementations;
    if (!im || !c.attributed.includes(layer) || im.good === im.bad || im[`good+${layer}`] !== im.bad) continue;
    const key = `dispatch ${im.good ?? '?'} -> ${im.bad ?? '?'}`;
    ran.set(key, [...(ran.get(key) ?? []), c.id]);
  }
  for (const [key, ids] of [...ran].reverse()) {
    effects.unshift(`${key} (${ids.length === 1 ? ids[0] : `${ids.length} cases`})`);
  }
  const shown = effects.slice(0, MAX_EFFECTS);
  if (effects.length > shown.length) shown.push(`${effects.length - shown.length} more in the stack changes`);
  return shown.length ? `${text}: ${shown.join('; ')}` : text;
}

/** What one visit and one process contribute. */
function visitText(result: BisectResult): string {
  const p = result.options.visitPercentile;
  const visit = p === 50 ? 'median of each visit' : `${p}th percentile of each visit`;
  const cpu = result.machine.measuredOnCpu;
  const where =
    cpu === undefined ? (result.machine.cpuNote === undefined ? '' : ` (${result.machine.cpuNote})`) : ` on CPU ${cpu}`;
  const processes = result.options.paired
    ? `${result.options.processes} processes, each hosting every variant (paired: compared within processes)`
    : `${result.options.processes} processes per variant`;
  return `${visit}, ${processes}${where}`;
}

function caseVerdict(c: BisectCase): string {
  if (c.status === 'not-measured') return 'not measured';
  return c.total?.verdict ?? 'failed';
}

export function bisectHeadline(result: BisectResult): string {
  const s = result.summary;
  const n = result.cases.length;
  const attributed = Object.entries(s.attributed)
    .sort((a, b) => b[1] - a[1])
    .map(([layer, count]) => `${layer} (${count} case${count === 1 ? '' : 's'})`);
  const unfinished = result.complete ? '' : `incomplete: ${result.incomplete?.reason ?? 'not every case was measured'}`;
  const head =
    s.regressed > 0
      ? `Regression${unfinished ? ` (${unfinished})` : ''}`
      : unfinished
        ? `Incomplete (${result.incomplete?.reason ?? 'not every case was measured'})`
        : s.improved > 0
          ? 'Improvement, no regression'
          : s.inconclusive > 0
            ? 'No regression detected (some cases inconclusive)'
            : 'No change';
  const identical = result.identicalCode?.length ?? 0;
  const extra = [
    s.failed ? `${s.failed} failed` : '',
    s.notMeasured ? `${s.notMeasured} not measured` : '',
    identical ? `${identical} with identical code on both sides (not measured)` : '',
  ].filter(Boolean);
  const counts = `${s.regressed} of ${n} cases regressed, ${s.improved} improved, ${s.unchanged} unchanged, ${s.inconclusive} inconclusive${extra.length ? `, ${extra.join(', ')}` : ''}`;
  const why = attributed.length ? `; explained by ${attributed.join(', ')}` : '';
  return `${head}: ${counts}${why}`;
}

function controlCell(c: BisectCase): string {
  if (!c.control) return c.status === 'ok' ? 'n/a' : '';
  const moved = c.control.verdict === 'regressed' || c.control.verdict === 'improved';
  return `${formatEffect(c.control)}${moved ? ' moved' : ''}`;
}

/** The cell of a swapped layer the case does not run (its swaps were not measured for it). */
const notRunCell = 'not run';

function layerCell(c: BisectCase, layer: string): string {
  const s = c.layers.find((l) => l.layer === layer);
  if (!s) return c.layersNotRun?.includes(layer) ? notRunCell : '';
  if (!s.swapIn && !s.swapOut) return 'cannot run';
  const share = s.share === undefined ? '' : ` ${Math.round(s.share * 100)}%`;
  const mark =
    s.explains || s.reproduced === 'both'
      ? ' *'
      : s.reproduced === 'in'
        ? ' (in only)'
        : s.reproduced === 'out'
          ? ' (out only)'
          : '';
  return `in ${s.swapIn ? formatRatio(s.swapIn.ratio) : 'n/a'} out ${s.swapOut ? formatRatio(s.swapOut.ratio) : 'n/a'}${share}${mark}`;
}

/** What the notes say of one case (without its id). */
function caseNotes(c: BisectCase): string[] {
  const notes: string[] = [];
  if (c.problem) notes.push(c.problem);
  notes.push(...c.notes);
  if (c.digestChanged) notes.push('the output digest differs between the good and bad stacks');
  if (c.implementations) {
    const good = c.implementations.good;
    const bad = c.implementations.bad;
    if (good !== bad) notes.push(`implementation ${good ?? '?'} -> ${bad ?? '?'}`);
  }
  for (const l of c.layers) {
    // A variant that cannot run at all is reported once, with the variants; here only case-level failures.
    const own = (l.problem ?? '').split('; ').filter((p) => p && !p.includes('this mix cannot run'));
    if (own.length) notes.push(`${l.layer}: ${own.join('; ')}`);
  }
  return notes;
}

/** Notes said of this many cases or more are given once, with the cases listed after them. */
const groupNotesFrom = 3;

/**
 * The notes of the cases, one line each; a note said of several cases (a
 * process left out of many cases, say) is one line that names every case it
 * is said of, in the order the cases came, so nothing is dropped and the
 * list stays readable.
 */
function groupedCaseNotes(cases: readonly BisectCase[]): string[] {
  const byText = new Map<string, string[]>();
  for (const c of cases) {
    for (const text of caseNotes(c)) {
      const ids = byText.get(text) ?? [];
      if (!ids.includes(c.id)) ids.push(c.id);
      byText.set(text, ids);
    }
  }
  const lines: string[] = [];
  for (const [text, ids] of byText) {
    if (ids.length >= groupNotesFrom) lines.push(`${ids.length} cases: ${text}: ${ids.join(', ')}`);
    else for (const id of ids) lines.push(`${id}: ${text}`);
  }
  return lines;
}

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Variants that could not run, one line each. */
function mixProblems(result: BisectResult): string[] {
  return result.variants
    .filter((v) => v.status === 'failed')
    .map((v) => `${v.id} (${v.label}) cannot run: ${v.problem ?? 'unknown reason'}`);
}

/** The sentence that says a bisect did not finish (empty when it did). */
export function incompleteText(result: BisectResult): string {
  if (result.complete) return '';
  const reason = result.incomplete?.reason ?? 'not every case was measured';
  return `INCOMPLETE: ${reason}. The numbers cover what was measured; cases marked "not measured" have no verdict, and this result is not a clean pass.`;
}

function legend(result: BisectResult): string {
  const control = result.options.paired
    ? 'A/A = a second copy of the good stack in the same processes against the good stack (the noise floor of this run)'
    : 'A/A = the good stack in processes of its own against the good stack (the noise floor of this run)';
  const notRun = result.cases.some((c) => c.layersNotRun?.length)
    ? `; ${notRunCell} = the case does not run that layer's code (its swaps were not measured for it)`
    : '';
  return `${control}; ${LEGEND_REST}${notRun}`;
}

const LEGEND_REST =
  'in = that layer from bad into the good stack; out = what putting it back to good undoes; % = share of the change; * = explains it (both swaps reproduce the change beyond the A/A, each alone or the two together); (in only) / (out only) = one swap only, not attributed';

/**
 * The layers whose version or built code (content hash) differ between the
 * two sides' fingerprints, without the scope: what a result that swapped no
 * layer (check --against compares whole stacks) still compared.
 */
function differingSideLayers(result: BisectResult): string[] {
  const good = new Map(result.good.layers.map((l) => [l.name, l]));
  return result.bad.layers
    .filter((l) => {
      const g = good.get(l.name);
      return g === undefined || g.version !== l.version || g.contentHash !== l.contentHash;
    })
    .map((l) => l.name.replace(/^@layerbench\//, ''));
}

function swappedLayersText(result: BisectResult): string {
  if (result.layers.length) return result.layers.join(', ');
  const differing = differingSideLayers(result);
  return differing.length
    ? `none (the whole stacks compared; their code differs in ${differing.join(', ')})`
    : 'none (the sides are identical)';
}

/** The cases left unmeasured because their code is identical on both sides, in one line (undefined: none). */
export function identicalCodeText(result: BisectResult, shown = 8): string | undefined {
  const ids = result.identicalCode ?? [];
  if (ids.length === 0) return undefined;
  const listed = ids.slice(0, shown).join(', ');
  const more = ids.length > shown ? ` and ${ids.length - shown} more` : '';
  return `not measured: ${ids.length} case(s) whose code (their layer, the layers below it, the engine, the runtime) is identical on both sides, so they cannot have changed: ${listed}${more}`;
}

export function formatBisectTable(result: BisectResult): string {
  const lines: string[] = [bisectHeadline(result), ''];
  if (!result.complete) lines.push(incompleteText(result), '');
  lines.push(`good: ${result.good.spec}`, `bad:  ${result.bad.spec}`);
  lines.push(`swapped layers: ${swappedLayersText(result)}`);
  lines.push(
    `${result.options.rounds} rounds, ${result.options.timePerCase}s per case per variant, ${visitText(result)}, threshold ${result.options.threshold}, ${confidenceLabel(result.options.alpha)} intervals`,
  );
  const identical = identicalCodeText(result);
  if (identical !== undefined) lines.push(identical);
  const attributedLayers = Object.keys(result.summary.attributed);
  if (attributedLayers.length) {
    lines.push('', 'Attributed:');
    for (const l of attributedLayers) lines.push(`  ${describeLayerChange(result, l)}`);
  }
  if (result.changes.length) {
    lines.push('', 'Stack changes (good -> bad, reproduced by):');
    // The console shows what changed; the reasons are in the Markdown and the result file.
    const brief = (text: string) => text.replace(/ \(.*\)$/, '');
    for (const c of result.changes) {
      const [good, bad] = c.kind === 'dispatch' ? [brief(c.good), brief(c.bad)] : [c.good, c.bad];
      lines.push(`  ${c.kind} ${c.what}: ${good} -> ${bad}${c.causedBy.length ? ` [${c.causedBy.join(', ')}]` : ''}`);
    }
  }
  const rows = [['case', 'bad/good', 'verdict', 'A/A', ...result.layers, 'explained by']];
  for (const c of result.cases) {
    rows.push([
      c.id,
      formatEffect(c.total),
      caseVerdict(c),
      controlCell(c),
      ...result.layers.map((l) => layerCell(c, l)),
      c.attributed.join(', ') || '-',
    ]);
  }
  lines.push('', pad(rows));
  lines.push('', legend(result));
  const notes = [...mixProblems(result), ...groupedCaseNotes(result.cases)];
  if (notes.length) lines.push('', 'Notes:', ...notes.map((n) => `  ${n}`));
  return lines.join('\n');
}

export interface BisectMarkdownOptions {
  /** Cap on case rows (the rest are counted, not shown). */
  maxCases?: number;
  /** Heading level of the sections (default 3). */
  level?: number;
}

/** :red_circle: regressed, :warning: did not finish, else :green_circle:. */
export function bisectIcon(result: BisectResult): string {
  if (result.summary.regressed > 0) return ':red_circle:';
  return result.complete ? ':green_circle:' : ':warning:';
}

export function formatBisectMarkdown(result: BisectResult, options: BisectMarkdownOptions = {}): string {
  const h = '#'.repeat(options.level ?? 3);
  const out: string[] = [];
  out.push(`${h} ${bisectIcon(result)} layerbench bisect: ${md(bisectHeadline(result))}`, '');
  if (!result.complete) out.push(`**${md(incompleteText(result))}**`, '');
  out.push(
    `Good \`${md(result.good.spec)}\` vs bad \`${md(result.bad.spec)}\`; swapped layers: ${result.layers.map((l) => `\`${l}\``).join(', ') || md(swappedLayersText(result))}; ${result.options.rounds} interleaved rounds, ${result.options.timePerCase} s per case per variant, ${visitText(result)}.`,
    '',
  );
  const attributedLayers = Object.entries(result.summary.attributed).sort((a, b) => b[1] - a[1]);
  if (attributedLayers.length) {
    out.push(`${h}# Attributed layers`, '');
    for (const [l, n] of attributedLayers)
      out.push(`- **${md(l)}** explains ${n} case${n === 1 ? '' : 's'}: ${md(describeLayerChange(result, l))}`);
    out.push('');
  }
  const cases = [...result.cases].sort(
    (a, b) => Math.abs(Math.log(b.total?.ratio ?? 1)) - Math.abs(Math.log(a.total?.ratio ?? 1)),
  );
  const shown = cases.slice(0, options.maxCases ?? cases.length);
  const level = confidenceLabel(result.options.alpha);
  out.push(`${h}# Cases`, '');
  out.push(
    `| case | bad/good [${level} CI] | verdict | A/A [${level} CI] | ${result.layers.map((l) => `${md(l)} in / out`).join(' | ')}${result.layers.length ? ' | ' : ''}explained by |`,
  );
  out.push(`|---|---|---|---|${result.layers.map(() => '---|').join('')}---|`);
  for (const c of shown) {
    const layerCells = result.layers.map((l) => md(layerCell(c, l))).join(' | ');
    out.push(
      `| \`${md(c.id)}\` | ${formatEffect(c.total)} | ${caseVerdict(c)} | ${controlCell(c)} | ${layerCells}${result.layers.length ? ' | ' : ''}${c.attributed.join(', ') || '-'} |`,
    );
  }
  if (shown.length < cases.length)
    out.push('', `_${cases.length - shown.length} more cases with smaller changes are in the result file._`);
  const identical = identicalCodeText(result);
  if (identical !== undefined) out.push('', `_${md(identical[0]!.toUpperCase() + identical.slice(1))}._`);
  out.push('', `_${md(legend(result))}._`, '');
  if (result.changes.length) {
    out.push(`${h}# Stack changes`, '', '| kind | what | good | bad | reproduced by |', '|---|---|---|---|---|');
    for (const c of result.changes)
      out.push(`| ${c.kind} | ${md(c.what)} | ${md(c.good)} | ${md(c.bad)} | ${c.causedBy.join(', ') || '-'} |`);
    out.push('');
  }
  const notes = [...mixProblems(result), ...groupedCaseNotes(shown)];
  if (notes.length) {
    out.push(`${h}# Notes`, '', ...notes.map((n) => `- ${md(n)}`), '');
  }
  return out.join('\n');
}
