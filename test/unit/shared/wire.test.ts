import { describe, expect, it } from 'vitest'
import { AskUserError, isAskUserError } from '../../../shared/error-codes'
import { AgentFrameSchema, CompanionFrameSchema, EndpointFileSchema } from '../../../shared/wire'

describe('wire frames v1', () => {
  it('accepts the agent frames of protocol v1 and refuses unknown types', () => {
    expect(
      AgentFrameSchema.safeParse({ type: 'hello', protocol: 1, client: { name: 'a', pid: 1, cwd: '/' } }).success,
    ).toBe(true)
    expect(AgentFrameSchema.safeParse({ type: 'ask', id: 'x', questions: [], title: 't' }).success).toBe(true)
    expect(AgentFrameSchema.safeParse({ type: 'cancel', id: 'x' }).success).toBe(true)
    expect(AgentFrameSchema.safeParse({ type: 'cancel', id: '' }).success).toBe(false)
    expect(AgentFrameSchema.safeParse({ type: 'hello', protocol: 1, client: { name: '' } }).success).toBe(false)
    expect(AgentFrameSchema.safeParse({ type: 'nope' }).success).toBe(false)
  })

  it('leaves a payload to its own check: an ask, approve or notice without one is still a frame', () => {
    // the core words a missing `questions` as the tool does (INVALID_ARGS), not as a bad frame
    expect(AgentFrameSchema.safeParse({ type: 'ask', id: 'x' }).success).toBe(true)
    expect(AgentFrameSchema.safeParse({ type: 'approve', id: 'x' }).success).toBe(true)
    expect(AgentFrameSchema.safeParse({ type: 'notice' }).success).toBe(true)
  })

  it('accepts the companion frames and refuses malformed ones', () => {
    const ok = [
      { type: 'welcome', protocol: 1, server: { name: 's', version: '1' } },
      { type: 'answer', id: 'x', answers: [{ id: 'q', selected: [] }] },
      { type: 'cancelled', id: 'x', code: 'ASK_CANCELLED', message: 'm' },
      { type: 'error', code: 'INVALID_FRAME', message: 'm' },
    ]
    for (const frame of ok) expect(CompanionFrameSchema.safeParse(frame).success).toBe(true)
    const bad = [
      { type: 'answer', id: 'x' },
      { type: 'answer', id: 'x', answers: [{ id: 'q' }] },
      { type: 'cancelled', id: 'x', code: 'ASK_ABORTED', message: 'm' },
      { type: 'error', code: 'MADE_UP', message: 'm' },
      // never sent: shutdown fails each pending ask with ASK_ABORTED
      { type: 'error', code: 'SHUTTING_DOWN', message: 'm' },
    ]
    for (const frame of bad) expect(CompanionFrameSchema.safeParse(frame).success).toBe(false)
  })

  it('reads the discovery file shape', () => {
    expect(
      EndpointFileSchema.safeParse({ protocol: 1, url: 'ws://127.0.0.1:1/v1/agent', token: 't', pid: 2 }).success,
    ).toBe(true)
    expect(EndpointFileSchema.safeParse({ protocol: 1, url: 'u', token: '', pid: 2 }).success).toBe(false)
  })
})

describe('AskUserError', () => {
  it('carries a stable code and is recognised by shape across bundles', () => {
    const error = new AskUserError('NO_PROVIDER', 'none')
    expect([error.name, error.code, error.message]).toEqual(['AskUserError', 'NO_PROVIDER', 'none'])
    expect(isAskUserError(error)).toBe(true)
    const foreign = Object.assign(new Error('x'), { name: 'AskUserError', code: 'ASK_ABORTED' })
    expect(isAskUserError(foreign)).toBe(true)
    expect(isAskUserError(Object.assign(new Error('x'), { name: 'AskUserError', code: 'NOPE' }))).toBe(false)
    expect(isAskUserError({ name: 'AskUserError', code: 'ASK_ABORTED' })).toBe(false)
  })
})
