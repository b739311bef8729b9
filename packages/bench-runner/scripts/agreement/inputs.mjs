// The suites' inputs (apps/cli/src/suites), so each referee does exactly its case's work.
export const aesKey = (keyBytes) => Uint8Array.from({ length: keyBytes }, (_, i) => (0x2b + 7 * i) & 0xff);
export const aesBlock = () => Uint8Array.from({ length: 16 }, (_, i) => (i * i + 0x5c) & 0xff);
export const seedKey = (keyBytes) => Uint8Array.from({ length: keyBytes }, (_, i) => (i * i + 0x23) & 0xff);
export const seedPacket = (bytes) => Uint8Array.from({ length: bytes }, (_, i) => (i * i + 0x31) & 0xff);
export const sha1Message = seedPacket;
