// The `layerbench` and `layerbench-report` command lines the documentation
// shows, found in the Markdown files so a test can check that each one still
// parses (docs must not drift from the argument parsers). Shell code blocks
// (sh, bash, shell, console) are commands line by line; other blocks only
// where a line starts with `$ `; inline code spans such as
// `layerbench run esptest [--compat]` are synopses with placeholders.
import { spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export type DocumentedTool = 'layerbench' | 'layerbench-report';

export interface DocumentedCommand {
  /** Path relative to the repository root, and 1-based line. */
  file: string;
  line: number;
  tool: DocumentedTool;
  /** How the command is started: `npx layerbench`, `node apps/cli/dist/main.js`, or a bare `layerbench` (command not found in a fresh clone). */
  form: 'npx' | 'node' | 'bare';
  /** A command in a code block (runnable as written) or a synopsis in an inline code span. */
  where: 'block' | 'span';
  args: string[];
  text: string;
}

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The Markdown files users read: the root README, and the .md files at the top of each app and package, and vectors/. */
export function documentationFiles(root = repoRoot): string[] {
  const files = [join(root, 'README.md')];
  for (const group of ['apps', 'packages']) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const pkg = join(dir, name);
      if (!existsSync(join(pkg, 'package.json'))) continue;
      for (const file of readdirSync(pkg).sort())
        if (file.endsWith('.md') && file !== 'CHANGELOG.md') files.push(join(pkg, file));
    }
  }
  files.push(join(root, 'vectors', 'README.md'));
  return files.filter((file) => existsSync(file));
}

type Token = { word: string } | { op: string };

/**
 * Splits a shell line into words and operators the way sh would for the
 * subset docs use: quotes, backslashes, comments, `&&`/`||`/`;`/`|`/`&`, and
 * redirections (dropped with their target). `$VAR` stays literal.
 */
export function shellTokens(line: string): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  let skipNextWord = false;
  const endWord = () => {
    if (word === undefined) return;
    if (skipNextWord) skipNextWord = false;
    else tokens.push({ word });
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t') endWord();
    else if (ch === '#' && word === undefined) break;
    else if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      const end = close === -1 ? line.length : close;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      let text = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        text += line[j];
      }
      word = (word ?? '') + text;
      i = j;
    } else if (ch === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i++;
    } else if (ch === '>' || ch === '<') {
      if (word !== undefined && /^\d+$/.test(word)) word = undefined; // the fd of `2>`
      endWord();
      while (line[i + 1] === '>' || line[i + 1] === '&') i++;
      if (/\d/.test(line[i + 1] ?? '') && line[i] === '&') {
        i++; // `2>&1`: no target word
      } else {
        skipNextWord = true;
      }
    } else if ('&|;()'.includes(ch)) {
      endWord();
      const two = line.slice(i, i + 2);
      if (two === '&&' || two === '||') {
        tokens.push({ op: two });
        i++;
      } else tokens.push({ op: ch });
    } else word = (word ?? '') + ch;
  }
  endWord();
  return tokens;
}

const ENTRY_POINTS: { words: string[]; tool: DocumentedTool; form: DocumentedCommand['form'] }[] = [
  { words: ['npx', 'layerbench'], tool: 'layerbench', form: 'npx' },
  { words: ['npx', 'layerbench-report'], tool: 'layerbench-report', form: 'npx' },
  { words: ['node', 'apps/cli/dist/main.js'], tool: 'layerbench', form: 'node' },
  { words: ['node', 'apps/ci-report/dist/main.js'], tool: 'layerbench-report', form: 'node' },
  { words: ['layerbench'], tool: 'layerbench', form: 'bare' },
  { words: ['layerbench-report'], tool: 'layerbench-report', form: 'bare' },
];

function commandOf(words: string[]): Pick<DocumentedCommand, 'tool' | 'form' | 'args'> | undefined {
  let rest = words;
  while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!)) rest = rest.slice(1);
  if (rest[0] === 'git' && rest[1] === 'bisect' && rest[2] === 'run') return commandOf(rest.slice(3));
  for (const entry of ENTRY_POINTS) {
    if (entry.words.every((w, i) => rest[i] === w))
      return { tool: entry.tool, form: entry.form, args: rest.slice(entry.words.length) };
  }
  return undefined;
}

/** The layerbench commands of one shell line (several when joined by `&&`, `|`, ...). */
export function commandsInShellLine(line: string): Pick<DocumentedCommand, 'tool' | 'form' | 'args'>[] {
  const found: Pick<DocumentedCommand, 'tool' | 'form' | 'args'>[] = [];
  let words: string[] = [];
  const flush = () => {
    const command = commandOf(words);
    if (command !== undefined) found.push(command);
    words = [];
  };
  for (const token of shellTokens(line)) {
    if ('op' in token) flush();
    else words.push(token.word);
  }
  flush();
  return found;
}

/**
 * A synopsis in prose (`layerbench find --good <ref> [--bad <ref>] --filter <one case>`)
 * as arguments: each <placeholder> is one value, [optional] parts are kept,
 * `a|b` alternatives take the first, and a trailing `...` (more options) is dropped.
 */
function synopsisArgs(text: string): string[] {
  const placeholders = text.replace(/<[^>]+>/g, 'PLACEHOLDER');
  const words: string[] = [];
  for (const token of shellTokens(placeholders.replace(/\|/g, '\u0000'))) {
    if ('op' in token) continue;
    let word = token.word.replace(/[[\]]/g, '');
    if (word.includes('\u0000')) word = word.split('\u0000')[0]!;
    if (word === '' || word === '...' || word === '…') continue;
    words.push(word);
  }
  return words;
}

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

/** Every layerbench / layerbench-report command line in one Markdown text. */
export function commandsInMarkdown(text: string, file: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  const lines = text.split('\n');
  let fence: { marker: string; shell: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (fenceMatch) {
      if (fence === undefined) {
        fence = { marker: fenceMatch[1]!, shell: SHELL_LANGUAGES.has(fenceMatch[2]!.toLowerCase()) };
        continue;
      }
      if (line.trim().startsWith(fence.marker)) {
        fence = undefined;
        continue;
      }
    }
    if (fence !== undefined) {
      const prompt = /^\s*\$ /.test(line);
      if (!fence.shell && !prompt) continue;
      // A trailing backslash continues the command on the next line.
      let joined = line.replace(/^\s*\$ /, '');
      const first = i;
      while (/\\\s*$/.test(joined) && i + 1 < lines.length) joined = joined.replace(/\\\s*$/, ' ') + lines[++i];
      for (const command of commandsInShellLine(joined)) {
        found.push({ file, line: first + 1, where: 'block', text: joined.trim(), ...command });
      }
      continue;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) {
      const code = span[1]!.trim();
      const entry = ENTRY_POINTS.find((e) => code === e.words.join(' ') || code.startsWith(`${e.words.join(' ')} `));
      if (entry === undefined) continue;
      const args = synopsisArgs(code.slice(entry.words.join(' ').length));
      // A bare name (`layerbench-report`) or a generic form (`layerbench <command> --help`) is not a command line.
      const command = args[0] === 'help' ? args[1] : args[0];
      if (args.length === 0 || (entry.tool === 'layerbench' && command === 'PLACEHOLDER')) continue;
      found.push({ file, line: i + 1, where: 'span', tool: entry.tool, form: entry.form, args, text: code });
    }
  }
  return found;
}

/** Every documented command line of the repository's documentation. */
export function documentedCommands(root = repoRoot): DocumentedCommand[] {
  return documentationFiles(root).flatMap((file) =>
    commandsInMarkdown(readFileSync(file, 'utf8'), relative(root, file)),
  );
}

/**
 * `file:line: text: message` for every command `parse` rejects (it throws),
 * except those `tolerated(command, message)` lets pass.
 */
export function rejectedCommands(
  commands: readonly DocumentedCommand[],
  parse: (args: readonly string[]) => unknown,
  tolerated: (command: DocumentedCommand, message: string) => boolean = () => false,
): string[] {
  const rejected: string[] = [];
  for (const command of commands) {
    try {
      parse(command.args);
    } catch (error) {
      const message = (error as Error).message;
      if (!tolerated(command, message)) rejected.push(`${command.file}:${command.line}: ${command.text}: ${message}`);
    }
  }
  return rejected;
}

/** `file:line: text` for every command in a code block written as a bare `layerbench` (command not found in a fresh clone). */
export function bareCommandsInBlocks(commands: readonly DocumentedCommand[]): string[] {
  return commands.filter((c) => c.where === 'block' && c.form === 'bare').map((c) => `${c.file}:${c.line}: ${c.text}`);
}

/** Runs a committed bin (an ES module) from a copy beside no dist/: what a user gets before the build. */
export function runBinWithoutBuild(bin: string, args: readonly string[]): SpawnSyncReturns<string> {
  const copy = mkdtempSync(join(tmpdir(), 'unbuilt-bin-'));
  try {
    cpSync(bin, join(copy, 'bin', basename(bin)));
    writeFileSync(join(copy, 'package.json'), '{ "type": "module" }\n');
    return spawnSync(process.execPath, [join(copy, 'bin', basename(bin)), ...args], { encoding: 'utf8' });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
