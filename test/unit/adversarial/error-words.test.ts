// Every error a client can trigger reads in our own words with our own code, never a library's (zod's
// "Invalid input: expected …" included): one test per frame type and field, on the agent endpoint and
// on the UI channel, each asserting the exact reply; and the connection stays usable after each.
import { afterEach, describe, expect, it } from 'vitest'
import type { ErrorFrame } from '../../../shared/wire'
import type { RejectedFrame } from '../../../shared/ui'
import { startCore, type CoreHarness } from '../core/core-harness'
import { AGENT_CASES, UI_CASES } from './error-words-cases'

/** Words only a library would use; none of them may reach a client. */
const LIBRARY_WORDS = /Invalid input|expected .*received|Too (?:small|big)|nonoptional|Unrecognized|ZodError/

let core: CoreHarness | undefined
afterEach(() => {
  core?.shutdown()
  expect(core?.warnings ?? []).toEqual([])
  core = undefined
})

describe('agent endpoint: each refused frame gets our code and words', () => {
  it.each(AGENT_CASES)('$name', async ({ frame, beforeHello, error }) => {
    core = startCore()
    const agent = beforeHello ? core.openAgent() : await core.helloAgent()
    agent.send(frame)
    const reply = await agent.next<ErrorFrame>((f) => f.type === 'error')
    expect(reply).toEqual({ type: 'error', ...error })
    expect(reply.message).not.toMatch(LIBRARY_WORDS)
    expect(core.pending()).toEqual([])
  })
})

describe('UI channel: each refused frame gets rejected INVALID_FRAME in our words', () => {
  it.each(UI_CASES)('$name', async ({ frame, rejected }) => {
    core = startCore()
    const window = core.attachWindow()
    window.send(frame)
    const reply = await window.nextFrame<RejectedFrame>((f) => f.type === 'ask/rejected')
    expect(reply).toEqual({ type: 'ask/rejected', ...rejected })
    expect(reply.reason).not.toMatch(LIBRARY_WORDS)
  })
})
