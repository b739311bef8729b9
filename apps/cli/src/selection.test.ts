import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { allSuites, selectCases, suiteByName } from './suites/index.js';
import { colorEnabled, roughDuration, roundsLeft, styleFor } from './terminal.js';

const ids = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `case/${String(i).padStart(3, '0')}` }));

describe('selectCases', () => {
  it('filters by regular expression over ids', () => {
    expect(selectCases(ids(12), { filter: '1$' }).map((c) => c.id)).toEqual(['case/001', 'case/011']);
  });

  it('puts every case in exactly one shard, independent of input order', () => {
    const cases = ids(23);
    const shuffled = [...cases].reverse();
    for (const count of [1, 2, 3, 5, 23, 30]) {
      const shards = Array.from({ length: count }, (_, k) =>
        selectCases(cases, { shard: { index: k + 1, count, text: '' } }),
      );
      expect(
        shards
          .flat()
          .map((c) => c.id)
          .sort(),
      ).toEqual(cases.map((c) => c.id));
      const sizes = shards.map((shard) => shard.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      const again = Array.from({ length: count }, (_, k) =>
        selectCases(shuffled, { shard: { index: k + 1, count, text: '' } }),
      );
      expect(again.map((shard) => shard.map((c) => c.id).sort())).toEqual(
        shards.map((shard) => shard.map((c) => c.id).sort()),
      );
    }
  });

  it('applies the filter before sharding', () => {
    const picked = [1, 2].flatMap((k) =>
      selectCases(ids(20), { filter: '[02468]$', shard: { index: k, count: 2, text: '' } }),
    );
    expect(picked.map((c) => c.id).sort()).toEqual(
      ids(20)
        .filter((c) => /[02468]$/.test(c.id))
        .map((c) => c.id),
    );
  });
});

describe('suite registry', () => {
  it('knows every suite by name and rejects unknown ones with the list', () => {
    expect(allSuites.map((suite) => suite.name)).toEqual([
      'aes',
      'cmac',
      'cmac-timing',
      'sha1',
      'hmac',
      'esp',
      'esptest',
      'peers',
    ]);
    expect(suiteByName('peers').name).toBe('peers');
    expect(() => suiteByName('nope')).toThrow(UsageError);
  });
});

describe('terminal', () => {
  it('colours only a TTY without NO_COLOR and TERM=dumb', () => {
    expect(colorEnabled({ isTTY: true } as never, {})).toBe(true);
    expect(colorEnabled({ isTTY: false } as never, {})).toBe(false);
    expect(colorEnabled({ isTTY: true } as never, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true } as never, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: true } as never, { TERM: 'dumb' })).toBe(false);
    expect(styleFor({ isTTY: false } as never, {}).red('x')).toBe('x');
    expect(styleFor({ isTTY: true } as never, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});

describe('the time left of a run of rounds', () => {
  it('says nothing at the first round, then the mean round length times the rounds still to run', () => {
    let t = 1_000;
    const left = roundsLeft(() => t);
    expect(left(1, 12)).toBe('');
    t += 80_000; // round 1 took 80 s: 11 rounds of 80 s are left
    expect(left(2, 12)).toBe(' (about 15 min left)');
    t += 100_000; // mean 90 s over two rounds, 10 left
    expect(left(3, 12)).toBe(' (about 15 min left)');
    t += 9 * 90_000;
    expect(left(12, 12)).toBe(' (about 90 s left)');
  });

  it('rounds a duration to seconds under two minutes and to minutes above', () => {
    expect(roughDuration(0)).toBe('0 s');
    expect(roughDuration(119_400)).toBe('119 s');
    expect(roughDuration(150_000)).toBe('3 min');
    expect(roughDuration(-5)).toBe('0 s');
  });
});
