// Removes the package's dist/ before tsc -b rebuilds it (run from a package
// folder by its build script). tsc never deletes the output of a source that
// was moved or removed, and npm pack ships whatever dist/ holds: a stale file
// (and its source map, pointing to a source that no longer exists) would end
// up in the tarball. The build stamp goes too (build-stamp.mjs): a build that
// fails half-way must not leave a stamp saying what dist/ was built from.
import { rmSync } from 'node:fs';
import { stampFile } from './build-stamp.mjs';

rmSync('dist', { recursive: true, force: true });
rmSync(stampFile, { force: true });
