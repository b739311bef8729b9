// Shared by the packages' code generators (aes-core's T-table rounds and `ct`
// WebAssembly module, sha1-dispatch's unrolled rounds and WebAssembly module):
// write a generated file or check that the committed one is current, and
// assemble WebAssembly text with wabt. Build tooling only: no package ships it.
import { readFileSync, writeFileSync } from 'node:fs';
import wabtInit from 'wabt';

/**
 * Writes `text` to `path`; with --check on the command line, writes nothing
 * and exits 1 when the committed file differs from what was generated.
 */
export function writeOrCheck(path, text, howToRegenerate) {
  if (process.argv.includes('--check')) {
    if (readFileSync(path, 'utf8') !== text) {
      console.error(`${path} is stale: run ${howToRegenerate}`);
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
  }
}

/** The bytes of a WebAssembly module from its text (`features` as wabt's parseWat takes them, e.g. { simd: true }). */
export async function assembleWat(text, name, features = {}) {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(name, text, features);
  try {
    mod.resolveNames();
    mod.validate();
    return Uint8Array.from(mod.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    mod.destroy();
  }
}

/** `bytes` as base64 string-literal lines (100 characters each) for a generated TypeScript module. */
export function base64Lines(bytes) {
  const b64 = Buffer.from(bytes).toString('base64');
  const lines = [];
  for (let i = 0; i < b64.length; i += 100) lines.push(`  '${b64.slice(i, i + 100)}'`);
  return lines.join(' +\n');
}
