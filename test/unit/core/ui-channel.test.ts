// The UI channel's protocol (the window hub), in memory: agents over linked transports, windows
// attached to the hub. The UI socket's own framing is in sockets.test.ts; the Companion facade's
// attachWindow and events run over a real companion at the end.
import { afterEach, describe, expect, it } from 'vitest'
import type { Ask, Outcome } from '../../../shared/ask'
import type { UiServerFrame } from '../../../shared/ui'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { startCore, type CoreHarness } from './core-harness'
import { askFrame, helloAgent, poll } from './raw-agent'

let core: CoreHarness | undefined
afterEach(() => {
  core?.shutdown()
  expect(core?.warnings ?? []).toEqual([])
  core = undefined
})
function start(): CoreHarness {
  core = startCore()
  return core
}

describe('UI channel', () => {
  it('sends a snapshot of pending asks on connect, oldest first', async () => {
    const { helloAgent, attachWindow, pending } = start()
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    agent.send(askFrame('a2', { title: 'second' }))
    await poll(() => pending().length).toBe(2)
    const ui = attachWindow()
    expect(ui.snapshot.pending.map((a) => a.title)).toEqual([undefined, 'second'])
    expect(ui.snapshot.pending[0]).toMatchObject({ agent: { name: 'test-agent' }, questions: [{ id: 'q1' }] })
    ui.close()
  })

  it('broadcasts added and resolved to two windows; the first answer wins, the second is refused', async () => {
    const { helloAgent, attachWindow } = start()
    const [w1, w2] = [attachWindow(), attachWindow()]
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    const [ask1, ask2] = await Promise.all([w1.nextAsk(), w2.nextAsk()])
    expect(ask1).toEqual(ask2)
    const first = await w1.answer(ask1.askId, [{ id: 'q1', selected: ['SQLite'] }])
    expect(first).toEqual({ type: 'ask/accepted', askId: ask1.askId, outcome: 'answered' })
    const second = await w2.answer(ask1.askId, [{ id: 'q1', selected: ['Postgres (Recommended)'] }])
    expect(second).toMatchObject({ type: 'ask/rejected', askId: ask1.askId, code: 'NOT_PENDING' })
    for (const w of [w1, w2]) {
      expect(await w.nextFrame((f) => f.type === 'ask/settled')).toEqual({
        type: 'ask/settled',
        askId: ask1.askId,
        outcome: 'answered',
      })
    }
    expect(await agent.next((f) => f.type === 'answer')).toEqual({
      type: 'answer',
      id: 'a1',
      answers: [{ id: 'q1', selected: ['SQLite'] }],
    })
    expect(agent.frames.filter((f) => f.type === 'answer')).toHaveLength(1)
    w1.close()
    w2.close()
  })

  it('refuses an answer that breaks the answer rules with INVALID_ANSWER; the ask stays pending', async () => {
    const { helloAgent, attachWindow, pending } = start()
    const ui = attachWindow()
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    const ask = await ui.nextAsk()
    const reply = await ui.answer(ask.askId, [{ id: 'q1', selected: ['MySQL'] }])
    expect(reply).toEqual({
      type: 'ask/rejected',
      askId: ask.askId,
      code: 'INVALID_ANSWER',
      reason: 'answer 1 ("q1"): "MySQL" is not one of the options',
    })
    expect(pending()).toHaveLength(1)
    expect(await ui.answer(ask.askId, [{ id: 'q1', selected: [], custom: 'MariaDB' }])).toMatchObject({
      type: 'ask/accepted',
    })
    ui.close()
  })

  it('refuses a reply of the wrong kind with INVALID_ANSWER naming the frame to send; both asks stay pending', async () => {
    const { helloAgent, attachWindow, pending } = start()
    const ui = attachWindow()
    const agent = await helloAgent()
    agent.send({
      type: 'approve',
      id: 'p1',
      approval: { tool: 'Bash', action: { kind: 'command', command: 'npm test' } },
    })
    const approval = await ui.nextAsk()
    agent.send(askFrame('a1'))
    const question = await ui.nextAsk()
    expect(await ui.answer(approval.askId, [{ id: 'q1', selected: [] }])).toEqual({
      type: 'ask/rejected',
      askId: approval.askId,
      code: 'INVALID_ANSWER',
      reason: 'this ask is an approval: send ask/decide with a decision (allow or deny), not answers',
    })
    expect(await ui.decide(question.askId, { behavior: 'allow' })).toEqual({
      type: 'ask/rejected',
      askId: question.askId,
      code: 'INVALID_ANSWER',
      reason: 'this ask has questions: send ask/answer with answers, not a decision',
    })
    expect(pending().map((ask) => ask.kind)).toEqual(['approval', 'question'])
    expect(await ui.decide(approval.askId, { behavior: 'allow' })).toEqual({
      type: 'ask/accepted',
      askId: approval.askId,
      outcome: 'decided',
    })
    expect(await ui.nextFrame((f) => f.type === 'ask/settled')).toEqual({
      type: 'ask/settled',
      askId: approval.askId,
      outcome: 'decided',
      decision: { behavior: 'allow' },
    })
    ui.close()
  })

  it('dismiss sends cancelled ASK_CANCELLED to the agent', async () => {
    const { helloAgent, attachWindow } = start()
    const ui = attachWindow()
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    const ask = await ui.nextAsk()
    expect(await ui.dismiss(ask.askId)).toEqual({ type: 'ask/accepted', askId: ask.askId, outcome: 'cancelled' })
    expect(await agent.next((f) => f.type === 'cancelled')).toEqual({
      type: 'cancelled',
      id: 'a1',
      code: 'ASK_CANCELLED',
      message: 'the user cancelled ask_user_question',
    })
    expect(await ui.nextFrame((f) => f.type === 'ask/settled')).toMatchObject({ outcome: 'cancelled' })
    expect(await ui.dismiss(ask.askId)).toMatchObject({ type: 'ask/rejected', code: 'NOT_PENDING' })
    ui.close()
  })

  it('rejects malformed frames with INVALID_FRAME and keeps going', async () => {
    const ui = start().attachWindow()
    const isRejected = (f: UiServerFrame): boolean => f.type === 'ask/rejected'
    ui.send('nope')
    expect(await ui.nextFrame(isRejected)).toEqual({
      type: 'ask/rejected',
      askId: '',
      code: 'INVALID_FRAME',
      reason: 'a frame must be a JSON object',
    })
    ui.send({ type: 'ask/answer', askId: 'x', answers: 'no' })
    expect(await ui.nextFrame(isRejected)).toMatchObject({ askId: 'x', code: 'INVALID_FRAME' })
    ui.send({ type: 'launch' })
    expect(await ui.nextFrame(isRejected)).toMatchObject({
      askId: '',
      code: 'INVALID_FRAME',
      reason: 'unknown frame type "launch"',
    })
    ui.send({ type: 1 })
    expect(await ui.nextFrame(isRejected)).toMatchObject({
      code: 'INVALID_FRAME',
      reason: 'a frame needs a string "type"',
    })
    ui.send({ type: 'history/get', limit: 0 })
    expect(await ui.nextFrame(isRejected)).toMatchObject({ code: 'INVALID_FRAME' })
    ui.send({ type: 'ask/answer', askId: 'unknown', answers: [] })
    expect(await ui.nextFrame(isRejected)).toMatchObject({ askId: 'unknown', code: 'NOT_PENDING' })
    ui.close()
  })

  it('answers history/get with settled asks, newest first', async () => {
    const { helloAgent, attachWindow } = start()
    const ui = attachWindow()
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    const ask = await ui.nextAsk()
    await ui.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])
    agent.send(askFrame('a2'))
    const ask2 = await ui.nextAsk()
    await ui.dismiss(ask2.askId)
    ui.send({ type: 'history/get', limit: 10 })
    const history = await ui.nextFrame((f) => f.type === 'history')
    expect(history).toMatchObject({
      entries: [
        { askId: ask2.askId, outcome: 'cancelled' },
        { askId: ask.askId, outcome: 'answered', answers: [{ id: 'q1', selected: ['SQLite'] }] },
      ],
    })
    ui.close()
  })
})

describe('attachWindow (IPC windows) and events', () => {
  let t: TestCompanion | undefined
  afterEach(async () => {
    await t?.cleanup()
    t = undefined
  })

  it('delivers snapshot and broadcasts as objects, accepts frames through receive()', async () => {
    t = await startTestCompanion()
    const frames: UiServerFrame[] = []
    const window = t.companion.attachWindow((frame) => frames.push(frame))
    expect(frames).toEqual([{ type: 'snapshot', pending: [] }])
    const added: Ask[] = []
    const resolved: Array<[string, Outcome]> = []
    const offAdded = t.companion.on('added', (ask) => added.push(ask))
    const offResolved = t.companion.on('resolved', (askId, outcome) => resolved.push([askId, outcome]))
    const agent = await helloAgent(t.companion)
    agent.send(askFrame('a1'))
    await poll(() => added.length).toBe(1)
    const askId = added[0]!.askId
    expect(frames[1]).toEqual({ type: 'ask/added', ask: added[0] })
    window.receive({ type: 'ask/answer', askId, answers: [{ id: 'q1', selected: [] }] })
    expect(frames.slice(2)).toEqual([
      { type: 'ask/settled', askId, outcome: 'answered' },
      { type: 'ask/accepted', askId, outcome: 'answered' },
    ])
    expect(resolved).toEqual([[askId, 'answered']])
    window.close()
    offAdded()
    offResolved()
    agent.send(askFrame('a2'))
    await poll(() => t!.companion.pending().length).toBe(1)
    expect(frames).toHaveLength(4)
    expect(added).toHaveLength(1)
  })
})
