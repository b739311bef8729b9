// The build every workspace shares (tsconfig.base.json, then
// scripts/emit-declarations.mjs): the JavaScript it emits carries no comments,
// so a commit that edits only comments (or types) builds the
// same code, and the layer's content hash — which compare, check and bisect
// use to tell that code did not change — stays the same. The declarations
// keep their doc comments for users' editors.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentHash } from '@layerbench/bench-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const work = mkdtempSync(join(tmpdir(), 'layerbench-build-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

const SOURCE = `/** Adds one: the documented API. */
export function addOne(x: number): number {
  return x + 1;
}

export const greeting: string = 'hello // not a comment /* nor this */';
`;

/** Builds `source` as a workspace's build script does; returns the dist folder. */
function build(name: string, source: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'index.ts'), source);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repo, 'tsconfig.base.json'),
      compilerOptions: { rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo', types: [] },
      include: ['src'],
    }),
  );
  for (const args of [[tsc, '-b'], [join(repo, 'scripts', 'emit-declarations.mjs')]]) {
    try {
      execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      throw new Error(`${args.join(' ')} in ${dir}: ${(error as { stdout?: string }).stdout ?? ''}`);
    }
  }
  return join(dir, 'dist');
}

describe('the shared build', () => {
  // Built in a hook, not while the tests are collected: a failing build then fails the tests and afterAll still
  // removes the folder.
  let plain: string;
  beforeAll(() => {
    plain = build('plain', SOURCE);
  });

  it('a comment-only edit builds the same runnable code: the content hash does not move', () => {
    const commented = build(
      'commented',
      `// A new file header.\n\n${SOURCE.replace('return x + 1;', '/* why */ return x + 1; // trailing')
        .replace('Adds one', 'Adds one (reworded doc)')
        .replace('export const', '/**\n * A block.\n */\nexport const')}`,
    );
    expect(contentHash(commented)).toBe(contentHash(plain));
    expect(readFileSync(join(commented, 'index.d.ts'), 'utf8')).toContain('reworded doc');
  });

  it('a code edit still moves it, and so does an edit inside a string that looks like a comment', () => {
    expect(contentHash(build('code', SOURCE.replace('x + 1', 'x + 2')))).not.toBe(contentHash(plain));
    expect(contentHash(build('string', SOURCE.replace('nor this', 'nor that')))).not.toBe(contentHash(plain));
  });

  it('the JavaScript has no comment but the source map link; the declarations keep the docs', () => {
    const js = readFileSync(join(plain, 'index.js'), 'utf8');
    expect(js).not.toContain('Adds one');
    expect(js).toContain("'hello // not a comment /* nor this */'");
    expect(js.trimEnd().split('\n').at(-1)).toBe('//# sourceMappingURL=index.js.map');
    expect(readFileSync(join(plain, 'index.d.ts'), 'utf8')).toContain('/** Adds one: the documented API. */');
    expect(readdirSync(plain).sort()).toEqual([
      '.tsbuildinfo',
      'index.d.ts',
      'index.d.ts.map',
      'index.js',
      'index.js.map',
    ]);
  });
});

describe("the workspaces' built JavaScript", () => {
  const packages = ['aes-core', 'cmac', 'sha1-dispatch', 'esp', 'bench-runner'];

  it.each(packages)('%s: no comment lines in dist/*.js (built with the shared removeComments)', (dir) => {
    const dist = join(repo, 'packages', dir, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(0);
    const commentLines = files.flatMap((file) =>
      readFileSync(join(dist, file), 'utf8')
        .split('\n')
        .filter((line) => /^\s*(\/\/|\/\*)/.test(line) && !line.startsWith('//# sourceMappingURL='))
        .map((line) => `${file}: ${line}`),
    );
    expect(commentLines).toEqual([]);
  });
});
