// Writes the package's declarations again, with their doc comments (run from a
// package folder by its build script, after `tsc -b`).
//
// tsconfig.base.json sets removeComments, so the JavaScript in dist/ carries
// no comments: a commit that only edits comments builds byte-identical code,
// and the layer's content hash (bench-runner's contentHash, over the files
// that run) stays the same, so compare, check and bisect know that code did
// not change. tsc applies removeComments to the declarations too; this second
// pass emits only the declarations (and their maps), with comments, so users'
// editors still show the API's documentation.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const args = [
  tsc,
  '-p',
  'tsconfig.json',
  '--emitDeclarationOnly',
  '--removeComments',
  'false',
  '--composite',
  'false',
  '--incremental',
  'false',
];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
