// Console table of one run: per case the median with its 95% CI, the spread
// (MAD), throughput where bytes are known, the output digest and the status.
import type { EnvFingerprint, RunResult } from '../types.js';
import { renderTextTable } from './text-table.js';
import { formatNs, formatRate } from './units.js';

/** One line naming the runtime and machine a result came from. */
export function describeEnv(env: EnvFingerprint): string {
  const load = (values: number[]) => (values[0] ?? 0).toFixed(2);
  const parts = [
    `node ${env.node}`,
    `OpenSSL ${env.openssl}`,
    `${env.cpuModel} x${env.cpuCount}`,
    `load ${load(env.loadAvgStart)}->${load(env.loadAvgEnd)}`,
  ];
  if (env.capabilities) parts.push(`CPU capabilities: ${env.capabilities}`);
  return parts.join(' · ');
}

function shortDigest(digest: string | undefined): string {
  if (!digest) return '';
  return digest.length > 16 ? `${digest.slice(0, 16)}…` : digest;
}

export function formatTable(run: RunResult): string {
  const lines = [`layerbench run ${run.createdAt} · ${describeEnv(run.env)}`];
  if (run.overheadNs !== undefined) lines.push(`empty-case overhead: ${formatNs(run.overheadNs)}/op`);
  const rows = run.cases.map((c) => {
    const impl = c.implementation ?? (c.params.impl !== undefined ? String(c.params.impl) : '');
    if (c.status === 'failed' || !c.stats) {
      return [
        c.id,
        impl,
        '',
        '',
        '',
        '',
        '',
        shortDigest(c.digest),
        `FAILED ${c.error?.name ?? 'Error'}: ${c.error?.message ?? ''}`,
      ];
    }
    const s = c.stats;
    return [
      c.id,
      impl,
      formatNs(s.median),
      `[${formatNs(s.ci[0])}, ${formatNs(s.ci[1])}]`,
      formatNs(s.mad),
      formatRate(s.opsPerSec),
      s.mbPerSec !== undefined ? s.mbPerSec.toFixed(1) : '',
      shortDigest(c.digest),
      c.digestOk === true ? 'ok, digest checked' : 'ok',
    ];
  });
  lines.push(
    renderTextTable(['case', 'impl', 'median/op', '95% CI', 'MAD', 'ops/s', 'MB/s', 'digest', 'status'], rows, [
      false,
      false,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]),
  );
  if (run.interrupted) lines.push(`interrupted: ${run.cases.length} case(s) finished`);
  return `${lines.join('\n')}\n`;
}
