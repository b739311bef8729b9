#!/usr/bin/env node
// `npm test`: Biome checks formatting and lint over the whole tree (`biome ci`),
// then turbo runs build, test, lint and typecheck in every package,
// continuing past a failing package so that every package reports, and then,
// alone on the machine (it measures), the bisect scenario suite (`turbo run
// scenarios`: real bisects of throwaway commits, about 5 minutes); this
// script passes turbo's output through unchanged and ends it with one total
// line over all the vitest summaries ("Tests  2 failed | 133 passed"), after
// repeating the lines of tests skipped for a missing program.
// Exit code: 0 when Biome, the tests and the scenarios all passed, else 1 (or turbo's).
import { spawn } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Which of the Debian programs the tests use (vectors/programs.ts) this
 * machine has, as 'chromium=/usr/bin/chromium tshark=missing'. Set as
 * LAYERBENCH_TEST_PROGRAMS, which turbo hashes into the test task (turbo.json):
 * a test that skipped for a missing program is not replayed from turbo's cache
 * once the program is installed, nor a passing one once it is removed.
 */
export function programsSeen(env = process.env) {
  const executable = (file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  return [
    ['chromium', 'CHROMIUM_PATH'],
    ['tshark', 'TSHARK_PATH'],
  ]
    .map(([name, variable]) => {
      const candidates = env[variable]
        ? [env[variable]]
        : (env.PATH ?? '')
            .split(delimiter)
            .filter(Boolean)
            .map((dir) => join(dir, name));
      return `${name}=${candidates.find(executable) ?? 'missing'}`;
    })
    .join(' ');
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes begin with ESC (0x1b)
const ansi = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Collects, line by line, what the closing lines of `npm test` need from turbo's output. */
export class TestSummary {
  /** package -> its vitest counts (the last summary it printed). */
  counts = new Map();
  skipped = new Set();
  failedTasks = [];

  readLine(raw) {
    const line = raw.replace(ansi, '');
    const summary = /^(\S+):(?:test|scenarios):\s+Tests\s+(.*)$/.exec(line);
    if (summary) {
      const tally = { passed: 0, failed: 0, skipped: 0 };
      for (const [, n, what] of summary[2].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
        tally[what === 'todo' ? 'skipped' : what] += Number(n);
      }
      // One entry per package and task: the cli's unit tests and its scenarios both count.
      const key = /:scenarios:/.test(line) ? `${summary[1]} scenarios` : summary[1];
      this.counts.set(key, tally);
    }
    // The one line a test prints when it skips for a missing program (vectors/programs.ts).
    const skip = /(SKIPPED \(missing program\): .*)$/.exec(line);
    if (skip) this.skipped.add(skip[1].trim());
    const failed = /^\s*Failed:\s+(.*)$/.exec(line);
    if (failed) this.failedTasks.push(...failed[1].split(/,\s*/).filter(Boolean));
  }

  /** The skip lines, then the one total line. */
  closingLines() {
    const total = { passed: 0, failed: 0, skipped: 0 };
    for (const tally of this.counts.values()) for (const key of Object.keys(total)) total[key] += tally[key];
    const parts = [`${total.passed} passed`, `${total.failed} failed`];
    if (total.skipped > 0) parts.push(`${total.skipped} skipped`);
    const packages = new Set([...this.counts.keys()].map((key) => key.split(' ')[0])).size;
    let last = `tests: ${parts.join(', ')} (${packages} package${packages === 1 ? '' : 's'})`;
    if (this.failedTasks.length > 0) last += `; failed tasks: ${this.failedTasks.join(', ')}`;
    return [...this.skipped, last];
  }
}

/** `biome ci .`, output passed through; resolves to whether it passed. */
function runBiome() {
  return new Promise((resolve) => {
    const biome = spawn('biome', ['ci', '--colors=off', '.'], { stdio: 'inherit' });
    biome.on('error', (error) => {
      process.stderr.write(`npm test: cannot start biome: ${error.message}\n`);
      resolve(false);
    });
    biome.on('close', (code) => resolve(code === 0));
  });
}

/** One `turbo run <tasks>`, its output passed through and read by `summary`; resolves to its exit code. */
function turbo(tasks, args, summary) {
  return new Promise((resolve) => {
    const child = spawn('turbo', ['run', ...tasks, '--continue=dependencies-successful', ...args], {
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    const forward = (stream, sink) => {
      let pending = '';
      stream.on('data', (chunk) => {
        sink.write(chunk);
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop();
        for (const line of lines) summary.readLine(line);
      });
      stream.on('end', () => pending && summary.readLine(pending));
    };
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('error', (error) => {
      process.stderr.write(`npm test: cannot start turbo: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code || (signal ? 1 : 0)));
  });
}

async function runAll(args) {
  const summary = new TestSummary();
  process.env.LAYERBENCH_TEST_PROGRAMS = programsSeen();
  process.stdout.write('npm test: biome ci (format and lint, biome.jsonc)\n');
  const biomeOk = await runBiome();
  if (!biomeOk) summary.failedTasks.push('biome ci (run `npm run check` to fix what it can)');
  const tests = await turbo(['build', 'test', 'lint', 'typecheck'], args, summary);
  // The scenarios measure: they run after every other test has finished, never beside one.
  process.stdout.write('\nnpm test: the bisect scenario suite (apps/cli/scenarios), alone on the machine\n');
  const scenarios = await turbo(['scenarios'], args, summary);
  process.stdout.write(`\n${summary.closingLines().join('\n')}\n`);
  process.exitCode = tests || scenarios || (biomeOk ? 0 : 1);
}

if (process.argv[1] && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url)
  runAll(process.argv.slice(2));
