import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import {
  allowedCpus,
  checkedCpuPlan,
  cpuChoice,
  cpusOf,
  describeCpuPlan,
  parseCpuList,
  pinAll,
  planCpu,
} from './cpu.js';

describe('--cpu', () => {
  it('takes a CPU number, auto or none, and refuses anything else with a usage error', () => {
    expect(cpuChoice('3', '--cpu')).toBe(3);
    expect(cpuChoice('auto', '--cpu')).toBe('auto');
    expect(cpuChoice('none', '--cpu')).toBe('none');
    for (const bad of ['-1', '1.5', 'last', '']) expect(() => cpuChoice(bad, '--cpu')).toThrow(UsageError);
  });

  it('reads kernel CPU lists', () => {
    expect(parseCpuList('0-3,6,8-9\n')).toEqual([0, 1, 2, 3, 6, 8, 9]);
    expect(parseCpuList('1')).toEqual([1]);
    expect(() => parseCpuList('0-a')).toThrow(RangeError);
  });

  it('plans the last allowed CPU by default, a chosen allowed one, and says why it pins nothing', () => {
    expect(planCpu('auto', [0, 1, 2, 3])).toEqual({ cpu: 3 });
    expect(planCpu(2, [0, 1, 2, 3])).toEqual({ cpu: 2 });
    expect(() => planCpu(7, [0, 1])).toThrow(/CPUs 0,1 only/);
    expect(planCpu('auto', [0])).toEqual({ why: 'not pinned: one CPU only' });
    expect(planCpu('none', [0, 1])).toEqual({ why: 'not pinned (--cpu none)' });
    expect(planCpu('auto', null).cpu).toBeUndefined();
    expect(describeCpuPlan({ cpu: 1 })).toBe('pinned to CPU 1');
  });
});

// Pinning itself: only where the kernel reports affinity and taskset exists (Linux with util-linux).
const cpus = allowedCpus();
const plan = cpus && cpus.length > 1 ? checkedCpuPlan(planCpu('auto', cpus)) : undefined;
const canPin = plan?.cpu !== undefined;
if (!canPin) {
  process.stdout.write(
    `\n!!!!! SKIPPED: pinning a process to one CPU (${plan === undefined ? 'fewer than two CPUs or no /proc' : describeCpuPlan(plan)}) !!!!!\n`,
  );
}

describe('pinning where it must work', () => {
  it('is available on a Linux CI machine (util-linux taskset, two or more CPUs); elsewhere its absence was said above', () => {
    const mustPin = process.env.CI === 'true' && process.platform === 'linux';
    const state = plan === undefined ? 'fewer than two CPUs or no /proc' : describeCpuPlan(plan);
    if (mustPin) expect(state).toMatch(/^pinned to CPU/);
    else expect(canPin || state.length > 0).toBe(true);
  });
});

describe.runIf(canPin)('pinning a running process', () => {
  it('moves every thread of the process to the one CPU, as the kernel then reports', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const pid = child.pid!;
      const cpu = plan!.cpu!;
      expect(pinAll([pid], { cpu })).toEqual({ cpu });
      expect(cpusOf(pid)).toEqual([cpu]);
      // Every thread, not only the main one (V8's and libuv's threads measure with it): /proc/<tid> reads a thread.
      for (const tid of readdirSync(`/proc/${pid}/task`)) expect(cpusOf(Number(tid)), `thread ${tid}`).toEqual([cpu]);
    } finally {
      child.kill();
    }
  });

  it('says why when the process cannot be pinned', () => {
    const result = pinAll([2 ** 22 + 12345], { cpu: plan!.cpu! });
    expect(result.cpu).toBeUndefined();
    expect((result as { why: string }).why).toMatch(/^not pinned: taskset failed/);
  });
});
