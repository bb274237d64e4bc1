// UI channel v1 stays served (deprecated): a script written against v1 reads the same text as before,
// and an old tab of our own page is told to reload. The v1 frames below are recorded from main at 3e6b407.
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { parseEntries } from '../../../core/history'
import { RELOAD_NOTICE, toV1Frame, UI_V1_SUBPROTOCOL } from '../../../core/ui-v1'
import type { Ask, HistoryEntry } from '../../../shared/ask'
import { UI_SUBPROTOCOL } from '../../../shared/ui'
import { connectUi } from '../../helpers/ui-client'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { WAIT_MS } from '../../helpers/waits'

const approval: Ask = {
  askId: 'k1',
  kind: 'approval',
  agent: { name: 'claude-code' },
  approval: { tool: 'Bash', action: { kind: 'command', command: 'rm -rf build' } },
  receivedAt: 1_700_000_000_000,
}

describe('v1 frames, translated at the edge', () => {
  it('an approval is sent as v1 sent it: questions: [] and the approval, in v1 order', () => {
    expect(JSON.stringify(toV1Frame({ type: 'ask/added', ask: approval }))).toBe(
      '{"type":"question/added","ask":{"askId":"k1","agent":{"name":"claude-code"},"questions":[],"receivedAt":1700000000000,"approval":{"tool":"Bash","action":{"kind":"command","command":"rm -rf build"}}}}',
    )
  })

  it('a decided approval settles as answered; accepted and rejected keep their v1 names', () => {
    const decision = { behavior: 'deny' as const, message: 'no' }
    expect(toV1Frame({ type: 'ask/settled', askId: 'k1', outcome: 'decided', decision })).toEqual({
      type: 'question/resolved',
      askId: 'k1',
      outcome: 'answered',
    })
    expect(toV1Frame({ type: 'ask/accepted', askId: 'k1', outcome: 'decided' })).toEqual({
      type: 'accepted',
      askId: 'k1',
      outcome: 'answered',
    })
    expect(toV1Frame({ type: 'ask/rejected', askId: 'k1', code: 'NOT_PENDING', reason: 'r' })).toEqual({
      type: 'rejected',
      askId: 'k1',
      code: 'NOT_PENDING',
      reason: 'r',
    })
  })

  it('a decided approval in history reads as v1 wrote it', () => {
    const entry: HistoryEntry = {
      ...approval,
      outcome: 'decided',
      settledAt: 1_700_000_000_500,
      decision: { behavior: 'allow', always: true },
    }
    expect(toV1Frame({ type: 'history', entries: [entry], more: false })).toEqual({
      type: 'history',
      entries: [
        {
          askId: 'k1',
          agent: { name: 'claude-code' },
          questions: [],
          receivedAt: 1_700_000_000_000,
          approval: approval.approval,
          outcome: 'answered',
          settledAt: 1_700_000_000_500,
          decision: { behavior: 'allow', always: true },
        },
      ],
      more: false,
    })
  })
})

describe('history written by an earlier version', () => {
  it('loads a v1 approval line as a decided approval and a v1 question line as a question ask', () => {
    const v1Approval =
      '{"askId":"k1","agent":{"name":"claude-code"},"questions":[],"receivedAt":1,"approval":{"tool":"Bash","action":{"kind":"command","command":"ls"}},"outcome":"answered","settledAt":2,"decision":{"behavior":"deny","message":"not now"}}'
    const v1Question =
      '{"askId":"k2","agent":{"name":"a"},"questions":[{"id":"q1","question":"Which?"}],"receivedAt":3,"outcome":"answered","settledAt":4,"answers":[{"id":"q1","selected":["A"]}]}'
    expect(parseEntries(`${v1Approval}\n${v1Question}\n`)).toEqual([
      {
        askId: 'k1',
        kind: 'approval',
        agent: { name: 'claude-code' },
        receivedAt: 1,
        settledAt: 2,
        approval: { tool: 'Bash', action: { kind: 'command', command: 'ls' } },
        outcome: 'decided',
        decision: { behavior: 'deny', message: 'not now' },
      },
      {
        askId: 'k2',
        kind: 'question',
        agent: { name: 'a' },
        receivedAt: 3,
        settledAt: 4,
        questions: [{ id: 'q1', question: 'Which?' }],
        outcome: 'answered',
        answers: [{ id: 'q1', selected: ['A'] }],
      },
    ])
  })
})

describe('v1 and v2 on the socket', () => {
  let t: TestCompanion | undefined
  afterEach(async () => {
    await t?.cleanup()
    t = undefined
  })

  it('a v2 window gets ask/* frames; a v1 script the same session in v1 names', async () => {
    t = await startTestCompanion()
    const v1 = await connectUi(t.companion)
    const v2 = new WebSocket(t.companion.uiUrl, [UI_SUBPROTOCOL, `token.${t.companion.windowCredential()}`])
    const v2Frames: unknown[] = []
    v2.on('message', (data) => v2Frames.push(JSON.parse(String(data))))
    await new Promise((resolve) => v2.once('open', resolve))
    expect(v2.protocol).toBe('ask-user.ui.v2')
    expect(v1.socket.protocol).toBe(UI_V1_SUBPROTOCOL)
    expect(v1.snapshot.notices).toBeUndefined() // a script sends no Origin: no reload notice
    v2.send(JSON.stringify({ type: 'answer', askId: 'x', answers: [] }))
    await expect
      .poll(() => v2Frames.at(-1), { timeout: WAIT_MS })
      .toEqual({ type: 'ask/rejected', askId: 'x', code: 'INVALID_FRAME', reason: 'unknown frame type "answer"' })
    v2.close()
    await v1.close()
  })

  it('an old tab of our own page (v1 only, our Origin) is told to reload in its snapshot', async () => {
    t = await startTestCompanion()
    const origin = `http://127.0.0.1:${t.companion.port}`
    const tab = await connectUi(t.companion, { headers: { Origin: origin } })
    expect(tab.snapshot.notices).toEqual([RELOAD_NOTICE])
    expect(RELOAD_NOTICE.notice.text).toBe('The companion was updated: reload this page.')
    await tab.close()
  })
})
