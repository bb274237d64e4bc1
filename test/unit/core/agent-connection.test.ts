import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { ErrorFrame } from '../../../shared/wire'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent, openAgent, type RawAgent, poll } from './raw-agent'

let t: TestCompanion | undefined
afterEach(async () => {
  await t?.cleanup()
  t = undefined
})
async function start(options: Parameters<typeof startTestCompanion>[0] = {}): Promise<TestCompanion> {
  t = await startTestCompanion(options)
  return t
}
const nextError = (agent: RawAgent): Promise<ErrorFrame> => agent.next<ErrorFrame>((f) => f.type === 'error')

describe('hello', () => {
  it('answers hello with welcome {protocol, server}', async () => {
    const { companion } = await start({ serverInfo: { name: 'test-companion', version: '9.9.9' } })
    const agent = await openAgent(companion)
    agent.send({ type: 'hello', protocol: 1, client: { name: 'x' } })
    expect(await agent.next()).toEqual({ type: 'welcome', protocol: 1, server: { name: 'test-companion', version: '9.9.9' } })
  })
  it('refuses an unsupported protocol with UNSUPPORTED_PROTOCOL, then closes', async () => {
    const { companion } = await start()
    const agent = await openAgent(companion)
    agent.send({ type: 'hello', protocol: 2, client: { name: 'x' } })
    expect(await nextError(agent)).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL' })
    expect((await agent.closed).code).toBe(1002)
  })
  it('refuses a second hello with INVALID_FRAME and stays usable', async () => {
    const { companion } = await start()
    const agent = await helloAgent(companion)
    agent.send({ type: 'hello', protocol: 1, client: { name: 'x' } })
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME', message: 'hello was already received on this connection' })
    agent.send(askFrame('a1'))
    await poll(() => companion.pending().length).toBe(1)
  })
  it('refuses an ask before hello with INVALID_FRAME', async () => {
    const { companion } = await start()
    const agent = await openAgent(companion)
    agent.send(askFrame('a1'))
    expect(await nextError(agent)).toEqual({ type: 'error', id: 'a1', code: 'INVALID_FRAME', message: 'the first frame must be hello' })
  })
  it('closes an agent that never says hello (1008)', async () => {
    const { companion } = await start({ handshakeTimeoutMs: 100 })
    const agent = await openAgent(companion)
    expect(await agent.closed).toEqual({ code: 1008, reason: 'no hello in time' })
  })
})

describe('frame errors (the connection stays usable)', () => {
  it('answers non-JSON, non-objects, unknown types and binary frames with INVALID_FRAME', async () => {
    const { companion } = await start()
    const agent = await helloAgent(companion)
    agent.send('{not json')
    expect(await nextError(agent)).toEqual({ type: 'error', code: 'INVALID_FRAME', message: 'the frame is not valid JSON' })
    agent.send('[1,2]')
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME', message: 'a frame must be a JSON object' })
    agent.send({ type: 'subscribe', id: 'z' })
    expect(await nextError(agent)).toEqual({ type: 'error', id: 'z', code: 'INVALID_FRAME', message: 'unknown frame type "subscribe"' })
    agent.socket.send(Buffer.from('{"type":"hello"}'), { binary: true })
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME', message: expect.stringContaining('binary') })
    agent.send({ type: 'ask', id: '', questions: [] })
    expect(await nextError(agent)).toMatchObject({ code: 'INVALID_FRAME' })
    agent.send(askFrame('ok'))
    await poll(() => companion.pending().length).toBe(1)
  })
  it('validates the tool arguments: INVALID_ARGS, EMPTY_QUESTIONS, LIMIT_EXCEEDED', async () => {
    const { companion } = await start({ settings: { limits: { ...DEFAULT_LIMITS, textChars: 50, questionsPerAsk: 2 } } })
    const agent = await helloAgent(companion)
    agent.send({ type: 'ask', id: 'a', questions: [{ id: 'q1' }] })
    expect(await nextError(agent)).toMatchObject({ id: 'a', code: 'INVALID_ARGS', message: expect.stringMatching(/^invalid arguments: /) })
    agent.send({ type: 'ask', id: 'b', questions: [] })
    expect(await nextError(agent)).toMatchObject({ id: 'b', code: 'EMPTY_QUESTIONS' })
    agent.send({ type: 'ask', id: 'c', questions: [1, 2, 3].map((n) => ({ id: `q${n}`, question: '?' })) })
    expect(await nextError(agent)).toMatchObject({ id: 'c', code: 'LIMIT_EXCEEDED' })
    agent.send(askFrame('d', { title: 't'.repeat(51) }))
    expect(await nextError(agent)).toMatchObject({ id: 'd', code: 'LIMIT_EXCEEDED', message: expect.stringContaining('"title"') })
    expect(companion.pending()).toEqual([])
  })
  it('refuses a reused pending id with DUPLICATE_ID, and allows it again once settled', async () => {
    const { companion } = await start()
    const agent = await helloAgent(companion)
    agent.send(askFrame('same'))
    agent.send(askFrame('same'))
    expect(await nextError(agent)).toMatchObject({ id: 'same', code: 'DUPLICATE_ID' })
    agent.send({ type: 'cancel', id: 'same' })
    await poll(() => companion.pending().length).toBe(0)
    agent.send(askFrame('same'))
    await poll(() => companion.pending().length).toBe(1)
  })
  it('caps pending asks per connection with LIMIT_EXCEEDED', async () => {
    const { companion } = await start({ settings: { limits: { ...DEFAULT_LIMITS, pendingPerConnection: 2 } } })
    const agent = await helloAgent(companion)
    for (const id of ['1', '2', '3']) agent.send(askFrame(id))
    expect(await nextError(agent)).toMatchObject({ id: '3', code: 'LIMIT_EXCEEDED' })
    expect(companion.pending()).toHaveLength(2)
  })
  it('answers cancel of a non-pending id with NOT_PENDING', async () => {
    const { companion } = await start()
    const agent = await helloAgent(companion)
    agent.send({ type: 'cancel', id: 'nope' })
    expect(await nextError(agent)).toEqual({ type: 'error', id: 'nope', code: 'NOT_PENDING', message: 'ask id "nope" is not pending' })
  })
  it('closes with 1009 on a frame over maxPayload', async () => {
    const { companion } = await start({ settings: { limits: { ...DEFAULT_LIMITS, frameBytes: 2048 } } })
    const agent = await helloAgent(companion)
    agent.send(askFrame('big', { title: 'x'.repeat(4096) }))
    expect((await agent.closed).code).toBe(1009)
  })
})

describe('cancellation', () => {
  it('a cancel frame resolves the ask as aborted for every window', async () => {
    const { companion } = await start()
    const ui = await connectUi(companion)
    const agent = await helloAgent(companion)
    agent.send(askFrame('a1'))
    const ask = await ui.nextAsk()
    agent.send({ type: 'cancel', id: 'a1' })
    expect(await ui.nextFrame((f) => f.type === 'question/resolved')).toEqual({ type: 'question/resolved', askId: ask.askId, outcome: 'aborted' })
    expect(await ui.answer(ask.askId, [{ id: 'q1', selected: [] }])).toMatchObject({ type: 'rejected', code: 'NOT_PENDING' })
    await ui.close()
  })
  for (const how of ['close', 'terminate'] as const) {
    it(`a socket ${how}() resolves every pending ask as agent-gone`, async () => {
      const { companion } = await start()
      const ui = await connectUi(companion)
      const agent = await helloAgent(companion)
      agent.send(askFrame('a1'))
      agent.send(askFrame('a2'))
      const ids = [(await ui.nextAsk()).askId, (await ui.nextAsk()).askId]
      agent.socket[how]()
      for (const askId of ids) {
        expect(await ui.nextFrame((f) => f.type === 'question/resolved' && f.askId === askId)).toMatchObject({ outcome: 'agent-gone' })
      }
      expect(companion.pending()).toEqual([])
      await ui.close()
    })
  }
})

describe('extra keys in questions', () => {
  it('stay at the front door: windows get the named fields only, however deep the extra data nests', async () => {
    const { companion } = await start()
    const agent = await helloAgent(companion)
    const depth = 200_000 // JSON.parse takes it; a recursive JSON.stringify of it would overflow the stack
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`
    agent.send(
      `{"type":"ask","id":"deep","questions":[{"id":"q","question":"Deep?","x":${deep},"options":[{"label":"a","y":${deep}}]}]}`,
    )
    await poll(() => companion.pending().length).toBe(1)
    const window = await connectUi(companion)
    expect(window.snapshot.pending[0]?.questions).toEqual([{ id: 'q', question: 'Deep?', options: [{ label: 'a' }] }])
    window.answer(window.snapshot.pending[0]!.askId, [{ id: 'q', selected: ['a'] }])
    expect(await agent.next((f) => f.type === 'answer')).toEqual({ type: 'answer', id: 'deep', answers: [{ id: 'q', selected: ['a'] }] })
  })
})

describe('custom answers', () => {
  it('refuses a custom answer over the textChars cap with INVALID_ANSWER; the ask stays pending', async () => {
    const { companion } = await start({ settings: { limits: { ...DEFAULT_LIMITS, textChars: 20 } } })
    const agent = await helloAgent(companion)
    agent.send({ type: 'ask', id: 'c', questions: [{ id: 'q', question: 'Why?' }] })
    await poll(() => companion.pending().length).toBe(1)
    const window = await connectUi(companion)
    const askId = window.snapshot.pending[0]!.askId
    expect(await window.answer(askId, [{ id: 'q', selected: [], custom: 'x'.repeat(21) }])).toMatchObject({
      type: 'rejected',
      code: 'INVALID_ANSWER',
      reason: 'answer 1 ("q"): the custom answer has 21 characters; at most 20 are allowed',
    })
    expect(companion.pending()).toHaveLength(1)
    expect(await window.answer(askId, [{ id: 'q', selected: [], custom: 'because' }])).toMatchObject({ type: 'accepted' })
  })
})
