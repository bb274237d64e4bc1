// Nothing lost when an answer and its agent's disconnect cross: an answer sent as the agent's socket
// closes is settled, kept in history as undelivered, and the window is told; an answer arriving just
// after the agent left is refused with words that say so, and history keeps it too.
import { afterEach, expect, it } from 'vitest'
import { AGENT_GONE_REASON, Registry } from '../../../core/registry'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { startCore, type CoreHarness } from '../core/core-harness'
import { askFrame, helloAgent, poll } from '../core/raw-agent'

let core: CoreHarness | undefined
let t: TestCompanion | undefined
afterEach(async () => {
  core?.shutdown()
  core = undefined
  await t?.cleanup()
  t = undefined
})

it("an answer sent as the agent's socket closes: accepted with undelivered, history keeps it as undelivered", async () => {
  core = startCore()
  const agent = await core.helloAgent()
  const window = core.attachWindow()
  agent.send(askFrame('a1'))
  const ask = await window.nextAsk()
  agent.transport.close(1000, 'bye') // the companion's end learns of it on the next microtask
  const reply = await window.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])
  expect(reply).toEqual({ type: 'ask/accepted', askId: ask.askId, outcome: 'answered', undelivered: true })
  expect(agent.frames.filter((frame) => frame.type === 'answer')).toEqual([])
  const history = (await core.hub['ctx'].history({ limit: 10 })).entries
  expect(history).toMatchObject([
    { askId: ask.askId, outcome: 'answered', answers: [{ id: 'q1', selected: ['SQLite'] }], undelivered: true },
  ])
})

it('an answer arriving just after the agent left: rejected with our words, and history keeps it as undelivered', async () => {
  t = await startTestCompanion()
  const agent = await helloAgent(t.companion)
  const window = await connectUi(t.companion)
  agent.send(askFrame('a1'))
  const ask = await window.nextAsk()
  agent.socket.terminate()
  await window.nextFrame((frame) => frame.type === 'question/resolved' && frame.askId === ask.askId)
  const reply = await window.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])
  expect(reply).toEqual({ type: 'rejected', askId: ask.askId, code: 'NOT_PENDING', reason: AGENT_GONE_REASON })
  await poll(async () => (await t!.companion.history()).filter((entry) => entry.askId === ask.askId)).toEqual([
    expect.objectContaining({
      askId: ask.askId,
      outcome: 'agent-gone',
      answers: [{ id: 'q1', selected: ['SQLite'] }],
      undelivered: true,
    }),
  ])
  // A second late answer is plainly NOT_PENDING: the undelivered answer was kept once.
  expect(await window.answer(ask.askId, [{ id: 'q1', selected: [] }])).toMatchObject({
    type: 'rejected',
    code: 'NOT_PENDING',
    reason: `ask ${ask.askId} is not pending (already settled or unknown)`,
  })
  await window.close()
})

it('a late answer that breaks the answer rules is refused INVALID_ANSWER and not kept', async () => {
  core = startCore()
  const agent = await core.helloAgent()
  const window = core.attachWindow()
  agent.send(askFrame('a1'))
  const ask = await window.nextAsk()
  agent.transport.drop()
  await window.nextFrame((frame) => frame.type === 'ask/settled')
  expect(await window.answer(ask.askId, [{ id: 'q1', selected: ['MongoDB'] }])).toMatchObject({
    type: 'ask/rejected',
    code: 'INVALID_ANSWER',
  })
  expect((await core.hub['ctx'].history({ limit: 10 })).entries).toMatchObject([
    { askId: ask.askId, outcome: 'agent-gone' },
  ])
})

it('remembers at most 32 asks whose agent left, for at most 30 s (a late answer past that is plainly NOT_PENDING)', () => {
  let now = 0
  const registry = new Registry(
    () => now,
    () => undefined,
  )
  const owner = { settled: (): boolean => true }
  const questions = [{ id: 'q1', question: 'Which?' }]
  const asks = Array.from({ length: 34 }, (_, i) =>
    registry.add({ kind: 'question', agent: { name: 'x' }, questions, wireId: `w${i}`, owner }),
  )
  for (const ask of asks.slice(0, 33)) registry.settle(ask.askId, { outcome: 'agent-gone' })
  const skip = [{ id: 'q1', selected: [] }]
  expect(registry.answer(asks[0]!.askId, skip)).toMatchObject({
    code: 'NOT_PENDING',
    message: `ask ${asks[0]!.askId} is not pending (already settled or unknown)`,
  })
  expect(registry.answer(asks[1]!.askId, skip)).toEqual({ ok: false, code: 'NOT_PENDING', message: AGENT_GONE_REASON })
  now = 30_001
  expect(registry.answer(asks[2]!.askId, skip)).toMatchObject({
    code: 'NOT_PENDING',
    message: `ask ${asks[2]!.askId} is not pending (already settled or unknown)`,
  })
})
