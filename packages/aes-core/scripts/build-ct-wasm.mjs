// Generates the `ct` backend's WebAssembly SIMD module: writes its text to
// src/backends/ct.wat (for reading and review) and the assembled bytes, as
// base64 with the memory layout, to src/backends/ct-wasm.generated.ts, so the
// published package carries the module and compiles it synchronously.
// `npm run build` runs this before tsc; ct-wasm.test.ts re-assembles ct.wat and
// runs this script with --check, so neither file can drift from it.
//
// Why generated rather than hand-written: SubBytes is sixteen swizzles per
// state, and CBC decryption interleaves two states; writing that out by hand
// is error-prone, so the text is emitted from one description of a round.
//
// Constant time by construction: no load or store address and no branch
// depends on key or data. SubBytes is OR over h of swizzle(T_h, x - 16h)
// (i8x16.swizzle gives 0 for lane indices >= 16, so only the table whose high
// nibble matches contributes); the T_h are loaded from fixed addresses; the
// shuffles have constant lanes; xtime uses a signed compare as the carry mask.
// Usage: node scripts/build-ct-wasm.mjs [--check]
import { fileURLToPath } from 'node:url';
import { assembleWat as assembleWatText, base64Lines, writeOrCheck } from '../../../scripts/codegen.mjs';

const watPath = fileURLToPath(new URL('../src/backends/ct.wat', import.meta.url));
const tsPath = fileURLToPath(new URL('../src/backends/ct-wasm.generated.ts', import.meta.url));

/**
 * Linear memory (one 64 KiB page, never grown). The S-boxes are written by
 * the JavaScript side at instantiation (from aes-field.ts, the one definition).
 * The key slot holds the round keys of one cipher at a time (240 bytes, zero
 * past a shorter schedule); the chain slot the CBC chaining value between
 * chunks; the data area one chunk of blocks, processed in place.
 */
export const LAYOUT = {
  sboxOffset: 0,
  invSboxOffset: 256,
  keyOffset: 512,
  keyBytes: 240,
  chainOffset: 768,
  dataOffset: 1024,
  chunkBytes: 32768,
};

// Blocks decrypted side by side in CBC decryption. Measured on x64 (16 KiB):
// 1 block 127 us, 2 blocks 113 us, 3 blocks 157 us, 4 blocks 190 us, 8 blocks
// 219 us: beyond two states V8 runs out of the 16 xmm registers and spills.
const DECRYPT_GROUP = 2;

const SHIFT_ROWS = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];
const INV_SHIFT_ROWS = [0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3];
// Byte (row r, column c) sits at lane 4c + r; rotN brings row r + N of the same column to row r.
const ROT1 = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12];
const ROT2 = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];

const get = (name) => `(local.get $${name})`;
const set = (name, expr) => `(local.set $${name} ${expr})`;
const xor = (a, b) => `(v128.xor ${a} ${b})`;
const shuffle = (lanes, x) => `(i8x16.shuffle ${lanes.join(' ')} ${x} ${x})`;
const loadAt = (offset) => `(v128.load offset=${offset} (i32.const 0))`;

/** xtime on every byte: (a + a) ^ (0x1b where the top bit of a was set), no branch. */
const xtime = (a) =>
  `(v128.xor (i8x16.add ${a} ${a}) (v128.and (i8x16.lt_s ${a} (v128.const i64x2 0 0)) ${get('c1b')}))`;

/**
 * SubBytes (or InvSubBytes with the inverse tables) of the states `xs`, in
 * place, interleaved step by step across the states for instruction-level
 * parallelism. Two index chains per state (x - 16h and (x ^ 0x80) - 16h) halve
 * the dependency depth; each step's two terms are ORed into one accumulator
 * per state, so only three values per state are live (more spill on x64).
 */
function subBytes(xs, tableOffset) {
  const out = [];
  xs.forEach((x, b) => {
    out.push(set(`ia${b}`, get(x)));
    out.push(set(`ib${b}`, xor(get(x), get('c80'))));
  });
  for (let k = 0; k < 8; k++) {
    xs.forEach((x, b) => {
      if (k > 0) {
        out.push(set(`ia${b}`, `(i8x16.sub ${get(`ia${b}`)} ${get('c10')})`));
        out.push(set(`ib${b}`, `(i8x16.sub ${get(`ib${b}`)} ${get('c10')})`));
      }
      const pair = `(v128.or (i8x16.swizzle ${loadAt(tableOffset + 16 * k)} ${get(`ia${b}`)}) (i8x16.swizzle ${loadAt(tableOffset + 16 * (k + 8))} ${get(`ib${b}`)}))`;
      // The state itself is dead once both index chains are started: it is the accumulator.
      out.push(set(x, k === 0 ? pair : `(v128.or ${get(x)} ${pair})`));
    });
  }
  return out;
}

/** MixColumns: b = xtime(a ^ rot1 a) ^ rot1 a ^ rot2(a ^ rot1 a). */
function mixColumns(x) {
  return [
    set('r1', shuffle(ROT1, get(x))),
    set('m', xor(get(x), get('r1'))),
    set(x, xor(xor(xtime(get('m')), get('r1')), shuffle(ROT2, get('m')))),
  ];
}

/**
 * InvMixColumns = MixColumns after a ^= 4(a ^ rot2 a): the factorisation
 * 0b x^3 + 0d x^2 + 09 x + 0e = (03 x^3 + x^2 + x + 02)(04 x^2 + 05)
 * (Daemen and Rijmen, The Design of Rijndael, 4.1.3).
 */
function invMixColumns(x) {
  return [set(x, xor(get(x), xtime(xtime(xor(get(x), shuffle(ROT2, get(x))))))), ...mixColumns(x)];
}

const keyAt = (ptr) => `(v128.load offset=${LAYOUT.keyOffset} ${ptr})`;

/**
 * Encrypts the states `xs` (already in locals) with the round keys in the key
 * slot; `$kp` walks the schedule (byte offset from the slot), `$last` is the
 * offset of the last round key: both depend only on the key length.
 */
function encryptStates(xs) {
  return [
    ...xs.map((x) => set(x, xor(get(x), keyAt('(i32.const 0)')))),
    set('kp', '(i32.const 16)'),
    '(loop $round',
    ...xs.map((x) => set(x, shuffle(SHIFT_ROWS, get(x)))),
    ...subBytes(xs, LAYOUT.sboxOffset),
    ...xs.flatMap((x) => [...mixColumns(x), set(x, xor(get(x), keyAt(get('kp'))))]),
    set('kp', `(i32.add ${get('kp')} (i32.const 16))`),
    `(br_if $round (i32.lt_u ${get('kp')} ${get('last')})))`,
    ...xs.map((x) => set(x, shuffle(SHIFT_ROWS, get(x)))),
    ...subBytes(xs, LAYOUT.sboxOffset),
    ...xs.map((x) => set(x, xor(get(x), keyAt(get('last'))))),
  ];
}

/** The straightforward inverse cipher (FIPS 197 5.3) on the encryption schedule. */
function decryptStates(xs) {
  return [
    ...xs.map((x) => set(x, xor(get(x), keyAt(get('last'))))),
    set('kp', `(i32.sub ${get('last')} (i32.const 16))`),
    '(loop $round',
    ...xs.map((x) => set(x, shuffle(INV_SHIFT_ROWS, get(x)))),
    ...subBytes(xs, LAYOUT.invSboxOffset),
    ...xs.flatMap((x) => [set(x, xor(get(x), keyAt(get('kp')))), ...invMixColumns(x)]),
    set('kp', `(i32.sub ${get('kp')} (i32.const 16))`),
    `(br_if $round (i32.gt_u ${get('kp')} (i32.const 0))))`,
    ...xs.map((x) => set(x, shuffle(INV_SHIFT_ROWS, get(x)))),
    ...subBytes(xs, LAYOUT.invSboxOffset),
    ...xs.map((x) => set(x, xor(get(x), keyAt('(i32.const 0)')))),
  ];
}

/** Locals every cipher function declares (unused ones cost nothing once compiled). */
function locals(states) {
  const v128 = ['c10', 'c80', 'c1b', 'r1', 'm', 'chain', ...states];
  for (let b = 0; b < states.length; b++) v128.push(`ia${b}`, `ib${b}`);
  return [
    '(local $kp i32) (local $last i32) (local $p i32) (local $end i32)',
    v128.map((n) => `(local $${n} v128)`).join(' '),
    set('c10', '(i8x16.splat (i32.const 0x10))'),
    set('c80', '(i8x16.splat (i32.const 0x80))'),
    set('c1b', '(i8x16.splat (i32.const 0x1b))'),
    set('last', `(i32.shl ${get('rounds')} (i32.const 4))`),
  ];
}

const dataAt = (ptr, offset = 0) => `(v128.load offset=${LAYOUT.dataOffset + offset} ${ptr})`;
const storeData = (ptr, value, offset = 0) => `(v128.store offset=${LAYOUT.dataOffset + offset} ${ptr} ${value})`;
const chainSlot = `(i32.const ${LAYOUT.chainOffset})`;

function func(header, body) {
  return [`  (func ${header}`, ...body.map((line) => `    ${line}`), '  )'].join('\n');
}

function moduleText() {
  const blockFn = (name, states) =>
    func(`(export "${name}") (param $rounds i32)`, [
      ...locals(['x']),
      set('x', dataAt('(i32.const 0)')),
      ...states(['x']),
      storeData('(i32.const 0)', get('x')),
    ]);

  // C_i = E(P_i ^ C_{i-1}), serial; the chain slot holds C_{i-1} in and out.
  const cbcEncrypt = func('(export "cbc_encrypt") (param $rounds i32) (param $blocks i32)', [
    ...locals(['x']),
    set('chain', `(v128.load ${chainSlot})`),
    set('end', `(i32.shl ${get('blocks')} (i32.const 4))`),
    `(block $done (br_if $done (i32.eqz ${get('end')}))`,
    '(loop $block',
    set('x', xor(dataAt(get('p')), get('chain'))),
    ...encryptStates(['x']),
    storeData(get('p'), get('x')),
    set('chain', get('x')),
    set('p', `(i32.add ${get('p')} (i32.const 16))`),
    `(br_if $block (i32.lt_u ${get('p')} ${get('end')}))))`,
    `(v128.store ${chainSlot} ${get('chain')})`,
  ]);

  // P_i = D(C_i) ^ C_{i-1}: DECRYPT_GROUP independent blocks per iteration,
  // then one at a time. Ciphertexts are re-read from the data area before any
  // output of the group is stored (in place, so the stores overwrite them).
  const group = Array.from({ length: DECRYPT_GROUP }, (_, b) => `x${b}`);
  const groupBytes = 16 * DECRYPT_GROUP;
  const cbcDecrypt = func('(export "cbc_decrypt") (param $rounds i32) (param $blocks i32)', [
    ...locals(group),
    set('chain', `(v128.load ${chainSlot})`),
    set('end', `(i32.shl ${get('blocks')} (i32.const 4))`),
    `(block $groups_done (br_if $groups_done (i32.lt_u ${get('end')} (i32.const ${groupBytes})))`,
    '(loop $group',
    ...group.map((x, b) => set(x, dataAt(get('p'), 16 * b))),
    ...decryptStates(group),
    ...group
      .slice(1)
      .reverse()
      .map((x) => {
        const b = Number(x.slice(1));
        return set(x, xor(get(x), dataAt(get('p'), 16 * (b - 1))));
      }),
    set('x0', xor(get('x0'), get('chain'))),
    set('chain', dataAt(get('p'), groupBytes - 16)),
    ...group.map((x, b) => storeData(get('p'), get(x), 16 * b)),
    set('p', `(i32.add ${get('p')} (i32.const ${groupBytes}))`),
    `(br_if $group (i32.le_u (i32.add ${get('p')} (i32.const ${groupBytes})) ${get('end')}))))`,
    `(block $done (br_if $done (i32.ge_u ${get('p')} ${get('end')}))`,
    '(loop $block',
    set('x0', dataAt(get('p'))),
    ...decryptStates(['x0']),
    set('x0', xor(get('x0'), get('chain'))),
    set('chain', dataAt(get('p'))),
    storeData(get('p'), get('x0')),
    set('p', `(i32.add ${get('p')} (i32.const 16))`),
    `(br_if $block (i32.lt_u ${get('p')} ${get('end')}))))`,
    `(v128.store ${chainSlot} ${get('chain')})`,
  ]);

  // SubWord for the key expansion: the same swizzle S-box on the word's bytes.
  const subWord = func('(export "sub_word") (param $w i32) (result i32)', [
    ...locals(['x']).slice(0, 5),
    set('x', `(i32x4.splat ${get('w')})`),
    ...subBytes(['x'], LAYOUT.sboxOffset),
    `(i32x4.extract_lane 0 ${get('x')})`,
  ]);

  return [
    ';; GENERATED by scripts/build-ct-wasm.mjs: do not edit by hand.',
    ';; AES (FIPS 197) and CBC (SP 800-38A) on WebAssembly SIMD128, constant-time:',
    ';; no memory address and no branch depends on key or data. Layout: see LAYOUT in the script.',
    '(module',
    '  (memory (export "memory") 1 1)',
    blockFn('encrypt_block', encryptStates),
    blockFn('decrypt_block', decryptStates),
    cbcEncrypt,
    cbcDecrypt,
    subWord,
    ')',
    '',
  ].join('\n');
}

/** The module's bytes from its text (SIMD enabled). */
export function assembleWat(text, name = 'ct.wat') {
  return assembleWatText(text, name, { simd: true });
}

export function generatedModuleText(bytes) {
  const layout = Object.entries(LAYOUT).map(([k, v]) => `  ${k}: ${v},`);
  return [
    '// GENERATED by scripts/build-ct-wasm.mjs from ct.wat: do not edit by hand.',
    '// The assembled WebAssembly SIMD module of the `ct` backend, base64, so it',
    '// ships inside the package, and the linear-memory layout it was built for.',
    `export const ctWasmBase64 =\n${base64Lines(bytes)};`,
    '',
    'export const CT_WASM_LAYOUT = {',
    ...layout,
    '} as const;',
    '',
  ].join('\n');
}

export { moduleText };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wat = moduleText();
  writeOrCheck(watPath, wat, 'node scripts/build-ct-wasm.mjs');
  writeOrCheck(tsPath, generatedModuleText(await assembleWat(wat)), 'node scripts/build-ct-wasm.mjs');
}
