// `layerbench check --against <good> --bad <spec>`: the git bisect step judged
// between the two ends of the range. git bisect asks of each commit one
// question — is it like the good end or like the bad end? — and the bad end
// says what "bad" looks like: the cases that regressed from <good> to <bad>
// (the symptom) and by how much. Each step then judges only those cases, each
// against the midpoint of its own change (the geometric mean of 1 and the
// good-to-bad ratio): bad when this checkout's interval lies beyond the
// midpoint, good when it lies below it. A harmless commit in the regressed
// layer, which moves a fast case by a few percent in its own copy of the code,
// is then good instead of "cannot tell" (a x1.3 regression's midpoint is
// x1.14; the threshold alone asks for x1.03), and a case that did not regress
// over the range (a noisy one-block CBC case, say) is not judged at all.
//
// The ends are measured once, side by side in the same worker processes as
// every step (bisect --paired without the swaps), and kept in the repository's
// .layerbench-cache under the code of both ends and the options, so the steps
// of one `git bisect run` share them. A case whose code at this checkout is
// that of one end (its layer, the layers below it, the engine and the runtime,
// by content hash) is that end's without measuring.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentHash } from '@layerbench/bench-runner';
import {
  readBisectResult,
  writeResultFile,
  type BisectCase,
  type BisectResult,
} from '@layerbench/bench-runner/results';
import { checkExit as exit, controlMoved, type CheckVerdict } from './check-exit.js';

/** One case that regressed from the good end to the bad end, and the midpoint a step is judged against. */
export interface Symptom {
  id: string;
  /** bad / good over the range. */
  ratio: number;
  ci: [number, number];
  /** sqrt(ratio): halfway between the two ends in log terms. */
  midpoint: number;
}

/**
 * The cases that got slower from the good end to the bad end (the result of
 * measuring the two ends, with its longer look): regressed, or slower beyond
 * the threshold with an interval that excludes no change (measured: a +10%
 * regression read x1.091 [1.030, 1.152] after the longer look, inconclusive
 * by 0.0003, and git bisect was stopped with nothing to find). Not a case
 * whose A/A control moved.
 */
export function symptomsOf(ends: BisectResult): Symptom[] {
  const slower = (c: BisectCase): boolean =>
    c.total !== undefined &&
    (c.total.verdict === 'regressed' || (c.total.ci[0] > 1 && c.total.ratio > 1 + ends.options.threshold));
  return ends.cases
    .filter((c) => c.status === 'ok' && slower(c) && !controlMoved(c))
    .map((c) => ({ id: c.id, ratio: c.total!.ratio, ci: c.total!.ci, midpoint: Math.sqrt(c.total!.ratio) }));
}

/** A case measured at this step whose figures can be read: compared, same output digest, A/A control not moved. */
function measuredInFull(
  c: BisectCase | 'good end' | 'bad end' | undefined,
): c is BisectCase & { total: NonNullable<BisectCase['total']> } {
  return (
    c !== undefined &&
    typeof c !== 'string' &&
    c.status === 'ok' &&
    c.total !== undefined &&
    !c.digestChanged &&
    !controlMoved(c)
  );
}

/** A step's reading of one symptom case. */
export type EndLike = 'good' | 'bad' | 'open';

/**
 * Which end a measured case (good end / this checkout) is like. Its interval
 * wholly beyond the midpoint: bad; wholly below it: good. Across the
 * midpoint, the two ends themselves decide, the bad end by the low end of
 * its own interval (the least it may be): an interval that excludes the good
 * end (1) and reaches the bad end is bad, one that stays below the bad end
 * and reaches 1 is good (measured: the regression commit at x1.132 [1.071,
 * 1.195] against a midpoint of x1.074 and a bad end of x1.153 [1.053,
 * 1.256]); else open (a partial change, or too wide to tell). A good
 * commit is called bad only when its interval excludes 1 (at most alpha / 2).
 * A case whose A/A control moved is open (check-exit.ts, controlMoved).
 */
export function endLike(c: BisectCase | undefined, symptom: Pick<Symptom, 'ci' | 'midpoint'>): EndLike {
  if (!measuredInFull(c)) return 'open';
  const [low, high] = c.total.ci;
  const badEnd = symptom.ci[0];
  if (low > symptom.midpoint) return 'bad';
  if (high <= symptom.midpoint) return 'good';
  if (low > 1 && high >= badEnd) return 'bad';
  if (high < badEnd && low <= 1) return 'good';
  return 'open';
}

/** The reading of each symptom case: by code identity with an end, else by its measurement. */
export interface StepReading {
  symptom: Symptom;
  like: EndLike;
  /** 'good end' / 'bad end' when this checkout runs that end's code for the case; else the measured case. */
  by: 'good end' | 'bad end' | BisectCase | undefined;
}

/**
 * Whether an open reading leans to the good end where its own layer has
 * already answered: measured in full (no moved A/A control, no changed
 * digest), its ratio below its midpoint, and a case of the same layer
 * measured at this step reads good outright. Between the ends every symptom
 * case changes at the one commit git bisect looks for, so a layer's clear
 * reading stands for its noisy cases unless they point the other way.
 * Measured (2026-12-04 17:21 UTC, +6% to +47% on cmac's CMAC cases): at a
 * harmless cmac commit three cmac cases read good (x0.987 [0.928, 1.051]
 * against a midpoint of x1.150) and `oneshot/table` x1.007 [0.890, 1.131]
 * against x1.084 (its A/A control as wide) left the step open, and git
 * bisect named that commit and the regression as the two that could be first.
 */
function leansGood(r: StepReading, goodLayers: ReadonlySet<string>): boolean {
  return measuredInFull(r.by) && r.by.total.ratio < r.symptom.midpoint && goodLayers.has(r.by.layer);
}

/**
 * The answer for a step from its readings: bad if any symptom case is bad;
 * good if all are good, or (a complete step) if the open ones all lean good
 * beside a case of their layer that reads good (leansGood); else cannot tell.
 */
export function endsVerdict(readings: readonly StepReading[], complete: boolean): CheckVerdict {
  const describe = (r: StepReading): string => {
    const mid = `midpoint x${r.symptom.midpoint.toFixed(3)}`;
    if (r.by === 'good end' || r.by === 'bad end') return `${r.symptom.id} (the ${r.by}'s code)`;
    if (r.by === undefined || r.by.total === undefined) return `${r.symptom.id} (not measured; ${mid})`;
    const t = r.by.total;
    return `${r.symptom.id} x${t.ratio.toFixed(3)} [${t.ci[0].toFixed(3)}, ${t.ci[1].toFixed(3)}] (${mid})`;
  };
  const bad = readings.filter((r) => r.like === 'bad');
  if (bad.length > 0) return { code: exit.regressed, reason: `like the bad end: ${bad.map(describe).join(', ')}` };
  const open = readings.filter((r) => r.like === 'open');
  const good = readings.filter((r) => r.like === 'good');
  const goodLayers = new Set(good.flatMap((r) => (measuredInFull(r.by) ? [r.by.layer] : [])));
  if (open.length > 0 && !(complete && open.every((r) => leansGood(r, goodLayers)))) {
    return {
      code: exit.cannotTell,
      reason: `${complete ? 'between the ends' : 'incomplete'}: ${open.map(describe).join(', ')}`,
    };
  }
  const leaning =
    open.length === 0
      ? ''
      : `; leaning good beside a case of their layer that reads good: ${open.map(describe).join(', ')}`;
  return { code: exit.good, reason: `like the good end: ${good.map(describe).join(', ')}${leaning}` };
}

/** What the two ends' measurement depends on: their code, the CLI that defines and runs the cases, and the options. */
export interface EndsKey {
  good: Record<string, string>;
  bad: Record<string, string>;
  /** Content hash of this CLI's built code (its suites define the cases on both sides). */
  cli: string;
  suites: string[];
  filter: string | undefined;
  time: number;
  processes: number;
  threshold: number;
  alpha: number;
}

/** The cache file of the ends' measurement under `cacheDir`. */
export function endsCacheFile(cacheDir: string, key: EndsKey): string {
  const digest = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32);
  return join(cacheDir, 'check-ends', `${digest}.json`);
}

/** The cached measurement of the ends, or undefined (none, or unreadable: measured again). */
export function readCachedEnds(file: string): { result?: BisectResult; problem?: string } {
  if (!existsSync(file)) return {};
  try {
    return { result: readBisectResult(file) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** Keeps a complete measurement of the ends (atomically: a step interrupted mid-write leaves no half file). */
export function cacheEnds(file: string, result: BisectResult): void {
  if (result.complete) writeResultFile(file, result);
}

/** The content hash of the CLI's own built code (the folder above this module's). */
export function cliCodeHash(): string {
  return contentHash(join(dirname(fileURLToPath(import.meta.url)), '..'));
}

/** Refs that move as git bisect checks commits out: the bad end must stay put over the whole bisection. */
export function movingRef(ref: string): boolean {
  return /^(HEAD|@|BISECT_HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD)([~^@]|$)/.test(ref);
}
