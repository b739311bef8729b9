// The wasm-simd experiment (not shipped): a SHA-1 block function whose
// message schedule is computed four words at a time with SIMD128 (W+K stored
// for the rounds, the lane-3 dependency fixed up with a shuffle), assembled
// here and timed against the shipped scalar module, interleaved, on 64 KiB
// per call. The README's SIMD figures come from this script:
//   npm run build && node scripts/simd-experiment.mjs
import wabtInit from 'wabt';
import { emitRoundsToEnd, get, K } from './gen-wat.mjs';
import { decodeBase64 } from '../dist/backends/wasm.js';
import { sha1WasmBase64 } from '../dist/backends/sha1-wasm.generated.js';

const WK = 512; // W+K for the 80 rounds; data at 1024
const out = [];
const emit = (s) => out.push(s);
emit('(module');
emit('  (memory (export "memory") 2)');
emit('  (func (export "blocks") (param $p i32) (param $n i32)');
emit('    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $e i32)');
emit('    (local $h0 i32) (local $h1 i32) (local $h2 i32) (local $h3 i32) (local $h4 i32)');
emit('    (local $v v128) (local $r v128) (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)');
for (let i = 0; i < 5; i++) emit(`    (local.set $h${i} (i32.load offset=${i * 4} (i32.const 0)))`);
emit('    (block $done (loop $next');
emit(`      (br_if $done (i32.eqz ${get('n')}))`);
const bswap = 'i8x16.shuffle 3 2 1 0 7 6 5 4 11 10 9 8 15 14 13 12';
for (let q = 0; q < 4; q++) {
  emit(`      (local.set $x${q} (${bswap} (v128.load offset=${q * 16} ${get('p')}) (v128.const i32x4 0 0 0 0)))`);
  emit(
    `      (v128.store offset=${WK + q * 16} (i32.const 0) (i32x4.add ${get(`x${q}`)} (v128.const i32x4 ${K[0]} ${K[0]} ${K[0]} ${K[0]})))`,
  );
}
for (let t = 16; t < 80; t += 4) {
  // x0 = W[t-16..t-13], x1 = W[t-12..t-9], x2 = W[t-8..t-5], x3 = W[t-4..t-1]
  const w14 = `(i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 ${get('x0')} ${get('x1')})`;
  const w3z = `(i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 ${get('x3')} (v128.const i32x4 0 0 0 0))`;
  emit(`      (local.set $v (v128.xor (v128.xor (v128.xor ${get('x0')} ${w14}) ${get('x2')}) ${w3z}))`);
  emit(`      (local.set $r (v128.or (i32x4.shl ${get('v')} (i32.const 1)) (i32x4.shr_u ${get('v')} (i32.const 31))))`);
  emit(
    `      (local.set $v (i8x16.shuffle 16 17 18 19 16 17 18 19 16 17 18 19 0 1 2 3 (v128.or (i32x4.shl ${get('r')} (i32.const 1)) (i32x4.shr_u ${get('r')} (i32.const 31))) (v128.const i32x4 0 0 0 0)))`,
  );
  emit(`      (local.set $r (v128.xor ${get('r')} ${get('v')}))`);
  const k = K[Math.floor(t / 20)];
  emit(
    `      (v128.store offset=${WK + t * 4} (i32.const 0) (i32x4.add ${get('r')} (v128.const i32x4 ${k} ${k} ${k} ${k})))`,
  );
  emit(
    `      (local.set $x0 ${get('x1')}) (local.set $x1 ${get('x2')}) (local.set $x2 ${get('x3')}) (local.set $x3 ${get('r')})`,
  );
}
emit(
  `      (local.set $a ${get('h0')}) (local.set $b ${get('h1')}) (local.set $c ${get('h2')}) (local.set $d ${get('h3')}) (local.set $e ${get('h4')})`,
);
emitRoundsToEnd(emit, '      ', (r, E) => `(i32.add ${get(E)} (i32.load offset=${WK + r * 4} (i32.const 0)))`);
const simdWat = `${out.join('\n')}\n`;

const wabt = await wabtInit();
const mod = wabt.parseWat('sha1-simd.wat', simdWat, { simd: true });
mod.validate();
const simdBytes = Uint8Array.from(mod.toBinary({}).buffer);
mod.destroy();

/** Raw compression of `msg` (a multiple of 64 bytes, at most 64 KiB) from the IV; returns h0. */
function compressWith(bytes, dataOffset) {
  const ex = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  const mem = new Uint8Array(ex.memory.buffer);
  const dv = new DataView(ex.memory.buffer);
  const iv = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  return (msg) => {
    for (const [i, w] of iv.entries()) dv.setUint32(i * 4, w, true);
    mem.set(msg, dataOffset);
    ex.blocks(dataOffset, msg.length / 64);
    return dv.getUint32(0, true);
  };
}
const simd = compressWith(simdBytes, 1024);
const scalar = compressWith(decodeBase64(sha1WasmBase64), 64);
const msg = new Uint8Array(65536).map((_, i) => (i * 131 + 7) & 0xff);
if (simd(msg) !== scalar(msg) || simd(msg.subarray(0, 128)) !== scalar(msg.subarray(0, 128)))
  throw new Error('SIMD result differs from scalar');

const rounds = 200,
  warm = 20,
  reps = 4;
const a = [],
  b = [];
for (let r = 0; r < rounds; r++) {
  let t0 = performance.now();
  for (let i = 0; i < reps; i++) scalar(msg);
  const ta = (performance.now() - t0) / reps;
  t0 = performance.now();
  for (let i = 0; i < reps; i++) simd(msg);
  const tb = (performance.now() - t0) / reps;
  if (r >= warm) {
    a.push(ta);
    b.push(tb);
  }
}
const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * p)];
const fmt = (xs) =>
  `min ${(q(xs, 0) * 1000).toFixed(1)} us, p25 ${(q(xs, 0.25) * 1000).toFixed(1)} us, median ${(q(xs, 0.5) * 1000).toFixed(1)} us`;
console.log(`64 KiB per call, ${rounds - warm} interleaved rounds`);
console.log(`scalar wasm: ${fmt(a)}`);
console.log(`simd wasm:   ${fmt(b)}`);
console.log(`simd / scalar: min ${(q(b, 0) / q(a, 0)).toFixed(3)}, p25 ${(q(b, 0.25) / q(a, 0.25)).toFixed(3)}`);
