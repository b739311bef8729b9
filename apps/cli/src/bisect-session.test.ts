// The bad end of a git bisect session, read from a real session in a throwaway repository.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bisectSessionBad } from './bisect-session.js';

describe('bisectSessionBad', () => {
  let repo: string;
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const commits: string[] = [];

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'layerbench-bisect-session-'));
    git('init', '-q');
    for (let i = 1; i <= 5; i++) {
      writeFileSync(join(repo, 'f'), String(i));
      git('add', 'f');
      git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', `c${i}`);
      commits.push(git('rev-parse', 'HEAD'));
    }
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('is undefined outside a session and outside a repository', () => {
    expect(bisectSessionBad(repo)).toBeUndefined();
    expect(bisectSessionBad(tmpdir())).toBeUndefined();
  });

  it('is the commit the session was started with as bad, not the bad marks of later steps', () => {
    git('bisect', 'start', 'HEAD', 'HEAD~4');
    try {
      expect(bisectSessionBad(repo)).toEqual({ commit: commits[4], term: 'bad' });
      // A step marked bad moves refs/bisect/bad; the far end stays the range's.
      git('bisect', 'bad');
      expect(git('rev-parse', 'refs/bisect/bad')).not.toBe(commits[4]);
      expect(bisectSessionBad(repo)).toEqual({ commit: commits[4], term: 'bad' });
    } finally {
      git('bisect', 'reset');
    }
    expect(bisectSessionBad(repo)).toBeUndefined();
  });

  it("is undefined while no commit is marked bad, and reads the session's own term for bad", () => {
    git('bisect', 'start');
    try {
      git('bisect', 'good', commits[0]!);
      expect(bisectSessionBad(repo)).toBeUndefined();
    } finally {
      git('bisect', 'reset');
    }
    git('bisect', 'start', '--term-new=slow', '--term-old=fast', commits[3]!, commits[0]!);
    try {
      expect(bisectSessionBad(repo)).toEqual({ commit: commits[3], term: 'slow' });
    } finally {
      git('bisect', 'reset');
    }
  });
});
