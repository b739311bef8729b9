// The documentation cannot drift from the report's command line: every
// `layerbench-report` command line in the READMEs and in --help is accepted
// by its argument parser and, in a code block, is written so that it runs in
// a fresh clone (`npx layerbench-report`); the committed bin runs the build
// or says it is missing.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  bareCommandsInBlocks,
  commandsInMarkdown,
  documentedCommands,
  rejectedCommands,
  runBinWithoutBuild,
} from '#vectors';
import { parseReportArgs, USAGE } from '../src/report-cli.ts';

const documented = documentedCommands().filter((command) => command.tool === 'layerbench-report');

describe('documented layerbench-report command lines', () => {
  it('are found in the READMEs and in --help', () => {
    expect(documented.some((command) => command.file === 'apps/ci-report/README.md' && command.where === 'block')).toBe(
      true,
    );
    expect(commandsInMarkdown(['```sh', USAGE, '```'].join('\n'), '--help').length).toBeGreaterThanOrEqual(2);
  });

  it('are accepted by the argument parser, as are the examples of --help', () => {
    const examples = commandsInMarkdown(['```sh', USAGE, '```'].join('\n'), 'layerbench-report --help');
    expect(rejectedCommands([...documented, ...examples], parseReportArgs)).toEqual([]);
  });

  it('run as written in a fresh clone (npx layerbench-report, not a bare layerbench-report)', () => {
    expect(bareCommandsInBlocks(documented)).toEqual([]);
  });
});

describe('the committed bin (apps/ci-report/bin/layerbench-report.js)', () => {
  const bin = fileURLToPath(new URL('../bin/layerbench-report.js', import.meta.url));

  it('is executable, so npm can link it before anything is built', () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });

  it('runs the built program', () => {
    const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: layerbench-report /);
  });

  it('says how to build when dist/ is missing, in one line, exit 2', () => {
    const result = runBinWithoutBuild(bin, ['x.json']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^layerbench-report: not built yet .*run `npm run build` at the repository root/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
