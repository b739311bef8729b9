// One CPU for every measuring process. On a shared machine the CPUs are not
// alike, and which one is slow changes over minutes: on the 2-vCPU
// development VM one vCPU ran the same code 1.3-1.5x slower than the other
// (node:crypto SHA-1 of 64 B: 1145 vs 783 ns; cmac's native path 6301 vs
// 4308 ns), first CPU 0, ten minutes later CPU 1. A process mostly stays on
// the CPU it started on, so each measuring process drew its CPU at random: six
// processes of one stack, visited in shuffled rounds, spread 15-23% (sd of the
// log of their medians), against 0.4-7.7% when all six were pinned to one CPU
// (same rounds, same minutes; 13.6% in one case, one process of six at 1.4x).
// That spread is what a bisect's intervals must allow for; pinned, the CPU's
// own speed is shared by every variant in the same rounds. Separate runs are
// not pinned by default: measured, pinning made them spread more (measure.ts).
//
// Linux only, through util-linux's taskset (present on every Debian-like
// system): Node has no call to set a process's CPU affinity. Elsewhere, or
// when taskset is missing or refused, nothing is pinned and the result says so.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { UsageError } from './args.js';

/** What --cpu asked: a CPU number, 'auto' (the last CPU this process may use), or 'none'. */
export type CpuChoice = number | 'auto' | 'none';

/** --cpu of bisect and find, whose worker processes are pinned by default. */
export const cpuOptionHelp =
  "pin the measuring processes to this CPU: a number, 'auto' (the last CPU allowed; the default) or 'none'";

/** --cpu of run (and calibrate's runs), which is not pinned by default: see measure.ts. */
export const runCpuOptionHelp =
  "pin the measuring process to this CPU: a number, 'auto' (the last CPU allowed) or 'none' (the default)";

/** Parses the value of --cpu. */
export function cpuChoice(raw: string, flag: string): CpuChoice {
  if (raw === 'auto' || raw === 'none') return raw;
  if (/^\d+$/.test(raw)) return Number(raw);
  throw new UsageError(`${flag} must be a CPU number, 'auto' or 'none', got '${raw}'`);
}

/** Parses a kernel CPU list ("0-3,6,8-9") into the CPU numbers, ascending. */
export function parseCpuList(list: string): number[] {
  const cpus = new Set<number>();
  for (const part of list.trim().split(',')) {
    if (part === '') continue;
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new RangeError(`not a CPU list: '${list}'`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let cpu = from; cpu <= to; cpu++) cpus.add(cpu);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** The CPUs this process may run on (Linux: /proc/self/status), or undefined when that cannot be read. */
export function allowedCpus(): number[] | undefined {
  return cpusOf('self');
}

/** The CPUs process (or thread) `pid` may run on, or undefined when that cannot be read. */
export function cpusOf(pid: number | 'self'): number[] | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const line = /^Cpus_allowed_list:\s*(.+)$/m.exec(status);
    return line ? parseCpuList(line[1]!) : undefined;
  } catch {
    return undefined;
  }
}

/** Where the measuring processes will run, or why they are not pinned. */
export type CpuPlan = { cpu: number } | { cpu?: undefined; why: string };

/** Resolves --cpu against the CPUs allowed here. A CPU that is not allowed is a usage error. */
export function planCpu(choice: CpuChoice, allowed: readonly number[] | null = allowedCpus() ?? null): CpuPlan {
  if (choice === 'none') return { why: 'not pinned (--cpu none)' };
  if (allowed === null) return { why: 'not pinned: the CPU affinity of a process can be set on Linux only' };
  if (choice === 'auto') {
    if (allowed.length < 2) return { why: 'not pinned: one CPU only' };
    return { cpu: allowed[allowed.length - 1]! };
  }
  if (!allowed.includes(choice))
    throw new UsageError(`--cpu ${choice}: this process may run on CPUs ${allowed.join(',')} only`);
  return { cpu: choice };
}

/**
 * Pins every thread of process `pid` to `cpu` (threads started later inherit
 * it). Returns undefined when done, else why not (taskset missing or refused).
 */
export function pinProcess(pid: number, cpu: number): string | undefined {
  try {
    setAffinity(pid, [cpu]);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') return 'taskset (util-linux) is not installed';
    const detail = e.stderr?.toString('utf8').trim();
    return `taskset failed${detail ? `: ${detail}` : ''}`;
  }
  // taskset -a exits 0 for a process that is gone: the kernel's word is the one that counts.
  const now = cpusOf(pid);
  if (now === undefined) return `taskset failed: process ${pid} is not running`;
  return now.length === 1 && now[0] === cpu
    ? undefined
    : `taskset failed: process ${pid} runs on CPUs ${now.join(',')}`;
}

/** Gives every thread of process `pid` these CPUs (taskset -a); throws what execFileSync throws. */
function setAffinity(pid: number, cpus: readonly number[]): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus.join(','), String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * The plan, once taskset has been asked about this process (a query: nothing
 * is changed here, so workers started later still warm up on every CPU), so
 * that a missing taskset is found before any worker starts, and said once.
 */
export function checkedCpuPlan(plan: CpuPlan): CpuPlan {
  if (plan.cpu === undefined) return plan;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return plan;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { why: `not pinned: ${missing ? 'taskset (util-linux) is not installed' : 'taskset does not work here'}` };
  }
}

/**
 * Pins the processes to the plan's CPU (an undefined pid, a child that never
 * started, is passed over); the CPU they run on, or why they are not pinned.
 */
export function pinAll(pids: readonly (number | undefined)[], plan: CpuPlan): CpuPlan {
  if (plan.cpu === undefined) return plan;
  for (const pid of pids) {
    if (pid === undefined) continue;
    const problem = pinProcess(pid, plan.cpu);
    if (problem !== undefined) return { why: `not pinned: ${problem}` };
  }
  return plan;
}

/** What a result file records of a plan: the CPU measured on, or why none. */
export function cpuFields(plan: CpuPlan): { measuredOnCpu: number } | { cpuNote: string } {
  return plan.cpu === undefined ? { cpuNote: plan.why } : { measuredOnCpu: plan.cpu };
}

/** One line for a report: "pinned to CPU 1" or the reason it is not. */
export function describeCpuPlan(plan: CpuPlan): string {
  return plan.cpu === undefined ? plan.why : `pinned to CPU ${plan.cpu}`;
}

/**
 * Runs `measure` with this process (every thread) pinned to the plan's CPU,
 * then gives the process back the CPUs it had: `run` measures in its own
 * process, which may be a test runner's or a user's program (index.ts).
 */
export async function whilePinned<T>(plan: CpuPlan, measure: (cpu: CpuPlan) => Promise<T>): Promise<T> {
  const before = allowedCpus();
  const pinned = plan.cpu === undefined || before === undefined ? plan : pinAll([process.pid], plan);
  try {
    return await measure(pinned);
  } finally {
    if (pinned.cpu !== undefined && before !== undefined) {
      try {
        setAffinity(process.pid, before);
      } catch {
        // Nothing to restore with: the process keeps running on the one CPU.
      }
    }
  }
}
