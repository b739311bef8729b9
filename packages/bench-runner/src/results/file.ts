// Reading and writing result files. Writes are atomic (temp file in the same
// folder, then rename) so a crash or Ctrl-C never leaves half a file; reads
// validate against the zod schemas and fail with an error that names the file
// and what is wrong with it.
import {
  accessSync,
  constants,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { ZodType } from 'zod';
import { betweenRunCalibrationSchema, calibrationSchema, comparisonSchema, runResultSchema } from './schemas.js';
import type { BetweenRunCalibration, Calibration, Comparison, RunResult } from '../types.js';

export type ResultFileProblem =
  | 'unreadable'
  | 'empty'
  | 'truncated'
  | 'corrupt-json'
  | 'not-an-object'
  | 'wrong-kind'
  | 'unknown-schema-version'
  | 'schema-violation';

export class ResultFileError extends Error {
  override name = 'ResultFileError';
  constructor(
    readonly file: string,
    readonly problem: ResultFileProblem,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

/** The schema versions this build can read. */
export const supportedSchemaVersions: readonly number[] = [1];

/**
 * Serialises like JSON.stringify(data, null, 2) but keeps arrays of numbers
 * on one line: a result holds thousands of samples.
 */
export function stringifyResult(data: unknown): string {
  const text = JSON.stringify(data, null, 2);
  return text.replace(
    /\[\s+(-?[\d.eE+-]+(?:,\s+-?[\d.eE+-]+)*)\s+\]/g,
    (_match, body: string) => `[${body.replace(/,\s+/g, ',')}]`,
  );
}

let tempCounter = 0;

/** An output file that cannot be written where it was asked for. */
export class OutputPathError extends Error {
  override name = 'OutputPathError';
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`cannot write ${file}: ${detail}`);
  }
}

/**
 * Checks, before any measuring or rendering, that `file` can be written the
 * way writeTextFileAtomic writes it (a temp file in the same folder, then a
 * rename): its folder exists and is writable, and `file` is not a folder.
 * Returns the absolute path; throws OutputPathError with one line otherwise.
 */
export function checkOutputPath(file: string, cwd: string = process.cwd()): string {
  const absolute = path.resolve(cwd, file);
  const dir = path.dirname(absolute);
  let isFolder: boolean;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch {
    throw new OutputPathError(file, `folder ${dir} does not exist`);
  }
  if (!isFolder) throw new OutputPathError(file, `${dir} is not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new OutputPathError(file, `folder ${dir} is not writable`);
  }
  let target: ReturnType<typeof statSync>;
  try {
    target = statSync(absolute);
  } catch {
    return absolute; // not there yet: it will be created
  }
  if (target.isDirectory()) throw new OutputPathError(file, 'it is a folder; give a file name');
  return absolute;
}

/** Writes `text` to `file` atomically (temp file in the same folder, then rename), creating the folder if needed. */
export function writeTextFileAtomic(file: string, text: string): void {
  const dir = path.dirname(path.resolve(file));
  mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file was never created.
    }
    throw error;
  }
}

/** Writes `data` as JSON to `file` atomically, creating the folder if needed. */
export function writeResultFile(file: string, data: unknown): void {
  writeTextFileAtomic(file, `${stringifyResult(data)}\n`);
}

/**
 * True when `text` ends inside a string or an unclosed object/array: the
 * mark of a file cut off mid-write, as opposed to one that is malformed.
 */
function looksTruncated(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return inString || depth > 0;
}

function describePath(pathParts: readonly PropertyKey[]): string {
  if (pathParts.length === 0) return '(root)';
  return pathParts
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

/**
 * Reads and validates a result file of the given kind ('layerbench/run', ...);
 * `versions`: the schema versions of that kind this reader knows.
 */
export function readResultFile<T>(
  file: string,
  schema: ZodType<T>,
  kind: string,
  versions: readonly number[] = supportedSchemaVersions,
): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ResultFileError(file, 'unreadable', `cannot read result file: ${(error as Error).message}`);
  }
  if (text.trim() === '') throw new ResultFileError(file, 'empty', 'result file is empty');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    if (looksTruncated(text)) {
      throw new ResultFileError(
        file,
        'truncated',
        `result file is truncated (JSON ends early after ${text.length} bytes)`,
      );
    }
    throw new ResultFileError(file, 'corrupt-json', `result file is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ResultFileError(
      file,
      'not-an-object',
      `result file must hold a JSON object, got ${Array.isArray(data) ? 'an array' : typeof data}`,
    );
  }
  const record = data as Record<string, unknown>;
  if (record.kind !== kind) {
    throw new ResultFileError(
      file,
      'wrong-kind',
      `expected a ${kind} file, got kind ${JSON.stringify(record.kind ?? null)}`,
    );
  }
  if (typeof record.schemaVersion !== 'number' || !versions.includes(record.schemaVersion)) {
    throw new ResultFileError(
      file,
      'unknown-schema-version',
      `unknown schemaVersion ${JSON.stringify(record.schemaVersion ?? null)} (this version reads ${versions.join(', ')})`,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${describePath(issue.path)}: ${issue.message}`);
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    throw new ResultFileError(
      file,
      'schema-violation',
      `result file does not match the ${kind} schema: ${issues.join('; ')}${more}`,
    );
  }
  return parsed.data;
}

export function readRunResult(file: string): RunResult {
  return readResultFile(file, runResultSchema, 'layerbench/run');
}

export function readComparison(file: string): Comparison {
  return readResultFile(file, comparisonSchema, 'layerbench/compare');
}

export function readCalibration(file: string): Calibration {
  return readResultFile(file, calibrationSchema, 'layerbench/calibration');
}

export function readBetweenRunCalibration(file: string): BetweenRunCalibration {
  return readResultFile(file, betweenRunCalibrationSchema, 'layerbench/between-runs');
}
