// Wire protocol v1 as the core speaks it, over linked in-memory transports (no HTTP server, no
// socket): hello/welcome, frame errors, asks, cancels and closes. Framing over real sockets (binary
// frames, 1009) is in sockets.test.ts, the upgrade checks in handshake.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { ErrorFrame } from '../../../shared/wire'
import { startCore, type CoreHarness, type CoreOptions, type PairAgent } from './core-harness'
import { askFrame, poll } from './raw-agent'
import { asQuestion } from '../../helpers/ask-kinds'

let core: CoreHarness | undefined
afterEach(() => {
  core?.shutdown()
  expect(core?.warnings ?? []).toEqual([])
  core = undefined
})
function start(options: CoreOptions = {}): CoreHarness {
  core = startCore(options)
  return core
}
const nextError = (agent: PairAgent): Promise<ErrorFrame> => agent.next<ErrorFrame>((f) => f.type === 'error')

describe('hello', () => {
  it('answers hello with welcome {protocol, server}', async () => {
    const agent = start({ serverInfo: { name: 'test-companion', version: '9.9.9' } }).openAgent()
    agent.send({ type: 'hello', protocol: 1, client: { name: 'x' } })
    expect(await agent.next()).toEqual({
      type: 'welcome',
      protocol: 1,
      server: { name: 'test-companion', version: '9.9.9' },
    })
  })
  it('refuses an unsupported protocol with UNSUPPORTED_PROTOCOL, then closes', async () => {
    const agent = start().openAgent()
    agent.send({ type: 'hello', protocol: 2, client: { name: 'x' } })
    expect(await nextError(agent)).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL' })
    expect((await agent.closed).code).toBe(1002)
  })
  it('refuses a second hello with INVALID_FRAME and stays usable', async () => {
    const { helloAgent, pending } = start()
    const agent = await helloAgent()
    agent.send({ type: 'hello', protocol: 1, client: { name: 'x' } })
    expect(await nextError(agent)).toMatchObject({
      code: 'INVALID_FRAME',
      message: 'hello was already received on this connection',
    })
    agent.send(askFrame('a1'))
    await poll(() => pending().length).toBe(1)
  })
  it('refuses a malformed hello after the first as a second hello', async () => {
    const agent = await start().helloAgent()
    agent.send({ type: 'hello', protocol: 'one' })
    expect(await nextError(agent)).toEqual({
      type: 'error',
      code: 'INVALID_FRAME',
      message: 'hello was already received on this connection',
    })
  })
  it('shows windows who asks: the hello’s client without its version or extra keys', async () => {
    const { openAgent, attachWindow, pending } = start()
    const agent = openAgent()
    agent.send({
      type: 'hello',
      protocol: 1,
      client: { name: 'bot', version: '2.0', pid: 7, cwd: '/work', title: 'Fix', extra: { deep: 1 } },
    })
    await agent.next((frame) => frame.type === 'welcome')
    agent.send(askFrame('a1'))
    await poll(() => pending().length).toBe(1)
    expect(attachWindow().snapshot.pending[0]?.agent).toEqual({ name: 'bot', pid: 7, cwd: '/work', title: 'Fix' })
  })
  it('carries the harness session id to windows, and refuses one over 200 characters with LIMIT_EXCEEDED', async () => {
    const { openAgent, attachWindow, pending } = start()
    const long = openAgent()
    long.send({ type: 'hello', protocol: 1, client: { name: 'bot', session: 's'.repeat(201) } })
    expect(await nextError(long)).toEqual({
      type: 'error',
      code: 'LIMIT_EXCEEDED',
      message: 'limit exceeded: "client.session" is longer than 200 characters',
    })
    const agent = openAgent()
    agent.send({ type: 'hello', protocol: 1, client: { name: 'bot', session: 's'.repeat(200) } })
    await agent.next((frame) => frame.type === 'welcome')
    agent.send(askFrame('a1'))
    await poll(() => pending().length).toBe(1)
    expect(attachWindow().snapshot.pending[0]?.agent).toEqual({ name: 'bot', session: 's'.repeat(200) })
  })
  it('refuses an ask before hello with INVALID_FRAME', async () => {
    const agent = start().openAgent()
    agent.send(askFrame('a1'))
    expect(await nextError(agent)).toEqual({
      type: 'error',
      id: 'a1',
      code: 'INVALID_FRAME',
      message: 'the first frame must be hello',
    })
  })
  it('closes an agent that never says hello (1008)', async () => {
    const agent = start({ helloTimeoutMs: 100 }).openAgent()
    expect(await agent.closed).toEqual({ code: 1008, reason: 'no hello in time' })
  })
})

describe('frame errors (the connection stays usable)', () => {
  it('answers non-JSON, non-objects, unknown types and binary frames with INVALID_FRAME', async () => {
    const { helloAgent, pending } = start()
    const agent = await helloAgent()
    agent.send('{not json')
    expect(await nextError(agent)).toEqual({
      type: 'error',
      code: 'INVALID_FRAME',
      message: 'the frame is not valid JSON',
    })
    agent.send('[1,2]')
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME', message: 'a frame must be a JSON object' })
    agent.send({ type: 'subscribe', id: 'z' })
    expect(await nextError(agent)).toEqual({
      type: 'error',
      id: 'z',
      code: 'INVALID_FRAME',
      message: 'unknown frame type "subscribe"',
    })
    agent.transport.sendBinary()
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME', message: expect.stringContaining('binary') })
    agent.send({ type: 'ask', id: '', questions: [] })
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME' })
    agent.send({ ...askFrame('t1'), title: 5 })
    expect(await nextError(agent)).toEqual({
      type: 'error',
      id: 't1',
      code: 'INVALID_FRAME',
      message: 'invalid ask: "title" must be a string',
    })
    agent.send({ type: 'cancel', id: 'x'.repeat(201) })
    expect(await nextError(agent)).toEqual({
      type: 'error',
      code: 'INVALID_FRAME',
      message: 'invalid cancel: "id" must be at most 200 characters',
    })
    agent.send(askFrame('ok'))
    await poll(() => pending().length).toBe(1)
  })
  it('validates the tool arguments: INVALID_ARGS, EMPTY_QUESTIONS, LIMIT_EXCEEDED', async () => {
    const { helloAgent, pending } = start({ limits: { ...DEFAULT_LIMITS, textChars: 50, questionsPerAsk: 2 } })
    const agent = await helloAgent()
    agent.send({ type: 'ask', id: 'a', questions: [{ id: 'q1' }] })
    expect(await nextError(agent)).toMatchObject({
      id: 'a',
      code: 'INVALID_ARGS',
      message: expect.stringMatching(/^invalid arguments: /),
    })
    agent.send({ type: 'ask', id: 'b', questions: [] })
    expect(await nextError(agent)).toMatchObject({ id: 'b', code: 'EMPTY_QUESTIONS' })
    agent.send({ type: 'ask', id: 'c', questions: [1, 2, 3].map((n) => ({ id: `q${n}`, question: '?' })) })
    expect(await nextError(agent)).toMatchObject({ id: 'c', code: 'LIMIT_EXCEEDED' })
    agent.send(askFrame('d', { title: 't'.repeat(51) }))
    expect(await nextError(agent)).toMatchObject({
      id: 'd',
      code: 'LIMIT_EXCEEDED',
      message: expect.stringContaining('"title"'),
    })
    expect(pending()).toEqual([])
  })
  it('refuses a reused pending id with DUPLICATE_ID, and allows it again once settled', async () => {
    const { helloAgent, pending } = start()
    const agent = await helloAgent()
    agent.send(askFrame('same'))
    agent.send(askFrame('same'))
    expect(await nextError(agent)).toMatchObject({ id: 'same', code: 'DUPLICATE_ID' })
    agent.send({ type: 'cancel', id: 'same' })
    await poll(() => pending().length).toBe(0)
    agent.send(askFrame('same'))
    await poll(() => pending().length).toBe(1)
  })
  it('caps pending asks per connection with LIMIT_EXCEEDED', async () => {
    const { helloAgent, pending } = start({ limits: { ...DEFAULT_LIMITS, pendingPerConnection: 2 } })
    const agent = await helloAgent()
    for (const id of ['1', '2', '3']) agent.send(askFrame(id))
    expect(await nextError(agent)).toMatchObject({ id: '3', code: 'LIMIT_EXCEEDED' })
    expect(pending()).toHaveLength(2)
  })
  it('caps pending asks over the whole companion with LIMIT_EXCEEDED (pendingTotal), per connection or not', async () => {
    const { helloAgent, pending } = start({ limits: { ...DEFAULT_LIMITS, pendingTotal: 3 } })
    const first = await helloAgent()
    const second = await helloAgent()
    first.send(askFrame('1'))
    first.send(askFrame('2'))
    second.send(askFrame('3'))
    await poll(() => pending().length).toBe(3)
    second.send(askFrame('4'))
    expect(await nextError(second)).toEqual({
      type: 'error',
      id: '4',
      code: 'LIMIT_EXCEEDED',
      message: 'limit exceeded: at most 3 asks may be pending in the companion',
    })
    first.send({ type: 'cancel', id: '1' })
    await poll(() => pending().length).toBe(2)
    second.send(askFrame('4'))
    await poll(() => pending().length).toBe(3)
  })
  it('answers cancel of a non-pending id with NOT_PENDING', async () => {
    const agent = await start().helloAgent()
    agent.send({ type: 'cancel', id: 'nope' })
    expect(await nextError(agent)).toEqual({
      type: 'error',
      id: 'nope',
      code: 'NOT_PENDING',
      message: 'ask id "nope" is not pending',
    })
  })
})

describe('answers, dismissals and shutdown', () => {
  it('the first answer wins: the agent gets one answer frame, canonical', async () => {
    const { helloAgent, attachWindow } = start()
    const window = attachWindow()
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    const ask = await window.nextAsk()
    expect(await window.answer(ask.askId, [{ selected: ['SQLite'], id: 'q1' }])).toEqual({
      type: 'ask/accepted',
      askId: ask.askId,
      outcome: 'answered',
    })
    expect(await window.answer(ask.askId, [{ id: 'q1', selected: [] }])).toMatchObject({
      type: 'ask/rejected',
      code: 'NOT_PENDING',
    })
    expect(await agent.next((f) => f.type === 'answer')).toEqual({
      type: 'answer',
      id: 'a1',
      answers: [{ id: 'q1', selected: ['SQLite'] }],
    })
    expect(agent.frames.filter((f) => f.type === 'answer')).toHaveLength(1)
  })
  it('shutdown fails every pending ask with ASK_ABORTED, then closes with 1001', async () => {
    const harness = start()
    const agent = await harness.helloAgent()
    agent.send(askFrame('a1'))
    agent.send(askFrame('a2'))
    await poll(() => harness.pending().length).toBe(2)
    agent.connection.shutdown()
    for (const id of ['a1', 'a2']) {
      expect(await nextError(agent)).toEqual({
        type: 'error',
        id,
        code: 'ASK_ABORTED',
        message: 'the companion is shutting down',
      })
    }
    expect(await agent.closed).toEqual({ code: 1001, reason: 'companion shutting down' })
    expect(harness.pending()).toEqual([])
  })
})

describe('cancellation', () => {
  it('a cancel frame resolves the ask as aborted for every window', async () => {
    const { helloAgent, attachWindow } = start()
    const ui = attachWindow()
    const agent = await helloAgent()
    agent.send(askFrame('a1'))
    const ask = await ui.nextAsk()
    agent.send({ type: 'cancel', id: 'a1' })
    expect(await ui.nextFrame((f) => f.type === 'ask/settled')).toEqual({
      type: 'ask/settled',
      askId: ask.askId,
      outcome: 'aborted',
    })
    expect(await ui.answer(ask.askId, [{ id: 'q1', selected: [] }])).toMatchObject({
      type: 'ask/rejected',
      code: 'NOT_PENDING',
    })
  })
  for (const how of ['close', 'drop'] as const) {
    it(`a transport ${how} resolves every pending ask as agent-gone`, async () => {
      const { helloAgent, attachWindow, pending } = start()
      const ui = attachWindow()
      const agent = await helloAgent()
      agent.send(askFrame('a1'))
      agent.send(askFrame('a2'))
      const ids = [(await ui.nextAsk()).askId, (await ui.nextAsk()).askId]
      if (how === 'close') agent.transport.close(1000, 'done')
      else agent.transport.drop()
      for (const askId of ids) {
        expect(await ui.nextFrame((f) => f.type === 'ask/settled' && f.askId === askId)).toMatchObject({
          outcome: 'agent-gone',
        })
      }
      expect(pending()).toEqual([])
    })
  }
})

describe('extra keys in questions', () => {
  it('stay at the front door: windows get the named fields only, however deep the extra data nests', async () => {
    const { helloAgent, attachWindow, pending } = start()
    const agent = await helloAgent()
    const depth = 200_000 // JSON.parse takes it; a recursive JSON.stringify of it would overflow the stack
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`
    agent.send(
      `{"type":"ask","id":"deep","questions":[{"id":"q","question":"Deep?","x":${deep},"options":[{"label":"a","y":${deep}}]}]}`,
    )
    await poll(() => pending().length).toBe(1)
    const window = attachWindow()
    expect(asQuestion(window.snapshot.pending[0]!).questions).toEqual([
      { id: 'q', question: 'Deep?', options: [{ label: 'a' }] },
    ])
    void window.answer(window.snapshot.pending[0]!.askId, [{ id: 'q', selected: ['a'] }])
    expect(await agent.next((f) => f.type === 'answer')).toEqual({
      type: 'answer',
      id: 'deep',
      answers: [{ id: 'q', selected: ['a'] }],
    })
  })
})

describe('detail and intent (protocol v1 clients may send them)', () => {
  const plan = {
    id: 'plan',
    question: 'Approve the plan?',
    detail: '## Steps\n1. migrate',
    options: [{ label: 'Approve' }, { label: 'Revise' }],
    intent: { kind: 'plan-review', approve: 'Approve' },
  }

  it('windows and the history get detail and a plan-review intent', async () => {
    const { helloAgent, attachWindow, pending } = start()
    const agent = await helloAgent()
    agent.send({ type: 'ask', id: 'p1', questions: [{ ...plan, extra: 1 }] })
    await poll(() => pending().length).toBe(1)
    const window = attachWindow()
    expect(asQuestion(window.snapshot.pending[0]!).questions).toEqual([plan])
  })

  it('refuses an approve label that is not an option with INVALID_ARGS; drops an unknown kind', async () => {
    const { helloAgent, attachWindow, pending } = start()
    const agent = await helloAgent()
    agent.send({ type: 'ask', id: 'p2', questions: [{ ...plan, intent: { kind: 'plan-review', approve: 'Yes' } }] })
    expect(await nextError(agent)).toEqual({
      type: 'error',
      id: 'p2',
      code: 'INVALID_ARGS',
      message:
        'invalid arguments: "questions[0].intent.approve" must be one of the question\'s option labels; "Yes" is not',
    })
    agent.send({ type: 'ask', id: 'p3', questions: [{ ...plan, intent: { kind: 'newer-kind', x: 1 } }] })
    await poll(() => pending().length).toBe(1)
    const { intent: _none, ...ordinary } = plan
    expect(asQuestion(attachWindow().snapshot.pending[0]!).questions).toEqual([ordinary])
  })

  it('caps detail with textChars (LIMIT_EXCEEDED)', async () => {
    const agent = await start({ limits: { ...DEFAULT_LIMITS, textChars: 30 } }).helloAgent()
    agent.send({ type: 'ask', id: 'p4', questions: [{ id: 'q', question: 'Q?', detail: 'x'.repeat(31) }] })
    expect(await nextError(agent)).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: 'limit exceeded: "questions[0].detail" has 31 characters; at most 30 are allowed',
    })
  })
})

describe('custom answers', () => {
  it('refuses a custom answer over the textChars cap with INVALID_ANSWER; the ask stays pending', async () => {
    const { helloAgent, attachWindow, pending } = start({ limits: { ...DEFAULT_LIMITS, textChars: 20 } })
    const agent = await helloAgent()
    agent.send({ type: 'ask', id: 'c', questions: [{ id: 'q', question: 'Why?' }] })
    await poll(() => pending().length).toBe(1)
    const window = attachWindow()
    const askId = window.snapshot.pending[0]!.askId
    expect(await window.answer(askId, [{ id: 'q', selected: [], custom: 'x'.repeat(21) }])).toMatchObject({
      type: 'ask/rejected',
      code: 'INVALID_ANSWER',
      reason: 'answer 1 ("q"): the custom answer has 21 characters; at most 20 are allowed',
    })
    expect(pending()).toHaveLength(1)
    expect(await window.answer(askId, [{ id: 'q', selected: [], custom: 'because' }])).toMatchObject({
      type: 'ask/accepted',
    })
  })
})
