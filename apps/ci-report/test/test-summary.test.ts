// The closing lines of the root `npm test` (scripts/test-summary.mjs): one
// total over every package's vitest summary, whatever turbo interleaves, with
// the lines of skipped tests and the failed tasks.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script without type declarations
import { programsSeen, TestSummary } from '../../../scripts/test-summary.mjs';

describe('npm test summary', () => {
  it('adds up every package and ends with one total line', () => {
    const summary = new TestSummary();
    const log = [
      '@layerbench/aes-core:test: \x1b[2m      Tests \x1b[22m \x1b[1m\x1b[32m161 passed\x1b[39m\x1b[22m\x1b[90m (161)\x1b[39m',
      '@layerbench/esp:test: ',
      '@layerbench/esp:test: SKIPPED (missing program): ESP packets decrypted and authenticated by tshark (packages/esp): tshark is not on PATH; to run it: apt-get install tshark (or set TSHARK_PATH); under CI=true this fails',
      '@layerbench/esp:test:       Tests  2 failed | 625 passed | 1 skipped (628)',
      '@layerbench/esp:test:  Test Files  1 failed | 20 passed (21)',
      '@layerbench/cli:test:       Tests  212 passed (212)',
      '@layerbench/cli:scenarios:       Tests  9 passed | 1 failed (10)',
      ' Tasks:    28 successful, 30 total',
      '  Failed:    @layerbench/esp#test, @layerbench/cli#typecheck',
    ];
    for (const line of log) summary.readLine(line);
    expect(summary.closingLines()).toEqual([
      'SKIPPED (missing program): ESP packets decrypted and authenticated by tshark (packages/esp): tshark is not on PATH; to run it: apt-get install tshark (or set TSHARK_PATH); under CI=true this fails',
      'tests: 1007 passed, 3 failed, 1 skipped (3 packages); failed tasks: @layerbench/esp#test, @layerbench/cli#typecheck',
    ]);
  });

  it('says 0 of everything when no package reported', () => {
    expect(new TestSummary().closingLines()).toEqual(['tests: 0 passed, 0 failed (0 packages)']);
  });

  it('says which test programs the machine has, so turbo does not replay a skip once one is installed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'programs-'));
    const tshark = join(dir, 'tshark');
    writeFileSync(tshark, '#!/bin/sh\n');
    chmodSync(tshark, 0o755);
    // A file that is not executable is not the program.
    writeFileSync(join(dir, 'chromium'), '');
    expect(programsSeen({ PATH: `/nonexistent-dir:${dir}` })).toBe(`chromium=missing tshark=${tshark}`);
    expect(programsSeen({ PATH: dir, CHROMIUM_PATH: tshark, TSHARK_PATH: join(dir, 'none') })).toBe(
      `chromium=${tshark} tshark=missing`,
    );
  });
});
