// Runs the BUILT layerbench CLI (apps/cli/dist/main.js) as a child process,
// the way a user does, and collects its exit code and output; and Capture,
// the stream that collects output when main() runs in-process.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** A stream for main() in-process: collects what is written; not a terminal unless isTTY is set. */
export class Capture extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** For tests that measure: a shared 2-core machine under load can be several times slower than idle. */
export const heavyTestTimeout = 240_000;

export const cliMain = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnedCli {
  child: ChildProcess;
  done: Promise<CliRun>;
  /** What it has written so far. */
  output(): { stdout: string; stderr: string };
}

/** A colour-neutral environment: the test decides whether NO_COLOR is set. */
function childEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.FORCE_COLOR;
  if (!('NO_COLOR' in extra)) delete env.NO_COLOR;
  return env;
}

export function spawnCli(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnedCli {
  if (!existsSync(cliMain)) throw new Error(`${cliMain} is missing: build the CLI first (cd apps/cli && npx tsc -b)`);
  const child = spawn(process.execPath, [cliMain, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: childEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, output: () => ({ stdout, stderr }) };
}

/**
 * Ctrl-C for a spawned CLI: once `ready()` holds (or the CLI has ended),
 * after `settleMs` more, sends SIGINT; resolves with how the CLI ended and
 * how many ms after the signal.
 */
export async function interruptWhen(
  spawned: SpawnedCli,
  ready: () => boolean,
  settleMs = 0,
): Promise<{ result: CliRun; afterMs: number }> {
  while (!ready()) {
    if (spawned.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  const interrupted = Date.now();
  spawned.child.kill('SIGINT');
  const result = await spawned.done;
  return { result, afterMs: Date.now() - interrupted };
}

export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return spawnCli(args, options).done;
}

/** The non-empty lines of a text. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
