// The documentation cannot drift from the CLI: every `layerbench` command line
// in the READMEs and BISECT.md, and every example in the commands' --help,
// is accepted by the argument parser; every command in a code block is
// written so that it runs in a fresh clone (`npx layerbench`, or `node
// apps/cli/dist/main.js`), never as a bare `layerbench` (command not found).
// And the committed bin npm links: runs the build, or says it is missing.
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
import type { DocumentedCommand } from '#vectors';
import { commands, parseInvocation } from '../src/main.js';

const documented = documentedCommands().filter((command) => command.tool === 'layerbench');

function parseProblem(args: readonly string[]): string | undefined {
  try {
    parseInvocation(args);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Prose names a command with only some of its arguments (`layerbench compare`,
 * "`layerbench run --out` files"): a missing positional, or a value missing
 * after the last option, is fine there; a wrong option or value is not.
 */
function incompleteSynopsis(command: DocumentedCommand, problem: string): boolean {
  if (command.where !== 'span') return false;
  // A <placeholder> given as a value (`--time <t>`) is a synopsis too.
  if (problem.startsWith('missing argument') || problem.includes("'PLACEHOLDER'")) return true;
  const last = command.args[command.args.length - 1];
  return last !== undefined && problem.startsWith(`${last} needs a value`);
}

describe('documented command lines', () => {
  it('finds the command lines of the READMEs and BISECT.md', () => {
    const files = new Set(documented.map((command) => command.file));
    for (const file of ['README.md', 'apps/cli/README.md', 'apps/cli/BISECT.md']) expect(files).toContain(file);
    expect(documented.filter((command) => command.where === 'block').length).toBeGreaterThan(10);
  });

  it('every one is accepted by the argument parser', () => {
    expect(rejectedCommands(documented, parseInvocation, incompleteSynopsis)).toEqual([]);
  });

  it('every command in a code block runs as written in a fresh clone (npx layerbench, not a bare layerbench)', () => {
    expect(bareCommandsInBlocks(documented)).toEqual([]);
  });

  it("every example in the commands' --help is accepted by the argument parser", () => {
    // The whole help as shell lines: only those that start a layerbench command count.
    const examples = commands.flatMap((command) =>
      commandsInMarkdown(['```sh', command.usage, '```'].join('\n'), `${command.name} --help`),
    );
    expect(examples.length).toBeGreaterThanOrEqual(commands.length);
    expect(rejectedCommands(examples, parseInvocation)).toEqual([]);
  });

  it('a wrong option in a documented line would be caught', () => {
    const [found] = commandsInMarkdown(
      '```sh\nLAYERBENCH_X=1 npx layerbench run sha1 --tiem 1 > out.txt 2>&1 # note\n```',
      'probe.md',
    );
    expect(found).toMatchObject({ tool: 'layerbench', form: 'npx', args: ['run', 'sha1', '--tiem', '1'] });
    expect(parseProblem(found!.args)).toBe("unknown option '--tiem'");
    const [span] = commandsInMarkdown(
      'see `layerbench find --good <ref> [--bad <ref>] --format table|json`',
      'probe.md',
    );
    expect(span!.args).toEqual(['find', '--good', 'PLACEHOLDER', '--bad', 'PLACEHOLDER', '--format', 'table']);
  });
});

describe('the committed bin (apps/cli/bin/layerbench.js)', () => {
  const bin = fileURLToPath(new URL('../bin/layerbench.js', import.meta.url));

  it('is executable, so npm can link it before anything is built', () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });

  it('runs the built CLI', () => {
    const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^layerbench: /);
  });

  it('says how to build when dist/ is missing, in one line, exit 2', () => {
    const result = runBinWithoutBuild(bin, ['--help']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^layerbench: the CLI is not built yet .*run `npm run build` at the repository root/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
