import { describe, expect, it } from 'vitest';
import { compareResults } from '../compare/compare.js';
import { fixedRunNoise } from '../compare/noise.js';
import { computeStats } from '../stats/stats.js';
import type { CaseResult, EnvFingerprint, RunResult } from '../types.js';
import { toBmf } from './bmf.js';
import { formatComparison } from './comparison.js';
import { formatEsptest } from './esptest.js';
import { formatJson } from './json.js';
import { layerCommitsLines } from './layer-commits.js';
import { formatMarkdown } from './markdown.js';
import { formatNtpsec, ntpsecRow, ntpsecSectionLine } from './ntpsec.js';
import { formatSpeed } from './speed.js';
import { formatTable } from './table.js';

const env: EnvFingerprint = {
  node: '20.20.2',
  v8: '11.3.244.8-node.33',
  openssl: '3.0.19',
  os: 'linux 6.1.0 x64',
  cpuModel: 'Intel(R) Core(TM) i5-3570 CPU @ 3.40GHz',
  cpuCount: 4,
  loadAvgStart: [0.5, 0.4, 0.3],
  loadAvgEnd: [0.6, 0.4, 0.3],
  capabilities: '078bffff 7ed8320b 209c01a9 00000000',
  dispatch: [],
  layers: [],
  machineId: '0123456789ab',
};

function okCase(id: string, nsPerOp: number, extra: Partial<CaseResult> = {}): CaseResult {
  const samples = [nsPerOp, nsPerOp, nsPerOp];
  return {
    id,
    layer: 'cmac',
    params: {},
    status: 'ok',
    samples,
    stats: computeStats(samples, extra.bytesPerOp),
    ...extra,
  };
}

function runOf(cases: CaseResult[], extra: Partial<RunResult> = {}): RunResult {
  return {
    kind: 'layerbench/run',
    schemaVersion: 1,
    createdAt: '2026-11-30T14:00:00.000Z',
    suites: [],
    options: { timePerCase: 1 },
    env,
    cases,
    ...extra,
  };
}

const macs: Record<number, string> = {
  16: '475ac1c053379e7dbd4ce80b87d2178e',
  24: 'c906422bfe0963de6df50e022b4aa7d4',
  32: '991f4017858de97515260dd9ae440b06',
};

/** The OpenSSL 3.0.0-alpha3 CMAC and preloaded blocks of the NTPsec seed report, as cases. */
function ntpsecRun(): RunResult {
  const rows: [string, number, number][] = [
    ['CMAC', 16, 973],
    ['CMAC', 24, 987],
    ['CMAC', 32, 1011],
    ['Preload cipher and key.', 16, 170],
    ['Preload cipher and key.', 24, 182],
    ['Preload cipher and key.', 32, 196],
  ];
  return runOf(
    rows.map(([section, kl, ns]) =>
      okCase(`cmac/aes-${kl * 8}/pl=48/${section}`, ns, {
        params: { algorithm: `AES-${kl * 8}`, keyBytes: kl, packetBytes: 48, macBytes: 16, section },
        digest: macs[kl]!,
        bytesPerOp: 48,
      }),
    ),
  );
}

describe('formatNtpsec', () => {
  it('reproduces the seed table character for character', () => {
    // Lines copied from the NTPsec "CMAC timings" report (seeds/001).
    const expected = [
      'Intel(R) Core(TM) i5-3570 CPU @ 3.40GHz',
      '',
      '# KL=key length, PL=packet length, CL=CMAC length',
      '',
      '# Node 20.20.2, OpenSSL 3.0.19',
      '',
      '# CMAC        KL PL CL  ns/op sec/run',
      '     AES-128  16 48 16    973   0.973  475ac1c053379e7dbd4ce80b87d2178e',
      '     AES-192  24 48 16    987   0.987  c906422bfe0963de6df50e022b4aa7d4',
      '     AES-256  32 48 16   1011   1.011  991f4017858de97515260dd9ae440b06',
      '',
      'Preload cipher and key.',
      '     AES-128  16 48 16    170   0.170  475ac1c053379e7dbd4ce80b87d2178e',
      '     AES-192  24 48 16    182   0.182  c906422bfe0963de6df50e022b4aa7d4',
      '     AES-256  32 48 16    196   0.196  991f4017858de97515260dd9ae440b06',
      '',
    ].join('\n');
    expect(formatNtpsec(ntpsecRun())).toBe(expected);
  });
  it("prints a section's note above its header", () => {
    const row = (section: string, note?: string) =>
      okCase(`x-${section}`, 200, {
        params: {
          algorithm: 'AES-128',
          keyBytes: 16,
          packetBytes: 48,
          macBytes: 16,
          section,
          ...(note ? { sectionNote: note } : {}),
        },
        digest: 'ab',
      });
    const run = { ...ntpsecRun(), cases: [row('oneshot/tbl'), row('preload/tbl', 'Preload cipher and key.')] };
    expect(formatNtpsec(run).split('\n').slice(5)).toEqual([
      '',
      '# oneshot/tbl KL PL CL  ns/op sec/run',
      '     AES-128  16 48 16    200   0.200  ab',
      '',
      'Preload cipher and key.',
      '# preload/tbl KL PL CL  ns/op sec/run',
      '     AES-128  16 48 16    200   0.200  ab',
      '',
    ]);
  });
  it('pads every seed section name to 12 columns', () => {
    expect(ntpsecSectionLine('PKEY')).toBe('# PKEY        KL PL CL  ns/op sec/run');
    expect(ntpsecSectionLine('EVP_MAC')).toBe('# EVP_MAC     KL PL CL  ns/op sec/run');
    expect(ntpsecSectionLine('a-very-long-name')).toBe('# a-very-long-name KL PL CL  ns/op sec/run');
  });
  it('rounds like %6.0f / %6.3f and marks failed rows', () => {
    const row = ntpsecRow(
      okCase('x', 365.6, {
        params: { algorithm: 'AES-128', keyBytes: 16, packetBytes: 48, macBytes: 16 },
        digest: 'ab',
      }),
    );
    expect(row).toBe('     AES-128  16 48 16    366   0.366  ab');
    const failed: CaseResult = {
      id: 'x',
      layer: 'cmac',
      params: { algorithm: 'AES-128', keyBytes: 16 },
      status: 'failed',
      error: { name: 'RangeError', message: 'bad key' },
      samples: [],
    };
    expect(ntpsecRow(failed)).toBe('     AES-128  16  -  -  FAILED RangeError: bad key');
  });
});

describe('formatEsptest', () => {
  // "Before" lines of the OpenConnect report (seeds/003), Ryzen 5 and Haswell Xeon.
  const seed: [number, number, string][] = [
    [
      4580535,
      2446172,
      'Encrypted 4580535 packets in 5s (5130 Mb/s)\nEncrypted+decrypted 2446172 packets in 5s (2739 Mb/s)',
    ],
    [
      4553131,
      2500763,
      'Encrypted 4553131 packets in 5s (5099 Mb/s)\nEncrypted+decrypted 2500763 packets in 5s (2800 Mb/s)',
    ],
    [
      2346782,
      1265742,
      'Encrypted 2346782 packets in 5s (2628 Mb/s)\nEncrypted+decrypted 1265742 packets in 5s (1417 Mb/s)',
    ],
    [
      1384902,
      1384902,
      'Encrypted 1384902 packets in 5s (1551 Mb/s)\nEncrypted+decrypted 1384902 packets in 5s (1551 Mb/s)',
    ],
  ];
  function espRun(enc: number, encdec: number): RunResult {
    return runOf([
      okCase('esp/encrypt', 1000, { params: { op: 'encrypt' }, bytesPerOp: 1400, fixedTime: { seconds: 5, ops: enc } }),
      okCase('esp/encrypt+decrypt', 2000, {
        params: { op: 'encrypt+decrypt' },
        bytesPerOp: 1400,
        fixedTime: { seconds: 5, ops: encdec },
      }),
    ]);
  }
  it.each(seed)('compat mode reproduces esptest (%i, %i)', (enc, encdec, lines) => {
    expect(formatEsptest(espRun(enc, encdec), { compat: true })).toBe(
      "# this run's figures, Mb/s as esptest prints it: packets x bytes / seconds / 250000 (half the payload bit rate)\n" +
        'CPU capabilities: 078bffff 7ed8320b 209c01a9 00000000\n' +
        `${lines}\n`,
    );
  });
  it('default mode prints the payload bit rate from the measured loop time', () => {
    const run = espRun(4580535, 2446172);
    run.cases[0]!.fixedTime!.elapsedSeconds = 5.001;
    expect(formatEsptest(run)).toBe(
      "# this run's figures, Mb/s = payload megabits per second: packets x bytes x 8 / seconds / 1e6\n" +
        'CPU capabilities: 078bffff 7ed8320b 209c01a9 00000000\n' +
        // 4580535 * 1400 * 8 / 5.001 / 1e6 = 10258.35; 2446172 * 1400 * 8 / 5 / 1e6 = 5479.43
        'Encrypted 4580535 packets in 5s (10258 Mb/s)\n' +
        'Encrypted+decrypted 2446172 packets in 5s (5479 Mb/s)\n',
    );
  });
  it('groups by implementation and reports failures', () => {
    const run = runOf([
      okCase('esp/stitched/encrypt', 1, {
        params: { op: 'encrypt', impl: 'stitched' },
        bytesPerOp: 1400,
        fixedTime: { seconds: 1, ops: 1000 },
      }),
      {
        id: 'esp/split/encrypt',
        layer: 'esp',
        params: { op: 'encrypt', impl: 'split' },
        status: 'failed',
        error: { name: 'Error', message: 'no sha1' },
        samples: [],
      },
      okCase('other', 1, { params: { algorithm: 'x' } }),
    ]);
    run.env = { ...env, capabilities: undefined } as unknown as EnvFingerprint;
    expect(formatEsptest(run)).toBe(
      "# this run's figures, Mb/s = payload megabits per second: packets x bytes x 8 / seconds / 1e6\n" +
        '# stitched\nEncrypted 1000 packets in 1s (11 Mb/s)\n' +
        '# split\nEncrypted: FAILED Error: no sha1\n',
    );
  });
});

describe('formatSpeed', () => {
  it('prints an openssl speed table in 1000s of bytes per second', () => {
    const run = runOf([
      okCase('a16', 100, { params: { algorithm: 'aes-128-cbc', size: 16 } }),
      okCase('a64', 200, { params: { algorithm: 'aes-128-cbc', size: 64 } }),
      okCase('s16', 1e7, { params: { algorithm: 'slow', size: 16 } }),
    ]);
    expect(formatSpeed(run)).toBe(
      "The 'numbers' are in 1000s of bytes per second processed.\n" +
        'type             16 bytes     64 bytes\n' +
        'aes-128-cbc     160000.00k   320000.00k\n' +
        'slow              1600.00            - \n',
    );
  });
  it('widens the label column for long names, one row per algorithm and impl', () => {
    const run = runOf([
      okCase('x', 1000, { params: { algorithm: 'HMAC-SHA1', impl: 'unrolled', size: 64 } }),
      okCase('y', 2000, { params: { algorithm: 'HMAC-SHA1', impl: 'generic', size: 64 } }),
    ]);
    expect(formatSpeed(run).split('\n').slice(1)).toEqual([
      'type                   64 bytes',
      'HMAC-SHA1 unrolled     64000.00k',
      'HMAC-SHA1 generic      32000.00k',
      '',
    ]);
  });
  it('widens the size columns when a heading would touch its neighbour (1 MiB)', () => {
    const run = runOf([
      okCase('k', 1000, { params: { algorithm: 'SHA-1', size: 16384 } }),
      okCase('m', 1e6, { params: { algorithm: 'SHA-1', size: 1048576 } }),
    ]);
    expect(formatSpeed(run).split('\n').slice(1)).toEqual([
      'type           16384 bytes 1048576 bytes',
      'SHA-1          16384000.00k   1048576.00k',
      '',
    ]);
  });
});

describe('toBmf', () => {
  it('exports latency with its CI and throughput for byte cases; skips failures', () => {
    const run = runOf([
      okCase('cmac/aes-128', 250, { bytesPerOp: 48 }),
      okCase('plain', 10),
      { id: 'bad', layer: 'x', params: {}, status: 'failed', samples: [] },
    ]);
    expect(toBmf(run)).toEqual({
      'cmac/aes-128': {
        latency: { value: 250, lower_value: 250, upper_value: 250 },
        throughput: { value: 4e6, lower_value: 4e6, upper_value: 4e6 },
      },
      plain: { latency: { value: 10, lower_value: 10, upper_value: 10 } },
    });
  });
});

describe('formatJson', () => {
  it('is parseable and keeps samples on one line', () => {
    const run = runOf([okCase('a', 5)]);
    const text = formatJson(run);
    expect(JSON.parse(text)).toEqual(run);
    expect(text).toContain('"samples": [5,5,5]');
  });
});

function comparisonFixture() {
  const base = runOf([okCase('same', 100, { digest: 'aa' }), okCase('slow|er', 100), okCase('gone', 1)], {
    env: { ...env, dispatch: [{ layer: 'sha1-dispatch', decision: 'block', impl: 'avx2', reason: '' }] },
  });
  const spread = (mu: number) => Array.from({ length: 50 }, (_, i) => mu + (i % 10) * 0.1);
  base.cases[0]!.samples = spread(100);
  base.cases[1]!.samples = spread(100);
  const head = runOf(
    [okCase('same', 100, { digest: 'bb' }), okCase('slow|er', 150, { implementation: 'generic' }), okCase('new', 1)],
    {
      env: { ...env, dispatch: [{ layer: 'sha1-dispatch', decision: 'block', impl: 'generic', reason: '' }] },
    },
  );
  head.cases[0]!.samples = spread(100);
  head.cases[1]!.samples = spread(150);
  return compareResults(base, head, { noise: fixedRunNoise(0) });
}

describe('formatComparison and formatMarkdown', () => {
  const cmp = comparisonFixture();
  it('console comparison names environment differences, verdicts and digest changes', () => {
    const text = formatComparison(cmp);
    expect(text).toContain('environment differences:\n  dispatch: sha1-dispatch: block: avx2 -> generic\n');
    expect(text).toMatch(/slow\|er +100\.5 ns +150\.4 ns +\+49\.8% +\[.*\] +\S+ +regressed +impl \? -> generic/);
    expect(text).toMatch(/same .* unchanged +DIGEST CHANGED/);
    expect(text).toContain('DIGEST CHANGED (the output differs: a correctness change): same');
    expect(text).toContain('only in base: gone');
    expect(text).toContain('only in head: new');
    expect(text).toMatch(/geomean \+22\.\d% .* 1 regressed, 0 improved, 1 unchanged, 0 inconclusive\n$/);
  });
  it('markdown comparison is a table with escaped cells and verdict marks', () => {
    const md = formatMarkdown(cmp);
    expect(md).toContain('| case | base | head | change | 99% CI | p | verdict | note |');
    expect(md).toContain('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    expect(md).toContain('`slow\\|er`');
    expect(md).toContain('🔴 regressed');
    expect(md).toContain('- dispatch: sha1-dispatch: block: avx2 -> generic');
    expect(md).toContain('⚠️ **Digest changed** (a correctness change): `same`');
  });
  it('both name the commits that changed each layer whose code differs, when compare recorded them', () => {
    expect(formatComparison(cmp)).not.toContain('commits that changed');
    const withCommits = {
      ...cmp,
      layerCommits: [
        {
          layer: 'sha1-dispatch',
          folder: 'packages/sha1-dispatch',
          good: 'a'.repeat(40),
          bad: 'b'.repeat(40),
          commits: [{ commit: 'c'.repeat(40), subject: 'sha1-dispatch: generic | fallback' }],
          uncommitted: false,
        },
        {
          layer: 'esp',
          folder: 'packages/esp',
          good: 'a'.repeat(40),
          bad: 'a'.repeat(40),
          commits: [],
          uncommitted: true,
        },
      ],
    };
    expect(formatComparison(withCommits)).toContain(
      [
        'commits that changed the layers whose code differs (README and test files left out):',
        '  sha1-dispatch: 1 commit changed packages/sha1-dispatch: cccccccccccc "sha1-dispatch: generic | fallback"',
        '  esp: no commit changed packages/esp; the workspace has changes there in no commit',
      ].join('\n'),
    );
    const md = formatMarkdown(withCommits);
    expect(md).toContain('**Commits that changed the layers whose code differs (README and test files left out):**');
    expect(md).toContain(
      '- sha1-dispatch: 1 commit changed packages/sha1-dispatch: cccccccccccc "sha1-dispatch: generic \\| fallback"',
    );
  });
  it("name each side's commits when the base is not an ancestor of the head, and why none are listed", () => {
    const ends = { good: 'a'.repeat(40), bad: 'b'.repeat(40), uncommitted: false };
    const lines = layerCommitsLines([
      {
        layer: 'aes-core',
        folder: 'packages/aes-core',
        ...ends,
        commits: [{ commit: 'c'.repeat(40), subject: 'aes-core: on the branch' }],
        goodSideCommits: [
          { commit: 'd'.repeat(40), subject: 'one' },
          { commit: 'e'.repeat(40), subject: 'two' },
        ],
      },
      { layer: 'cmac', folder: 'packages/cmac', ...ends, commits: [], goodSideCommits: [] },
      {
        layer: 'esp',
        folder: 'packages/esp',
        ...ends,
        commits: [],
        unlisted: 'this checkout does not hold commit aaaaaaaaaaaa',
      },
    ]);
    expect(lines).toEqual([
      `aes-core: aaaaaaaaaaaa is not an ancestor of bbbbbbbbbbbb; since their common ancestor packages/aes-core was changed on bbbbbbbbbbbb's side by 1 commit, cccccccccccc "aes-core: on the branch", and on aaaaaaaaaaaa's side by 2 commits (git log bbbbbbbbbbbb..aaaaaaaaaaaa -- packages/aes-core)`,
      `cmac: aaaaaaaaaaaa is not an ancestor of bbbbbbbbbbbb; since their common ancestor packages/cmac was changed on bbbbbbbbbbbb's side by no commit, and on aaaaaaaaaaaa's side by no commit`,
      'esp: commits not listed: this checkout does not hold commit aaaaaaaaaaaa',
    ]);
  });
  it('markdown run lists cases, failures and the overhead', () => {
    const run = runOf(
      [
        okCase('a', 366, { digest: 'ab', digestOk: true, bytesPerOp: 48 }),
        { id: 'b', layer: 'x', params: {}, status: 'failed', error: { name: 'Error', message: 'boom' }, samples: [] },
      ],
      { overheadNs: 0.5 },
    );
    const md = formatMarkdown(run);
    expect(md).toMatch(/^### layerbench run 2026-11-30T14:00:00.000Z\n/);
    expect(md).toContain(
      '| `a` |  | 366.0 ns | 366.0 ns – 366.0 ns | 0.000 ns | 2.73M | 131.1 | `ab` | ok (digest checked) |',
    );
    expect(md).toContain('| `b` |  |  |  |  |  |  |  | ❌ Error: boom |');
    expect(md).toContain('Empty-case overhead: 0.500 ns/op.');
  });
  it('console table of a run', () => {
    const text = formatTable(runOf([okCase('a', 366)], { interrupted: true }));
    expect(text).toContain('CPU capabilities: 078bffff 7ed8320b 209c01a9 00000000');
    expect(text).toContain('interrupted: 1 case(s) finished');
  });
});
