// "How much memory does a ctx take?": keep N objects from a factory alive,
// force a full GC before and after, and divide the growth of heapUsed,
// external and arrayBuffers by N. A forced GC needs node --expose-gc;
// ensureExposedGc() re-runs the current command with it when it is missing.
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from './stats/stats.js';
import { exposedGc } from './timing.js';
import { toCaseError } from './run.js';
import type { MemCase, MemResult } from './types.js';

/** Set in the re-spawned child so it never re-spawns again. */
const childMarker = 'LAYERBENCH_EXPOSE_GC_CHILD';

/**
 * True when global.gc is available (go on measuring). Otherwise runs this
 * same command again as a child with --expose-gc and inherited stdio, sets
 * process.exitCode to the child's exit code and returns false: the child did
 * the work, and the caller should just exit.
 */
export function ensureExposedGc(): boolean {
  if (exposedGc()) return true;
  if (process.env[childMarker] === '1') {
    throw new Error('global.gc is still missing in a child started with --expose-gc');
  }
  const args = ['--expose-gc', ...process.execArgv, ...process.argv.slice(1)];
  const child = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    env: { ...process.env, [childMarker]: '1' },
  });
  if (child.error) throw child.error;
  process.exitCode = child.status ?? (child.signal ? 128 : 1);
  return false;
}

/**
 * A full-GC function: global.gc when exposed, else one obtained by turning
 * on --expose-gc at run time (V8 then installs gc in new contexts).
 */
export function forcedGc(): () => void {
  const gc = exposedGc();
  if (gc) return gc;
  try {
    setFlagsFromString('--expose-gc');
    const fromContext = runInNewContext('gc') as unknown;
    if (typeof fromContext === 'function') return fromContext as () => void;
  } catch {
    // Fall through to the error below.
  }
  throw new Error('measureMemory needs a forced GC: run node with --expose-gc (or call ensureExposedGc() first)');
}

function fullGc(gc: () => void): void {
  // Twice: the first pass may only queue finalisers / weak callbacks.
  gc();
  gc();
}

export interface MeasureMemoryOptions {
  /** Objects kept alive per case (default 1000). */
  count?: number;
  /** Measurements per case; the per-field median is reported (default 3). */
  repeats?: number;
}

/** One measurement: growth per object while `count` objects are alive. */
async function perObjectOnce(memCase: MemCase, count: number, gc: () => void): Promise<MemResult['perObject']> {
  const kept: unknown[] = new Array<unknown>(count).fill(null); // backing store allocated before measuring
  fullGc(gc);
  const before = process.memoryUsage();
  for (let i = 0; i < count; i++) {
    const made = memCase.create();
    kept[i] = made instanceof Promise ? await made : made;
  }
  fullGc(gc);
  const after = process.memoryUsage();
  if (kept.length !== count) throw new Error('objects were released before measuring');
  const heapUsed = (after.heapUsed - before.heapUsed) / count;
  const external = (after.external - before.external) / count;
  const arrayBuffers = ((after.arrayBuffers ?? 0) - (before.arrayBuffers ?? 0)) / count;
  // arrayBuffers is part of external, so the total is heap + external.
  return { heapUsed, external, arrayBuffers, total: heapUsed + external };
}

export async function measureMemory(cases: MemCase[], options: MeasureMemoryOptions = {}): Promise<MemResult[]> {
  const count = options.count ?? 1000;
  const repeats = options.repeats ?? 3;
  if (!(Number.isInteger(count) && count >= 1)) throw new RangeError(`count must be a positive integer, got ${count}`);
  if (!(Number.isInteger(repeats) && repeats >= 1))
    throw new RangeError(`repeats must be a positive integer, got ${repeats}`);
  const gc = forcedGc();
  const results: MemResult[] = [];
  for (const memCase of cases) {
    const result: MemResult = {
      id: memCase.id,
      layer: memCase.layer,
      params: { ...memCase.params },
      count,
      perObject: { heapUsed: 0, external: 0, arrayBuffers: 0, total: 0 },
      status: 'ok',
    };
    try {
      // One object first, so lazily built shared tables are not charged to the N.
      await memCase.create();
      const rounds: MemResult['perObject'][] = [];
      for (let r = 0; r < repeats; r++) rounds.push(await perObjectOnce(memCase, count, gc));
      const pick = (field: keyof MemResult['perObject']) => median(rounds.map((round) => round[field]));
      const heapUsed = pick('heapUsed');
      const external = pick('external');
      result.perObject = { heapUsed, external, arrayBuffers: pick('arrayBuffers'), total: heapUsed + external };
    } catch (error) {
      result.status = 'failed';
      result.error = toCaseError(error);
    }
    results.push(result);
  }
  return results;
}
