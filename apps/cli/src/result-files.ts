// Reading and writing result files for the commands: paths are relative to
// the command's working directory, and a file that cannot be read or is not a
// valid result becomes one InputFileError line (exit 2) naming the file.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ResultFileError, readRunResult } from '@layerbench/bench-runner/results';
import type { RunResult } from '@layerbench/bench-runner';
import type { CommandContext } from './commands/types.js';

/** A file the user named cannot be used. main() prints the message and exits 2. */
export class InputFileError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'InputFileError';
  }
}

function systemErrorMessage(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a result file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return undefined;
}

/** Runs a result-file reader, turning its ResultFileError or a missing file into InputFileError. */
export function readInputFile<T>(ctx: CommandContext, path: string, read: (absolute: string) => T): T {
  const absolute = resolve(ctx.cwd, path);
  try {
    return read(absolute);
  } catch (error) {
    if (error instanceof ResultFileError) throw new InputFileError(error.message);
    const system = systemErrorMessage(error);
    if (system !== undefined) throw new InputFileError(`${path}: ${system}`);
    throw error;
  }
}

export function readRunInput(ctx: CommandContext, path: string): RunResult {
  return readInputFile(ctx, path, readRunResult);
}

/** The absolute path for an output file, after checking that its folder exists (before hours of measuring). */
export function outputPath(ctx: CommandContext, path: string): string {
  const absolute = resolve(ctx.cwd, path);
  let isDirectory = false;
  try {
    isDirectory = statSync(dirname(absolute)).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new InputFileError(`cannot write ${path}: folder ${dirname(absolute)} does not exist`);
  return absolute;
}
