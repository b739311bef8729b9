// Reading and writing result files for the commands: paths are relative to
// the command's working directory, and a file that cannot be read or is not a
// valid result becomes one InputFileError line (exit 2) naming the file.
import { resolve } from 'node:path';
import { checkOutputPath, OutputPathError, ResultFileError, readRunResult } from '@layerbench/bench-runner/results';
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

/**
 * The absolute path for an output file, checked before hours of measuring
 * (bench-runner's checkOutputPath: the folder exists and is writable, the
 * path is not a folder); a path that cannot be written is one line, exit 2.
 */
export function outputPath(ctx: CommandContext, path: string): string {
  try {
    return checkOutputPath(path, ctx.cwd);
  } catch (error) {
    if (error instanceof OutputPathError) throw new InputFileError(error.message);
    throw error;
  }
}
