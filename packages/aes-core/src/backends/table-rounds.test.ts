// table-rounds.generated.ts is generated: check it is exactly what its script emits, so
// a hand edit (or a generator change not re-run) cannot slip in unnoticed.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('table-rounds.generated.ts is what scripts/gen-table-rounds.mjs emits', () => {
  const script = fileURLToPath(new URL('../../scripts/gen-table-rounds.mjs', import.meta.url));
  expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
});
