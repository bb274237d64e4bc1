// The root key's recovery code: the 32-byte Ed25519 seed plus a 3-byte checksum, in RFC 4648 base32,
// printed as 14 groups of 4 characters. Base32 survives handwriting (one case, no 0/1/8/9); the
// checksum catches a typo before a wrong key is ever used.
import { RelayCryptoError } from './errors'
import { concatBytes, sha256, utf8, type Bytes } from './encoding'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
const SEED_BYTES = 32
const CHECKSUM_BYTES = 3
/** Characters of a recovery code without separators ((32 + 3) bytes × 8 / 5 bits). */
export const RECOVERY_CODE_LENGTH = ((SEED_BYTES + CHECKSUM_BYTES) * 8) / 5

// WebCrypto's digest (async) rather than node:crypto's, so that this module loads in the phone's browser.
async function checksum(seed: Bytes): Promise<Bytes> {
  const digest = await sha256(concatBytes(utf8('ask-user/v1/recovery'), seed))
  return digest.slice(0, CHECKSUM_BYTES)
}

function base32(bytes: Bytes): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  // 35 bytes are exactly 56 characters: no partial group, so no padding is ever needed.
  return out
}

function fromBase32(text: string): Bytes | undefined {
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const char of text) {
    const digit = ALPHABET.indexOf(char)
    if (digit < 0) return undefined
    value = ((value << 5) | digit) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return new Uint8Array(out)
}

/** The printable recovery code for a 32-byte root seed: `ABCD-EFGH-…` (14 groups of 4). */
export async function recoveryCodeFromSeed(seed: Bytes): Promise<string> {
  if (seed.byteLength !== SEED_BYTES) throw new RelayCryptoError('KEY_INVALID', 'a root seed is 32 bytes')
  const text = base32(concatBytes(seed, await checksum(seed)))
  return text.match(/.{4}/g)!.join('-')
}

/**
 * The 32-byte root seed in a recovery code as the person typed it: case, spaces and dashes are
 * ignored. Throws `RECOVERY_CODE_INVALID` when a character is not in the code's alphabet, the length is
 * wrong or the checksum does not match (a typo).
 */
export async function seedFromRecoveryCode(typed: string): Promise<Bytes> {
  const text = typed.toUpperCase().replace(/[\s-]/g, '')
  if (text.length !== RECOVERY_CODE_LENGTH) {
    throw new RelayCryptoError(
      'RECOVERY_CODE_INVALID',
      `a recovery code has ${RECOVERY_CODE_LENGTH} letters and digits (got ${text.length}); type it again from the printed sheet`,
    )
  }
  const bytes = fromBase32(text)
  if (bytes === undefined) {
    throw new RelayCryptoError(
      'RECOVERY_CODE_INVALID',
      'a recovery code uses only the letters A–Z and the digits 2–7; check for 0/O and 1/I mix-ups',
    )
  }
  const seed = bytes.subarray(0, SEED_BYTES)
  const expected = await checksum(seed)
  if (!expected.every((byte, index) => byte === bytes[SEED_BYTES + index])) {
    throw new RelayCryptoError(
      'RECOVERY_CODE_INVALID',
      'the recovery code has a typo (its checksum does not match); type it again',
    )
  }
  return new Uint8Array(seed)
}
