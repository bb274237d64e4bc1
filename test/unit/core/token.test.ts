import { describe, expect, it } from 'vitest'
import { createTokenCheck, newToken } from '../../../core/token'

describe('token', () => {
  it('is 256 bits of base64url, fresh each time', () => {
    const a = newToken()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a, 'base64url')).toHaveLength(32)
    expect(newToken()).not.toBe(a)
  })
  it('matches only the exact token, whatever the length of the guess', () => {
    const token = newToken()
    const matches = createTokenCheck(token)
    expect(matches(token)).toBe(true)
    for (const guess of [undefined, '', token.slice(0, -1), `${token}x`, token.toUpperCase(), 'x'.repeat(10_000)]) {
      expect(matches(guess)).toBe(false)
    }
  })
})
