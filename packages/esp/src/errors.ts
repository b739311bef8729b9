// The one error type an SA throws for a packet it refuses or cannot produce.
// Callers branch on `.code`; the message says what was wrong and what was expected.

/**
 * Why a packet was refused:
 * - `length`: too short, or the ciphertext is not a whole number of AES blocks
 * - `spi`: the SPI is not this SA's
 * - `auth`: the ICV does not match (forged or corrupted packet)
 * - `replay`: sequence number already seen, zero, or older than the window
 * - `padding`: the authenticated plaintext's padding is not 1, 2, 3, ... or its length is impossible
 * - `sequence`: seal side only, the 32-bit sequence number would wrap (RFC 4303 section 3.3.3: rekey)
 * - `direction`: the SA was created for the other direction
 */
export type EspErrorCode = 'length' | 'spi' | 'auth' | 'replay' | 'padding' | 'sequence' | 'direction';

export class EspError extends Error {
  readonly code: EspErrorCode;

  constructor(code: EspErrorCode, message: string) {
    super(message);
    this.name = 'EspError';
    this.code = code;
  }
}
