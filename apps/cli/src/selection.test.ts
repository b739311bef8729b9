import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { allSuites, selectCases, suiteByName } from './suites/index.js';
import { colorEnabled, styleFor } from './terminal.js';

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
