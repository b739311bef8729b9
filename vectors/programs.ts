// Tests that use a Debian program as an independent peer (chromium opens the
// HTML report, tshark decrypts ESP packets) run when the program is there.
// Without it they are skipped, and one loud line says what was skipped and
// how to get it; under CI=true a missing program is a failure, never a skip
// (.ci/run installs both). The root `npm test` repeats the skip lines at the end.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface ProgramNeed {
  /** The command looked up on PATH: 'chromium', 'tshark'. */
  name: string;
  /** An environment variable that names the program's path instead (CHROMIUM_PATH). */
  pathVariable: string;
  /** What is skipped without it, for the skip line: "the HTML report in Chromium (apps/ci-report)". */
  what: string;
  /** The Debian package that installs it (default: the name). */
  debianPackage?: string;
}

export interface Program {
  /** The executable, when found. */
  path: string | undefined;
  /** Missing and not under CI=true: the tests that need it are skipped (the skip line has been printed). */
  skip: boolean;
  /** The executable; throws (the test fails) when it is missing, as it must under CI=true. */
  require(): string;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the PATH of `env`. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Finds a program a test needs. Not found and not under CI=true: writes one
 * line "SKIPPED (missing program): ..." to `warn` and returns skip: true.
 */
export function debianProgram(
  need: ProgramNeed,
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = (line) => process.stderr.write(`\n${line}\n`),
): Program {
  const override = env[need.pathVariable];
  const path = override ? (isExecutableFile(override) ? override : undefined) : findOnPath(need.name, env);
  const where = override ? `${need.pathVariable}=${override} is not an executable file` : `${need.name} is not on PATH`;
  const install = `apt-get install ${need.debianPackage ?? need.name}`;
  const inCi = env.CI === 'true';
  const skip = path === undefined && !inCi;
  if (skip)
    warn(
      `SKIPPED (missing program): ${need.what}: ${where}; to run it: ${install} (or set ${need.pathVariable}); under CI=true this fails`,
    );
  return {
    path,
    skip,
    require() {
      if (path === undefined) {
        throw new Error(
          `${need.name} is required${inCi ? ' under CI=true' : ''} for ${need.what}: ${where} (${install}, or set ${need.pathVariable})`,
        );
      }
      return path;
    },
  };
}

/** chromium, for the HTML report's check in a real browser. */
export function chromiumProgram(env: NodeJS.ProcessEnv = process.env): Program {
  return debianProgram(
    { name: 'chromium', pathVariable: 'CHROMIUM_PATH', what: 'the HTML report checked in Chromium (apps/ci-report)' },
    env,
  );
}

/** tshark, Wireshark's ESP dissector as an independent peer of the esp layer. */
export function tsharkProgram(env: NodeJS.ProcessEnv = process.env): Program {
  return debianProgram(
    {
      name: 'tshark',
      pathVariable: 'TSHARK_PATH',
      what: 'ESP packets decrypted and authenticated by tshark (packages/esp)',
    },
    env,
  );
}
