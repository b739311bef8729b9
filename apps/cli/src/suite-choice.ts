// Which suites bisect, check --against and find measure when no suite is
// named. The default is sha1 and cmac (59 cases, a few minutes), to which the
// own suites of every code layer that differs are added, and, with --filter,
// every layer suite holding a case the filter matches. Without them a change
// to a layer the default suites never run (esp) left every selected case with
// identical code on both sides: "nothing measured, exit 0" over a real
// regression, and in `git bisect run` every step "good"; and a change to code
// they run only in part (aes-core's CBC, sha1-dispatch's HMAC) was measured
// only in cases that do not run it. Cases whose code is identical on both
// sides are still not measured, so an added suite costs only the cases the
// change can reach.
import type { LayerName } from './bisect/side-spec.js';
import { importWorkspaceLayers } from './layers.js';
import { buildCases, selectCases, suiteByName } from './suites/index.js';

export const DEFAULT_BISECT_SUITES = ['sha1', 'cmac'];

/**
 * The suites whose cases are of each code layer (`layerbench list --suites`):
 * a change of the layer shows first in them. Checked against the suites'
 * cases in suite-choice.test.ts.
 */
export const LAYER_OWN_SUITES: Readonly<Record<string, readonly string[]>> = {
  'aes-core': ['aes'],
  cmac: ['cmac'],
  'sha1-dispatch': ['sha1', 'hmac'],
  esp: ['esp'],
};

/** Every layer's own suites, once each: where --filter's cases are looked for. */
const OWN_SUITES = [...new Set(Object.values(LAYER_OWN_SUITES).flat())];

/** The default as --suite's help says it. */
export const SUITES_DEFAULT_HELP = `${DEFAULT_BISECT_SUITES.join(', ')}, the own suites of each layer that differs (${OWN_SUITES.filter((suite) => !DEFAULT_BISECT_SUITES.includes(suite)).join(', ')}) and each layer suite holding a case --filter matches`;

/** A suite added to the default, and why. */
export interface AddedSuite {
  suite: string;
  why: string;
}

/** Adds `suite` unless the default or `added` has it already. */
function addSuite(added: AddedSuite[], suite: string, why: string): void {
  if (!DEFAULT_BISECT_SUITES.includes(suite) && !added.some((a) => a.suite === suite)) added.push({ suite, why });
}

/** The own suites of the code layers in `differing` that the default lacks (the engine and runtime have none). */
export function suitesForChange(differing: readonly LayerName[]): AddedSuite[] {
  const added: AddedSuite[] = [];
  for (const layer of differing) {
    for (const suite of LAYER_OWN_SUITES[layer] ?? []) addSuite(added, suite, `${layer} differs`);
  }
  return added;
}

/**
 * With --suite named: a line for each differing layer whose own suites are
 * not among them (its change then shows only in named cases that run it,
 * and none may), for stderr; empty when every such suite is named.
 */
export function unnamedOwnSuites(differing: readonly LayerName[], named: readonly string[]): string[] {
  const lines: string[] = [];
  for (const layer of differing) {
    const own = (LAYER_OWN_SUITES[layer] ?? []).filter((suite) => !named.includes(suite));
    if (own.length === 0) continue;
    lines.push(
      `${layer} differs, and its own suite${own.length > 1 ? 's' : ''} ${own.join(', ')} ${own.length > 1 ? 'are' : 'is'} not among --suite ${named.join(', ')}: its change shows only in the named cases that run ${layer} (leave --suite out to measure them all)`,
    );
  }
  return lines;
}

/**
 * The layer suites (this checkout's) holding a case whose id matches
 * `filter`; none when this checkout's layers cannot be loaded (the filter
 * then meets the usual "matches no case" answer).
 */
export async function suitesHolding(filter: string): Promise<string[]> {
  let layers: Awaited<ReturnType<typeof importWorkspaceLayers>>;
  try {
    layers = await importWorkspaceLayers();
  } catch {
    return [];
  }
  return OWN_SUITES.filter((name) => {
    const built = buildCases([suiteByName(name)], layers, {});
    return selectCases(built.cases, { filter }).length > 0;
  });
}

/**
 * The suites to measure when none is named: the default, the own suites of
 * the layers that differ, and with a filter the suites holding its cases.
 * What was added to the default, and why, is said (`say`).
 */
export async function defaultSuites(
  differing: readonly LayerName[],
  filter: string | undefined,
  say: (message: string) => void,
): Promise<string[]> {
  const added = suitesForChange(differing);
  if (filter !== undefined) {
    for (const suite of await suitesHolding(filter)) addSuite(added, suite, 'it holds cases --filter matches');
  }
  const suites = [...DEFAULT_BISECT_SUITES, ...added.map((a) => a.suite)];
  if (added.length > 0) {
    const why = added.map((a) => `${a.suite} (${a.why})`).join(', ');
    say(`measuring the suites ${suites.join(', ')}: added ${why}; name --suite to choose`);
  }
  return suites;
}

/**
 * The suites a command measures: those named with --suite (each differing
 * layer whose own suite is not among them is said), or else defaultSuites.
 */
export async function chooseSuites(
  named: readonly string[],
  differing: readonly LayerName[],
  filter: string | undefined,
  say: (message: string) => void,
): Promise<string[]> {
  if (named.length === 0) return defaultSuites(differing, filter, say);
  for (const line of unnamedOwnSuites(differing, named)) say(line);
  return [...named];
}
