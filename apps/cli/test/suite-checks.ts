// Shared checks for the suite tests beside each suite file (src/suites/*.test.ts):
// a case must compute its expected digest when set up, and still after being
// timed — a speed-up that breaks the output must fail here before it is measured.
import { expect } from 'vitest';
import type { BenchCase, CaseInstance } from '@layerbench/bench-runner';

export async function expectEveryCaseDigest(
  cases: readonly BenchCase[],
  options: { timedCalls?: number; check?: (c: BenchCase, instance: CaseInstance) => void } = {},
): Promise<void> {
  const timedCalls = options.timedCalls ?? 1;
  for (const c of cases) {
    const instance = await c.setup();
    expect(instance.digest(), c.id).toBe(c.expectedDigest);
    for (let i = 0; i < timedCalls; i++) instance.fn();
    expect(instance.digest(), `${c.id} after ${timedCalls} timed call(s)`).toBe(c.expectedDigest);
    options.check?.(c, instance);
    instance.teardown?.();
  }
}
