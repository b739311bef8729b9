// main() called in-process with fake terminals: progress appears on stderr
// only when stderr is a TTY and --quiet is not given; stdout never gets it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { samplesAround, syntheticCase, syntheticRun } from './synthetic-results.js';

class Terminal extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const oneCase = ['run', 'cmac-timing', '--filter', '^cmac-timing/aes-128/pl=48/preloaded/table$', '--time', '0.02'];

describe('progress', () => {
  it('is written to a TTY stderr, one rewritten line per case', async () => {
    const stdout = new Terminal(true);
    const stderr = new Terminal(true);
    expect(await main(oneCase, { stdout, stderr, env: {} })).toBe(0);
    expect(stderr.text).toContain('\r\u001b[K[1/1] cmac-timing/aes-128/pl=48/preloaded/table');
    expect(stdout.text).not.toContain('[1/1]');
    expect(stdout.text).toContain('475ac1c053379e7dbd4ce80b87d2178e');
  });

  it('is not written when stderr is not a TTY, or with --quiet', async () => {
    for (const [tty, args] of [
      [false, oneCase],
      [true, [...oneCase, '--quiet']],
    ] as const) {
      const stdout = new Terminal(true);
      const stderr = new Terminal(tty);
      expect(await main(args, { stdout, stderr, env: {} })).toBe(0);
      expect(stderr.text).toBe('');
    }
  });
});

describe('colour', () => {
  it('colours the verdict on a TTY stdout, never with NO_COLOR', async () => {
    const work = mkdtempSync(join(tmpdir(), 'layerbench-cli-colour-'));
    try {
      const base = join(work, 'base.json');
      const head = join(work, 'head.json');
      writeFileSync(base, JSON.stringify(syntheticRun([syntheticCase('a', samplesAround(100, 1))])));
      // Five times slower: beyond even the default between-run spread (no calibration in this environment).
      writeFileSync(head, JSON.stringify(syntheticRun([syntheticCase('a', samplesAround(500, 2))])));
      const coloured = new Terminal(true);
      expect(await main(['compare', base, head], { stdout: coloured, stderr: new Terminal(true), env: {} })).toBe(1);
      expect(coloured.text).toContain('\u001b[31mregressed: a (exit 1)\u001b[39m');
      const plain = new Terminal(true);
      expect(
        await main(['compare', base, head], { stdout: plain, stderr: new Terminal(true), env: { NO_COLOR: '1' } }),
      ).toBe(1);
      expect(plain.text).not.toContain('\u001b[');
      expect(plain.text).toContain('\nregressed: a (exit 1)\n');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
