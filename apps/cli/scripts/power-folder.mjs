// The processes a power.mjs folder keeps (--processes k: each process's run
// as <side>-<i>.p<k>.json, side base or slow), for the scripts that judge
// them one process a side (one-process-aa.mjs, second-look.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each process file of the folder: its name, side, run (`<side>-<i>`), index k in its run, and result. */
export function powerFolderProcesses(dir) {
  return readdirSync(dir)
    .map((name) => /^(base|slow)-(\d+)\.p(\d+)\.json$/.exec(name))
    .filter((m) => m !== null)
    .map((m) => ({
      name: m[0],
      side: m[1],
      run: `${m[1]}-${m[2]}`,
      index: Number(m[3]),
      result: JSON.parse(readFileSync(join(dir, m[0]), 'utf8')),
    }));
}
