import { describe, expect, it, vi } from 'vitest'
import { AskUserError } from '../../../shared/error-codes'
import { toToolQuestion, toUserQuestion } from '../../../agent/question-mapping'
import { UserInteraction, type UserInteractionProvider } from '../../../agent/user-interaction'

const question = { id: 'q1', question: 'Which?' }
const answering = (): UserInteractionProvider & { ask: ReturnType<typeof vi.fn> } => ({
  ask: vi.fn(async () => ({ answers: [{ id: 'q1', selected: [] }] })),
})

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AskUserError)
  return (error as AskUserError).code
}

describe('UserInteraction', () => {
  it('checks in upstream order: aborted, then empty, then no provider', async () => {
    const seam = new UserInteraction()
    const aborted = AbortSignal.abort()
    expect(await codeOf(seam.ask({ questions: [], signal: aborted }))).toBe('ASK_ABORTED')
    expect(await codeOf(seam.ask({ questions: [question], signal: aborted }))).toBe('ASK_ABORTED')
    expect(await codeOf(seam.ask({ questions: [] }))).toBe('EMPTY_QUESTIONS')
    expect(await codeOf(seam.ask({ questions: [question] }))).toBe('NO_PROVIDER')
  })

  it('aborted and empty win over a registered provider, which is then not called', async () => {
    const seam = new UserInteraction()
    const provider = answering()
    seam.registerProvider(provider)
    expect(await codeOf(seam.ask({ questions: [question], signal: AbortSignal.abort() }))).toBe('ASK_ABORTED')
    expect(await codeOf(seam.ask({ questions: [] }))).toBe('EMPTY_QUESTIONS')
    expect(provider.ask).not.toHaveBeenCalled()
  })

  it('passes the request to the provider and returns its answer', async () => {
    const seam = new UserInteraction()
    const provider = answering()
    seam.registerProvider(provider)
    const signal = new AbortController().signal
    const request = { questions: [question], agent: { name: 'me' }, signal }
    await expect(seam.ask(request)).resolves.toEqual({ answers: [{ id: 'q1', selected: [] }] })
    expect(provider.ask).toHaveBeenCalledWith(request)
  })

  it('refuses a second provider with DUPLICATE_PROVIDER; the disposer frees the slot', async () => {
    const seam = new UserInteraction()
    const first = answering()
    const dispose = seam.registerProvider(first)
    expect(seam.hasProvider).toBe(true)
    expect(() => seam.registerProvider(answering())).toThrow(
      expect.objectContaining({ name: 'AskUserError', code: 'DUPLICATE_PROVIDER' }),
    )
    dispose()
    expect(seam.hasProvider).toBe(false)
    expect(await codeOf(seam.ask({ questions: [question] }))).toBe('NO_PROVIDER')
    const second = answering()
    seam.registerProvider(second)
    dispose() // a stale disposer must not remove the newer provider
    await seam.ask({ questions: [question] })
    expect(second.ask).toHaveBeenCalledTimes(1)
    expect(first.ask).not.toHaveBeenCalled()
  })

  it('passes provider errors through unchanged', async () => {
    const seam = new UserInteraction()
    seam.registerProvider({ ask: async () => Promise.reject(new AskUserError('ASK_CANCELLED', 'dismissed')) })
    expect(await codeOf(seam.ask({ questions: [question] }))).toBe('ASK_CANCELLED')
  })
})

describe('question mapping', () => {
  it('copies header, options and multiSelect only when present', () => {
    expect(toUserQuestion({ id: 'a', question: 'q' })).toEqual({ id: 'a', question: 'q' })
    expect(Object.keys(toUserQuestion({ id: 'a', question: 'q' }))).toEqual(['id', 'question'])
    expect(
      toUserQuestion({
        id: 'a',
        question: 'q',
        header: 'H',
        options: [{ label: 'x', description: 'd' }, { label: 'y' }],
        multi_select: false,
        extra: 1,
      }),
    ).toEqual({
      id: 'a',
      question: 'q',
      header: 'H',
      options: [{ label: 'x', description: 'd' }, { label: 'y' }],
      multiSelect: false,
    })
  })

  it('maps multiSelect back to multi_select', () => {
    expect(toToolQuestion({ id: 'a', question: 'q', multiSelect: true, options: [{ label: 'x' }] })).toEqual({
      id: 'a',
      question: 'q',
      options: [{ label: 'x' }],
      multi_select: true,
    })
    expect(toToolQuestion({ id: 'a', question: 'q' })).toEqual({ id: 'a', question: 'q' })
  })
})
