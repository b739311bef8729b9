// Every test package's global setup: the tests, and every process they start
// (the CLI, bisect workers, git), put their temporary files in one folder of
// this test run, removed when the run ends. A test that forgets to remove its
// own folder, or a child process stopped before it could, leaves nothing in
// the machine's /tmp (a CI machine runs the suites many times over).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'layerbench-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
