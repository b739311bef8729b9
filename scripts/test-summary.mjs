#!/usr/bin/env node
// `npm test`: Biome checks formatting and lint over the whole tree (`biome ci`),
// then turbo runs build, test, lint and typecheck in every package,
// continuing past a failing package so that every package reports; this
// script passes turbo's output through unchanged and ends it with one total
// line over all packages' vitest summaries ("Tests  2 failed | 133 passed"),
// after repeating the lines of tests skipped for a missing program.
// Exit code: turbo's, or 1 when Biome found problems.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

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
    const summary = /^(\S+):test:\s+Tests\s+(.*)$/.exec(line);
    if (summary) {
      const tally = { passed: 0, failed: 0, skipped: 0 };
      for (const [, n, what] of summary[2].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
        tally[what === 'todo' ? 'skipped' : what] += Number(n);
      }
      this.counts.set(summary[1], tally);
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
    const packages = this.counts.size;
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

async function runTurbo(args) {
  const summary = new TestSummary();
  process.stdout.write('npm test: biome ci (format and lint, biome.jsonc)\n');
  const biomeOk = await runBiome();
  if (!biomeOk) summary.failedTasks.push('biome ci (run `npm run check` to fix what it can)');
  const turbo = spawn(
    'turbo',
    ['run', 'build', 'test', 'lint', 'typecheck', '--continue=dependencies-successful', ...args],
    {
      stdio: ['inherit', 'pipe', 'pipe'],
    },
  );
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
  forward(turbo.stdout, process.stdout);
  forward(turbo.stderr, process.stderr);
  turbo.on('error', (error) => {
    process.stderr.write(`npm test: cannot start turbo: ${error.message}\n`);
    process.exitCode = 1;
  });
  turbo.on('close', (code, signal) => {
    process.stdout.write(`\n${summary.closingLines().join('\n')}\n`);
    process.exitCode = code || (signal ? 1 : 0) || (biomeOk ? 0 : 1);
  });
}

if (process.argv[1] && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url)
  runTurbo(process.argv.slice(2));
