// Removes the package's dist/ before tsc -b rebuilds it (run from a package
// folder by its build script). tsc never deletes the output of a source that
// was moved or removed, and npm pack ships whatever dist/ holds: a stale file
// (and its source map, pointing to a source that no longer exists) would end
// up in the tarball.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
