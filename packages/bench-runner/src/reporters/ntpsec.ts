// The NTPsec CMAC timing table of the seed report: a header explaining the
// columns, one block per section ('# CMAC        KL PL CL  ns/op sec/run', or a
// sentence such as 'Preload cipher and key.' printed as is; a section's
// params.sectionNote is printed as is above its header), and rows
// '%12s  %2d %2d %2d %6.0f  %6.3f  <hex>' where sec/run is the time of 1e6 ops.
import type { CaseResult, RunResult } from '../types.js';

export const ntpsecHeader = '# KL=key length, PL=packet length, CL=CMAC length';

/** A section named by a sentence ('Preload cipher and key.') is printed as is, without column titles. */
function isSentence(section: string): boolean {
  return section.includes(' ') || section.endsWith('.');
}

export function ntpsecSectionLine(section: string): string {
  if (isSentence(section)) return section;
  const name = section.length >= 12 ? `${section} ` : section.padEnd(12);
  return `# ${name}KL PL CL  ns/op sec/run`;
}

function int2(value: unknown): string {
  return typeof value === 'number' ? String(Math.round(value)).padStart(2) : ' -';
}

export function ntpsecRow(c: CaseResult): string {
  const label = String(c.params.algorithm ?? c.id).padStart(12);
  const lengths = `${int2(c.params.keyBytes)} ${int2(c.params.packetBytes)} ${int2(c.params.macBytes)}`;
  if (c.status !== 'ok' || !c.stats)
    return `${label}  ${lengths}  FAILED ${c.error?.name ?? 'Error'}: ${c.error?.message ?? ''}`;
  const ns = c.stats.median;
  return `${label}  ${lengths} ${ns.toFixed(0).padStart(6)}  ${(ns / 1000).toFixed(3).padStart(6)}  ${c.digest ?? ''}`.trimEnd();
}

export function formatNtpsec(run: RunResult): string {
  const sections = new Map<string, CaseResult[]>();
  for (const c of run.cases) {
    const section = String(c.params.section ?? c.params.impl ?? c.layer);
    const list = sections.get(section) ?? [];
    list.push(c);
    sections.set(section, list);
  }
  const lines = [run.env.cpuModel, '', ntpsecHeader, '', `# Node ${run.env.node}, OpenSSL ${run.env.openssl}`];
  for (const [section, cases] of sections) {
    const note = cases[0]?.params.sectionNote;
    lines.push('', ...(typeof note === 'string' ? [note] : []), ntpsecSectionLine(section));
    for (const c of cases) lines.push(ntpsecRow(c));
  }
  return `${lines.join('\n')}\n`;
}
