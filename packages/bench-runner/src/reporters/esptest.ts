// OpenConnect's esptest lines: 'Encrypted N packets in 5s (X Mb/s)' and
// 'Encrypted+decrypted N packets in 5s (X Mb/s)', from fixed-time cases with
// params.op 'encrypt' or 'encrypt+decrypt'. By default X is the true payload
// bit rate; `compat` prints esptest's own figure, packets x bytes / s / 250000,
// which is half of it, so numbers can be set beside the seed report's.
import type { CaseResult, RunResult } from '../types.js';

export interface EsptestOptions {
  /** Print Mb/s as esptest computes it (N * bytes / seconds / 250000). */
  compat?: boolean;
}

const opLabels: Record<string, string> = { encrypt: 'Encrypted', 'encrypt+decrypt': 'Encrypted+decrypted' };

export function esptestUnitLine(compat: boolean): string {
  return compat
    ? "# this run's figures, Mb/s as esptest prints it: packets x bytes / seconds / 250000 (half the payload bit rate)"
    : "# this run's figures, Mb/s = payload megabits per second: packets x bytes x 8 / seconds / 1e6";
}

export function esptestLine(c: CaseResult, compat: boolean): string {
  const label = opLabels[String(c.params.op)] ?? String(c.params.op);
  if (c.status !== 'ok' || !c.fixedTime)
    return `${label}: FAILED ${c.error?.name ?? 'Error'}: ${c.error?.message ?? 'no fixed-time result'}`;
  const { ops, seconds } = c.fixedTime;
  const bytes = c.bytesPerOp ?? (typeof c.params.packetBytes === 'number' ? c.params.packetBytes : undefined);
  // compat divides by the nominal seconds like esptest; otherwise the measured loop time is used.
  const elapsed = compat ? seconds : (c.fixedTime.elapsedSeconds ?? seconds);
  // esptest truncates its figure to an integer; the payload rate is rounded.
  const rate =
    bytes === undefined
      ? '?'
      : compat
        ? String(Math.floor((ops * bytes) / elapsed / 250000))
        : ((ops * bytes * 8) / elapsed / 1e6).toFixed(0);
  return `${label} ${ops} packets in ${seconds}s (${rate} Mb/s)`;
}

export function formatEsptest(run: RunResult, options: EsptestOptions = {}): string {
  const compat = options.compat === true;
  const groups = new Map<string, CaseResult[]>();
  for (const c of run.cases) {
    if (!(String(c.params.op) in opLabels)) continue;
    const key = String(c.params.impl ?? c.implementation ?? c.layer);
    const list = groups.get(key) ?? [];
    list.push(c);
    groups.set(key, list);
  }
  const lines = [esptestUnitLine(compat)];
  if (run.env.capabilities !== undefined) lines.push(`CPU capabilities: ${run.env.capabilities}`);
  for (const [key, cases] of groups) {
    if (groups.size > 1) lines.push(`# ${key}`);
    for (const c of cases) lines.push(esptestLine(c, compat));
  }
  return `${lines.join('\n')}\n`;
}
