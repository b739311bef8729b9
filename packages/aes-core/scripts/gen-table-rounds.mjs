// Generates src/backends/table-rounds.generated.ts: the T-tables of the `table` backend and its
// unrolled round functions (one block, CBC on words, CBC on bytes, both
// directions). The same 40-56 round lines appear in each function because V8
// only runs them fast unrolled, with constant offsets and module-constant
// tables; writing five copies by hand is error-prone, so they are emitted
// here from one description of a round. The output is committed, and
// src/backends/table-rounds.test.ts checks it is what this script emits.
// Usage: node scripts/gen-table-rounds.mjs [--check]
import { fileURLToPath } from 'node:url';
import { writeOrCheck } from '../../../scripts/codegen.mjs';

const target = fileURLToPath(new URL('../src/backends/table-rounds.generated.ts', import.meta.url));

/** Byte r (row r) of the little-endian column word w, as a table index. */
function rowByte(w, r) {
  if (r === 0) return `${w} & 255`;
  if (r === 3) return `${w} >>> 24`;
  return `(${w} >>> ${8 * r}) & 255`;
}

/**
 * The state column that feeds row r of output column c: ShiftRows takes row r
 * from column c + r (encryption) or c - r (decryption).
 */
function source(prefix, c, r, decrypt) {
  return `${prefix}${(decrypt ? c - r + 4 : c + r) % 4}`;
}

/**
 * A round key reference: `keys` is 'array' (read rk[i] / dk[i]) or 'locals'
 * (k0..k55, with l0..l3 for the last round key, whose index depends on the
 * key length).
 */
function roundKey(schedule, keys, index) {
  if (keys === 'locals') return `k${index}`;
  return `${schedule}[${index}]!`;
}

function lastKey(schedule, keys, c) {
  if (keys === 'locals') return `l${c}`;
  return `${schedule}[k${c === 0 ? '' : ` + ${c}`}]!`;
}

/** All full rounds (1..Nr-1) from s* to t*: 9 always, 2 more for AES-192, 2 more for AES-256. */
function fullRounds(o, indent) {
  const T = o.decrypt ? 'TD' : 'TE';
  const lines = [];
  let keyIndex = 4;
  // Each round is accumulated table by table (all four columns' T0 lookups,
  // then T1, ...) rather than column by column: fewer values are live at once,
  // so V8 spills less (10% faster CBC at 16 KiB, 5% one block).
  const round = (from, to, ind) => {
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) {
        const lookup = `${T}${r}[${rowByte(source(from, c, r, o.decrypt), r)}]!`;
        if (r === 0) lines.push(`${ind}${to}${c} = ${roundKey(o.schedule, o.keys, keyIndex + c)} ^ ${lookup};`);
        else lines.push(`${ind}${to}${c} ^= ${lookup};`);
      }
    }
    keyIndex += 4;
  };
  for (let r = 1; r <= 9; r++) round(r % 2 ? 's' : 't', r % 2 ? 't' : 's', indent);
  lines.push(`${indent}if (rounds > 10) {`);
  round('t', 's', `${indent}  `);
  round('s', 't', `${indent}  `);
  lines.push(`${indent}  if (rounds > 12) {`);
  round('t', 's', `${indent}    `);
  round('s', 't', `${indent}    `);
  lines.push(`${indent}  }`, `${indent}}`);
  return lines;
}

/** The last round's output column c (SubBytes, ShiftRows, AddRoundKey), without the key. */
function lastRound(o, c) {
  const S = o.decrypt ? 'INV_SBOX' : 'SBOX';
  return [0, 1, 2, 3]
    .map((r) => {
      const v = `${S}[${rowByte(source('t', c, r, o.decrypt), r)}]!`;
      return r === 0 ? v : `(${v} << ${8 * r})`;
    })
    .join(' | ');
}

const at = (base, n) => (n === 0 ? base : `${base} + ${n}`);

function readBytesWord(offset, c) {
  const b = (i) => `src[${at(offset, 4 * c + i)}]!`;
  return `(${b(0)} | (${b(1)} << 8) | (${b(2)} << 16) | (${b(3)} << 24))`;
}

function writeBytesWord(offset, c, v) {
  const d = (i) => `dst[${at(offset, 4 * c + i)}]`;
  return `${d(0)} = ${v}; ${d(1)} = ${v} >>> 8; ${d(2)} = ${v} >>> 16; ${d(3)} = ${v} >>> 24;`;
}

function roundKeysToLocals(schedule) {
  const group = (from, to, make) => {
    const items = [];
    for (let i = from; i < to; i++) items.push(make(i));
    const rows = [];
    for (let i = 0; i < items.length; i += 8) rows.push(items.slice(i, i + 8).join(', '));
    return rows;
  };
  const lines = ['  // Round keys in locals: the block loop then reads no schedule array (15% faster at 16 KiB).'];
  const first = group(0, 40, (i) => `k${i} = ${schedule}[${i}]!`);
  lines.push(`  const ${first[0]},`, ...first.slice(1, -1).map((row) => `    ${row},`), `    ${first.at(-1)};`);
  lines.push(
    `  const l0 = ${schedule}[k]!, l1 = ${schedule}[k + 1]!, l2 = ${schedule}[k + 2]!, l3 = ${schedule}[k + 3]!;`,
  );
  const more = group(40, 56, (i) => `k${i} = 0`);
  lines.push(`  let ${more[0]},`, `    ${more[1]};`);
  const load = (from) =>
    group(from, from + 8, (i) => `k${i} = ${schedule}[${i}]!;`)
      .join(' ')
      .replaceAll(';,', ';');
  lines.push('  if (rounds > 10) {', `    ${load(40)}`, '    if (rounds > 12) {', `      ${load(48)}`, '    }', '  }');
  return lines;
}

/**
 * One function. o.shape: 'block' (one block of bytes, no chaining), 'words'
 * (CBC over Int32Array words), 'bytes' (CBC over bytes, words assembled
 * little-endian) or 'mac' (CBC-MAC chaining: bytes in, only the chaining
 * value out, kept in an Int32Array); o.decrypt: direction.
 */
function generateFunction(name, o) {
  const sch = o.schedule;
  const lines = [];
  const emit = (...s) => lines.push(...s);
  if (o.shape === 'block') {
    emit(`export function ${name}(${sch}: Int32Array, src: Uint8Array, dst: Uint8Array): void {`);
  } else if (o.shape === 'mac') {
    emit(
      `export function ${name}(${sch}: Int32Array, state: Int32Array, src: Uint8Array, offset: number, blocks: number, mask: Int32Array | undefined): void {`,
    );
  } else {
    const data =
      o.shape === 'words'
        ? 'src: Int32Array, dst: Int32Array, words: number'
        : 'src: Uint8Array, dst: Uint8Array, length: number';
    emit(
      `export function ${name}(${sch}: Int32Array, ${data}, c0: number, c1: number, c2: number, c3: number): void {`,
    );
  }
  emit(`  const rounds = (${sch}.length >>> 2) - 1;`, `  const k = ${sch}.length - 4;`);
  let ind = '  ';
  let offset = '';
  if (o.shape === 'mac') {
    emit(...roundKeysToLocals(sch));
    emit('  let c0 = state[0]!, c1 = state[1]!, c2 = state[2]!, c3 = state[3]!;');
    emit("  // The mask (CMAC's subkey) goes into the chaining value before the last block; zeros when there is none.");
    emit('  let m0 = 0, m1 = 0, m2 = 0, m3 = 0;');
    emit('  if (mask !== undefined) {', '    m0 = mask[0]!; m1 = mask[1]!; m2 = mask[2]!; m3 = mask[3]!;', '  }');
    emit(
      '  const end = offset + 16 * blocks;',
      '  const lastOff = end - 16;',
      '  for (let o = offset; o < end; o += 16) {',
    );
    emit('    if (o === lastOff) {', '      c0 ^= m0; c1 ^= m1; c2 ^= m2; c3 ^= m3;', '    }');
    ind = '    ';
    offset = 'o';
  } else if (o.shape === 'block') {
    if (o.keys === 'locals') emit(...roundKeysToLocals(sch));
  } else {
    emit(...roundKeysToLocals(sch));
    const [limit, step] = o.shape === 'words' ? ['words', 4] : ['length', 16];
    emit(`  for (let o = 0; o < ${limit}; o += ${step}) {`);
    ind = '    ';
    offset = 'o';
  }
  const input = (c) =>
    o.shape === 'words'
      ? `src[${at('o', c)}]!`
      : readBytesWord(offset || '0', c)
          .replaceAll('[0 + ', '[')
          .replace(/\[0\]/, '[0]');
  if (o.decrypt && o.shape !== 'block') {
    for (let c = 0; c < 4; c++) emit(`${ind}const x${c} = ${input(c)};`);
    for (let c = 0; c < 4; c++) emit(`${ind}let s${c} = x${c} ^ ${roundKey(sch, o.keys, c)};`);
  } else {
    const chain = o.shape === 'block' ? '' : ` ^ c${'{c}'}`;
    for (let c = 0; c < 4; c++)
      emit(`${ind}let s${c} = ${input(c)}${chain.replace('{c}', c)} ^ ${roundKey(sch, o.keys, c)};`);
  }
  emit(`${ind}let t0: number, t1: number, t2: number, t3: number;`);
  emit(...fullRounds(o, ind));
  // Output words: ciphertext (also the next chaining value), or plaintext xor the previous ciphertext.
  const out = o.decrypt ? 'p' : 'c';
  if (o.shape === 'block') {
    // One block: each output byte straight from its S-box lookup and key
    // byte, no word assembled only to be split again (4% faster).
    for (let c = 0; c < 4; c++) {
      const key = lastKey(sch, o.keys, c);
      const bytes = [0, 1, 2, 3].map((r) => {
        const v = `${o.decrypt ? 'INV_SBOX' : 'SBOX'}[${rowByte(source('t', c, r, o.decrypt), r)}]!`;
        return `dst[${4 * c + r}] = ${v} ^ ${r === 0 ? key : `(${key} >>> ${8 * r})`};`;
      });
      emit(`${ind}${bytes.slice(0, 2).join(' ')}`, `${ind}${bytes.slice(2).join(' ')}`);
    }
    emit('}');
    return lines;
  }
  for (let c = 0; c < 4; c++) {
    const value = `(${lastRound(o, c)}) ^ ${lastKey(sch, o.keys, c)}${o.decrypt && o.shape !== 'block' ? ` ^ c${c}` : ''}`;
    if (o.shape === 'words' && o.decrypt) emit(`${ind}dst[${at('o', c)}] = ${value};`);
    else if (o.shape === 'block' || o.decrypt) emit(`${ind}const ${out}${c} = ${value};`);
    else emit(`${ind}c${c} = ${value};`);
  }
  if (o.shape === 'words' && !o.decrypt) for (let c = 0; c < 4; c++) emit(`${ind}dst[${at('o', c)}] = c${c};`);
  if (o.shape !== 'words' && o.shape !== 'mac')
    for (let c = 0; c < 4; c++)
      emit(`${ind}${writeBytesWord(offset || '0', c, `${out}${c}`).replaceAll('[0 + ', '[')}`);
  if (o.decrypt && o.shape !== 'block') for (let c = 0; c < 4; c++) emit(`${ind}c${c} = x${c};`);
  if (o.shape !== 'block') emit('  }');
  if (o.shape === 'mac') emit('  state[0] = c0;', '  state[1] = c1;', '  state[2] = c2;', '  state[3] = c3;');
  emit('}');
  return lines;
}

export function generateTableRounds() {
  const lines = [];
  const emit = (...s) => lines.push(...s);
  emit(
    '// GENERATED by scripts/gen-table-rounds.mjs: do not edit by hand.',
    '// The T-tables and unrolled rounds of the `table` backend (not constant-time:',
    '// every lookup is indexed by secret state). Each column is a little-endian',
    '// word (row 0 in the low byte), so on little-endian hosts CBC can read and',
    '// write whole words through Int32Array views. The tables are module',
    '// constants on purpose: V8 then embeds their addresses in the round code.',
    "import { INV_SBOX, SBOX, gfMul } from '../aes-field.js';",
    '',
    '// TE0[x] = the MixColumns column of S[x] in row 0: bytes (2s, s, s, 3s) for',
    '// rows 0..3; TE1..TE3 are its byte rotations for rows 1..3. TD* are the same',
    '// for InvMixColumns of InvS[x]: (14s, 9s, 13s, 11s).',
  );
  // Not exported: V8 embeds a module-private constant's address in optimized
  // code; an exported binding is read through its cell (CBC decryption
  // measured 1.5x slower when TD0..TD3 were exported).
  for (const t of ['TE', 'TD']) for (let r = 0; r < 4; r++) emit(`const ${t}${r} = new Int32Array(256);`);
  emit(
    'for (let x = 0; x < 256; x++) {',
    '  const s = SBOX[x]!;',
    '  const e = gfMul(s, 2) | (s << 8) | (s << 16) | (gfMul(s, 3) << 24);',
    '  TE0[x] = e;',
    '  TE1[x] = (e << 8) | (e >>> 24);',
    '  TE2[x] = (e << 16) | (e >>> 16);',
    '  TE3[x] = (e << 24) | (e >>> 8);',
    '  const v = INV_SBOX[x]!;',
    '  const d = gfMul(v, 14) | (gfMul(v, 9) << 8) | (gfMul(v, 13) << 16) | (gfMul(v, 11) << 24);',
    '  TD0[x] = d;',
    '  TD1[x] = (d << 8) | (d >>> 24);',
    '  TD2[x] = (d << 16) | (d >>> 16);',
    '  TD3[x] = (d << 24) | (d >>> 8);',
    '}',
    '',
    '/** InvMixColumns(SubBytes(w)) of one column: a middle round key of the equivalent inverse cipher. */',
    'export function invMixColumnOfSubWord(w: number): number {',
    '  return TD0[SBOX[w & 255]!]! ^ TD1[SBOX[(w >>> 8) & 255]!]! ^ TD2[SBOX[(w >>> 16) & 255]!]! ^ TD3[SBOX[w >>> 24]!]!;',
    '}',
    '',
    '/**',
    ' * One block, src[0..16) -> dst[0..16), with the encryption schedule rk. The',
    ' * hot path of one-block users: constant offsets and no chaining or block',
    ' * loop make it about 15% faster in V8 than cbcEncryptBytes with length 16.',
    ' * Round keys are loaded into locals first, as in the loops (72.9 vs 76.2 ns',
    ' * reading them from rk in the rounds). Reads all input before writing, so',
    ' * src and dst may be the same.',
    ' */',
    ...generateFunction('encryptOneBlock', { shape: 'block', decrypt: false, schedule: 'rk', keys: 'locals' }),
    '',
    '/**',
    ' * CBC encryption of `words` 32-bit words (a multiple of 4) of src into dst:',
    ' * C_i = E(P_i xor C_{i-1}), C_0 = (c0, c1, c2, c3). Reads each input block',
    ' * fully before writing its output, so src and dst may be the same array.',
    ' */',
    ...generateFunction('cbcEncryptWords', { shape: 'words', decrypt: false, schedule: 'rk', keys: 'locals' }),
    '',
    '/**',
    ' * CBC decryption, the inverse of cbcEncryptWords: P_i = D(C_i) xor C_{i-1},',
    " * with the equivalent inverse cipher's schedule dk. src and dst may be the same.",
    ' */',
    ...generateFunction('cbcDecryptWords', { shape: 'words', decrypt: true, schedule: 'dk', keys: 'locals' }),
    '',
    '/**',
    ' * cbcEncryptWords on bytes: each word assembled from four bytes (short calls,',
    ' * views not on a 4-byte boundary, big-endian hosts). One offset serves both',
    ' * arrays (about 20% faster in V8 than separate ones).',
    ' */',
    ...generateFunction('cbcEncryptBytes', { shape: 'bytes', decrypt: false, schedule: 'rk', keys: 'locals' }),
    '',
    '/** cbcDecryptWords on bytes, as cbcEncryptBytes; also decrypts single blocks. */',
    ...generateFunction('cbcDecryptBytes', { shape: 'bytes', decrypt: true, schedule: 'dk', keys: 'locals' }),
    '',
    '/**',
    ' * CBC-MAC chaining for MACs (CMAC): state = E(state xor block) for each of',
    ' * `blocks` blocks of src from `offset`, with `mask` XORed into the state',
    ' * before the last block; nothing is written but the four state words',
    ' * (little-endian columns, as everywhere in this file). Round',
    ' * keys in locals even for one block: measured faster than reading the',
    ' * schedule array in the rounds (76 vs 81 ns for one block, 196 vs 230 ns',
    ' * for three).',
    ' */',
    ...generateFunction('cbcMacBytes', { shape: 'mac', decrypt: false, schedule: 'rk', keys: 'locals' }),
  );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeOrCheck(target, generateTableRounds(), 'node scripts/gen-table-rounds.mjs');
}
