// Every suite must load on Node 16 (the runtime layer of a bisection), where
// the peer libraries cannot: a suite imports @layerbench/peers only lazily,
// inside a case's setup(), never at the top of its module.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const suiteFiles = readdirSync(new URL('.', import.meta.url)).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
);

describe('suites import the peers only lazily', () => {
  it('finds the suite files', () => {
    expect(suiteFiles).toEqual(
      expect.arrayContaining(['aes.ts', 'cmac.ts', 'cmac-timing.ts', 'sha1.ts', 'hmac.ts', 'esp.ts', 'esptest.ts']),
    );
  });
  it.each(suiteFiles)('%s has no static import of @layerbench/peers', (file) => {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export)[^;]*from\s*['"]@layerbench\/peers['"]/m);
  });
});
