import { describe, expect, it } from 'vitest'
import { errorMessage } from '../../../shared/describe-error'

describe('errorMessage', () => {
  it('takes an Error’s message, and the string form of anything else', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad')
    expect(errorMessage('plain')).toBe('plain')
    expect(errorMessage(42)).toBe('42')
  })
})
