// Whether a layer's dist/ was built from the sources its folder holds now
// (scripts/build-stamp.mjs writes the stamp at the end of each layer's build).
// Measuring a dist/ built from other sources would measure the old code under
// the new commit's name: after an edit or a `git checkout` without `npm run
// build`, bisect said "no change" and check passed the regression.
import { describeStale, staleSources } from '../../../scripts/build-stamp.mjs';

/**
 * Why the dist/ of the layer package in `packageDir` is not the build of its
 * src/ (the files changed since the build, and what to run), or undefined
 * when it is, or when no stamp says (built without one: a tarball, an older
 * commit's build).
 */
export function staleBuildProblem(packageDir: string, rebuild = 'run `npm run build`'): string | undefined {
  const stale = staleSources(packageDir);
  if (stale === undefined) return undefined;
  return `dist/ was built from other sources than src/ holds now (changed since the build: ${describeStale(stale)}); ${rebuild}`;
}
