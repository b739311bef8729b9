// Paired worker processes load and warm up in waves of one per CPU
// (startInWaves): never more at once than asked, every one started, the
// outcomes in process order, a failed start kept as that process's outcome.
import { describe, expect, it } from 'vitest';
import { startInWaves, startTogetherDefault } from '../src/bisect/run.js';

/** start(i) that resolves after a few event-loop turns, recording how many run at once. */
function tracked(fail: ReadonlySet<number> = new Set()) {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const start = async (index: number) => {
    started.push(index);
    running++;
    most = Math.max(most, running);
    for (let turn = 0; turn < 3 + (index % 2); turn++) await new Promise((r) => setImmediate(r));
    running--;
    if (fail.has(index)) throw new Error(`process ${index} failed`);
    return `worker ${index}`;
  };
  return { start, started, most: () => most };
}

describe('startInWaves', () => {
  it('starts six processes two at a time, each wave after the last has settled, outcomes in order', async () => {
    const t = tracked();
    const outcomes = await startInWaves(6, 2, t.start);
    expect(t.most()).toBe(2);
    expect(t.started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `worker ${i}`),
    );
  });

  it('reports after each wave how many have settled (the progress lines), failed ones included', async () => {
    const t = tracked(new Set([3]));
    const settled: number[] = [];
    await startInWaves(5, 2, t.start, (n) => settled.push(n));
    expect(settled).toEqual([2, 4, 5]);
  });

  it('one at a time when asked (the order before), and all at once when there are more CPUs than processes', async () => {
    const one = tracked();
    await startInWaves(5, 1, one.start);
    expect(one.most()).toBe(1);
    const all = tracked();
    await startInWaves(3, 8, all.start);
    expect(all.most()).toBe(3);
    expect(all.started).toEqual([0, 1, 2]);
  });

  it('keeps a failed start as its own outcome and still starts the rest', async () => {
    const t = tracked(new Set([1, 4]));
    const outcomes = await startInWaves(5, 2, t.start);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected']);
    const second = outcomes[1]!;
    expect(second.status === 'rejected' && (second.reason as Error).message).toBe('process 1 failed');
  });

  it('a fractional or non-positive wave size still starts every process, one at a time', async () => {
    for (const together of [0, -3, 0.5]) {
      const t = tracked();
      const outcomes = await startInWaves(3, together, t.start);
      expect(t.most()).toBe(1);
      expect(outcomes).toHaveLength(3);
    }
    expect(startTogetherDefault()).toBeGreaterThanOrEqual(1);
  });
});
