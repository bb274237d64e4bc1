import { describe, expect, it } from 'vitest'
import { AskUserClient } from '../../../agent/client'
import { validateAsk } from '../../../agent/validated-ask'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { failure } from '../../helpers/errors'

/** The AskUserError `fn` throws. */
const thrown = (fn: () => unknown) => failure(Promise.resolve().then(fn))

describe('validateAsk (the agent side checks questions once, where they enter)', () => {
  it('refuses bad questions before anything connects (INVALID_ARGS, EMPTY_QUESTIONS)', async () => {
    const bad = await thrown(() => validateAsk({ questions: [{ id: 'x' }] }))
    expect(bad.code).toBe('INVALID_ARGS')
    expect(bad.message).toBe('invalid arguments: missing required property "questions[0].question"')
    expect((await thrown(() => validateAsk({ questions: [] }))).code).toBe('EMPTY_QUESTIONS')
  })

  it('returns the arguments as given (extra keys kept), and leaves the caps to the companion unless given', async () => {
    const sixty = { questions: Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, question: '?', extra: i })) }
    expect(validateAsk(sixty)).toEqual(sixty)
    expect((await thrown(() => validateAsk(sixty, DEFAULT_LIMITS))).code).toBe('LIMIT_EXCEEDED')
  })

  it('is the only way to the client (type level): plain arguments do not compile', async () => {
    const client = new AskUserClient({ env: { ASK_USER_HOME: '/nonexistent/ask-user-home' } })
    // @ts-expect-error: tool arguments must go through validateAsk first
    const unchecked = client.ask({ questions: [{ id: 'q', question: '?' }] })
    expect((await failure(unchecked)).code).toBe('NO_PROVIDER')
  })
})
