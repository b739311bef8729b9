// The one place tests get their vectors and their shared checks from.
// Vectors are data (JSON beside this file); every loader names the file it read.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const vectorsDir = fileURLToPath(new URL('.', import.meta.url));

/** Parse one JSON vector file under `vectors/` (path relative to that folder). */
export function loadVectors<T = unknown>(relativePath: string): T {
  const path = `${vectorsDir}${relativePath}`;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new Error(`cannot load vectors from ${path}: ${(err as Error).message}`);
  }
}

export function hexToBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) {
    throw new TypeError(`not a hex string: ${hex.slice(0, 40)}`);
  }
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(i * 2, 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, '0');
  return s;
}

/** Wycheproof file shape (the fields our tests use). */
export interface WycheproofTest {
  tcId: number;
  comment: string;
  flags: string[];
  result: 'valid' | 'invalid' | 'acceptable';
  [field: string]: unknown;
}
export interface WycheproofGroup {
  type?: string;
  keySize?: number;
  tagSize?: number;
  ivSize?: number;
  tests: WycheproofTest[];
  [field: string]: unknown;
}
export interface WycheproofFile {
  algorithm: string;
  numberOfTests: number;
  testGroups: WycheproofGroup[];
}

export function loadWycheproof(name: string): WycheproofFile {
  const file = loadVectors<WycheproofFile>(`wycheproof/${name}`);
  const counted = file.testGroups.reduce((n, g) => n + g.tests.length, 0);
  if (counted !== file.numberOfTests) {
    throw new Error(`wycheproof/${name}: numberOfTests says ${file.numberOfTests}, found ${counted}`);
  }
  return file;
}

/** Deterministic PRNG for reproducible random tests (xorshift128+ style on 32-bit words). */
export function seededBytes(seed: number): (n: number) => Uint8Array {
  let a = seed >>> 0 || 1;
  let b = 0x9e3779b9;
  return (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      a ^= a << 13;
      a ^= a >>> 17;
      a ^= a << 5;
      b = (b + 0x6d2b79f5) | 0;
      out[i] = (a ^ b) & 0xff;
    }
    return out;
  };
}

/** The streaming object shape shared by hashes and MACs. */
export interface Streaming {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
  reset(): unknown;
  clone(): Streaming;
}

/**
 * one-shot = chunked = cloned = reset: for each chunk size, feeding `msg` in
 * chunks gives `expected`; a clone taken midway finishes to the same value
 * without disturbing the original; reset() returns to the keyed start.
 */
export function checkStreamingEquivalence(
  create: () => Streaming,
  msg: Uint8Array,
  expected: Uint8Array,
  chunkSizes: Iterable<number>,
): void {
  const want = bytesToHex(expected);
  for (const size of chunkSizes) {
    const ctx = create();
    const half = Math.floor(msg.length / 2);
    let cloned: Streaming | undefined;
    for (let off = 0; off < msg.length; off += size) {
      if (cloned === undefined && off >= half) {
        cloned = ctx.clone();
        cloned.update(msg.subarray(off));
      }
      ctx.update(msg.subarray(off, Math.min(off + size, msg.length)));
    }
    expect(bytesToHex(ctx.digest()), `chunk size ${size}`).toBe(want);
    if (cloned) expect(bytesToHex(cloned.digest()), `clone at chunk size ${size}`).toBe(want);
    ctx.reset();
    ctx.update(msg);
    expect(bytesToHex(ctx.digest()), `reset then one update, chunk size ${size}`).toBe(want);
  }
}

// Test helpers that are not vectors, kept in this one home: the documented
// command lines, and the Debian programs some tests need.
export * from './documented-commands.ts';
export * from './programs.ts';
