#!/usr/bin/env node
// The `layerbench` command as npm links it. This file is committed, not built,
// so `npm ci` can link the command before anything is built (npm links a bin
// only if its file exists); it runs the built CLI in ../dist, or says how to
// build it when that is missing.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (existsSync(entry)) {
  const { runAsProgram } = await import(entry.href);
  runAsProgram();
} else {
  process.stderr.write(
    'layerbench: the CLI is not built yet (apps/cli/dist/main.js is missing): run `npm run build` at the repository root, then try again\n',
  );
  process.exitCode = 2;
}
