import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { describeFirstIssue, errorMessage } from '../../../shared/describe-error'

describe('errorMessage', () => {
  it('takes an Error’s message, and the string form of anything else', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad')
    expect(errorMessage('plain')).toBe('plain')
    expect(errorMessage(42)).toBe('42')
  })
})

describe('describeFirstIssue', () => {
  it('words the first issue as path: message, the root as the message or a named root', () => {
    const nested = z.object({ a: z.object({ b: z.string() }) }).safeParse({ a: { b: 1 } })
    expect(describeFirstIssue(nested.error!.issues)).toBe('a.b: Invalid input: expected string, received number')
    const root = z.string().safeParse(1)
    expect(describeFirstIssue(root.error!.issues)).toBe('Invalid input: expected string, received number')
    expect(describeFirstIssue(root.error!.issues, { root: '(root)' })).toBe('(root): Invalid input: expected string, received number')
    expect(describeFirstIssue([])).toBe('bad shape')
    expect(describeFirstIssue([], { fallback: 'invalid' })).toBe('invalid')
  })
})
