// Competitor SHA-1 and HMAC-SHA1 implementations behind one shape, for the
// side-by-side rows of the sha1 and hmac suites. Each adapter drives its
// library the fastest way that library's API allows, and says how in `note`.
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha1 as nobleSha1 } from '@noble/hashes/legacy.js';
import { HmacSha1 as AsmHmacSha1, Sha1 as AsmSha1 } from 'asmcrypto.js';
import { createHMAC, createSHA1, type IHasher } from 'hash-wasm';

export interface Sha1Peer {
  /** Library name as printed in bench rows, e.g. '@noble/hashes'. */
  name: string;
  /** Short id for case ids and params.impl, e.g. 'noble'. */
  id: string;
  /** How the adapter drives the library (what a measured row includes). */
  note: string;
  /** Async set-up some libraries need before first use (hash-wasm compiles its module). */
  init?(): Promise<void>;
  /** SHA-1 of a whole message. */
  sha1(msg: Uint8Array): Uint8Array;
  /** One-shot HMAC-SHA1: keys, MACs, discards. Absent when the library has no synchronous one. */
  hmacSha1?(key: Uint8Array, msg: Uint8Array): Uint8Array;
  /** Keys once (as far as the library allows) and returns the per-message MAC. Absent without HMAC. */
  createHmacSha1?(key: Uint8Array): Promise<(msg: Uint8Array) => Uint8Array>;
}

const asBytes = (b: Uint8Array | ArrayBuffer): Uint8Array => (b instanceof Uint8Array ? b : new Uint8Array(b));

const noble: Sha1Peer = {
  name: '@noble/hashes',
  id: 'noble',
  note: 'sha1(msg); HMAC: hmac.create(sha1, key) once, then clone().update(msg).digest() per message',
  sha1: (msg) => nobleSha1(msg),
  hmacSha1: (key, msg) => nobleHmac(nobleSha1, key, msg),
  async createHmacSha1(key) {
    const keyed = nobleHmac.create(nobleSha1, key);
    return (msg) => keyed.clone().update(msg).digest();
  },
};

let hashWasmSha1: IHasher | undefined;
const hashWasm: Sha1Peer = {
  name: 'hash-wasm',
  id: 'hash-wasm',
  note: 'one createSHA1() hasher reused: init().update(msg).digest("binary"); HMAC: createHMAC(createSHA1(), key) once, init() per message',
  async init() {
    hashWasmSha1 ??= await createSHA1();
  },
  sha1(msg) {
    if (hashWasmSha1 === undefined) throw new Error('hash-wasm peer: call init() first');
    return hashWasmSha1.init().update(msg).digest('binary');
  },
  async createHmacSha1(key) {
    const h = await createHMAC(createSHA1(), key);
    return (msg) => h.init().update(msg).digest('binary');
  },
};

const asmcrypto: Sha1Peer = {
  name: 'asmcrypto.js',
  id: 'asmcrypto',
  note: 'one Sha1 object reused: reset().process(msg).finish().result; HMAC: one HmacSha1(key), reset() per message',
  sha1: (() => {
    const h = new AsmSha1();
    return (msg: Uint8Array) => h.reset().process(msg).finish().result!.slice();
  })(),
  hmacSha1: (key, msg) => new AsmHmacSha1(key).process(msg).finish().result!.slice(),
  async createHmacSha1(key) {
    const h = new AsmHmacSha1(key);
    return (msg) => h.reset().process(msg).finish().result!.slice();
  },
};

interface RushaHash {
  update(data: Uint8Array): RushaHash;
  digest(): ArrayBuffer;
}
const Rusha = createRequire(import.meta.url)('rusha') as { createHash(): RushaHash };
const rusha: Sha1Peer = {
  name: 'rusha',
  id: 'rusha',
  note: 'Rusha.createHash().update(msg).digest() per message (no HMAC)',
  sha1: (msg) => asBytes(Rusha.createHash().update(msg).digest()),
};

const node: Sha1Peer = {
  name: 'node:crypto',
  id: 'node-crypto',
  note: "createHash('sha1') per message; HMAC: createHmac('sha1', key) per message (node:crypto cannot keep a keyed HMAC across messages)",
  sha1: (msg) => asBytes(createHash('sha1').update(msg).digest()),
  hmacSha1: (key, msg) => asBytes(createHmac('sha1', key).update(msg).digest()),
  async createHmacSha1(key) {
    return (msg) => asBytes(createHmac('sha1', key).update(msg).digest());
  },
};

/** Every SHA-1 peer; call each peer's init() (if any) before use. */
export const sha1Peers: readonly Sha1Peer[] = [noble, hashWasm, asmcrypto, rusha, node];
