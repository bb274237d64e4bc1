import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh 256-bit secret, base64url (43 characters, valid inside a WebSocket subprotocol token). */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * Compares a presented token with the expected one in constant time: both are hashed to SHA-256 first,
 * so the comparison never leaks the length or a matching prefix. `undefined` never matches.
 */
export function createTokenCheck(expected: string): (presented: string | undefined) => boolean {
  const want = createHash('sha256').update(expected, 'utf8').digest()
  return (presented) => {
    if (presented === undefined) return false
    const got = createHash('sha256').update(presented, 'utf8').digest()
    return timingSafeEqual(want, got)
  }
}
