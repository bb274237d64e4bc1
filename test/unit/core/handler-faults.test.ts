// Fault injection: one handler of one client throws (a registry or history stub passed into the real
// sockets); that client alone is closed (1011), every other client and pending ask goes on, and nothing
// reaches the process as an unhandled rejection (which would end the companion and every pending ask).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import type { Answer } from '../../../shared/answer'
import type { ErrorFrame } from '../../../shared/wire'
import { FAULT_MESSAGE } from '../../../core/agent-connection'
import { Registry } from '../../../core/registry'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent, poll } from './raw-agent'
import { startStubbedCore, type StubbedCore } from './stubbed-core'

/** A real registry whose `add` and `answer` throw on demand, as a bug of ours would. */
class FaultyRegistry extends Registry {
  failAddTitled: string | undefined
  failAnswers = false
  override add(input: Parameters<Registry['add']>[0]): ReturnType<Registry['add']> {
    if (input.title !== undefined && input.title === this.failAddTitled) throw new TypeError('injected fault in add')
    return super.add(input)
  }
  override answer(askId: string, answers: Answer[]): ReturnType<Registry['answer']> {
    if (this.failAnswers) throw new TypeError('injected fault in answer')
    return super.answer(askId, answers)
  }
}

/** What V8 throws when a reply would be longer than its longest string. */
const unserializable = {
  toJSON(): never {
    throw new RangeError('Invalid string length')
  },
}

let core: StubbedCore | undefined
let registry: FaultyRegistry
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => void unhandled.push(reason)
beforeEach(() => {
  unhandled.length = 0
  process.on('unhandledRejection', onUnhandled)
})
afterEach(async () => {
  process.off('unhandledRejection', onUnhandled)
  await core?.close()
  core = undefined
})

async function start(history?: () => Promise<never>): Promise<StubbedCore> {
  core = await startStubbedCore({
    registry: (warn) => (registry = new FaultyRegistry(Date.now, warn, 20_000)),
    ...(history ? { history } : {}),
  })
  return core
}

const closeCode = (socket: WebSocket): Promise<number> =>
  new Promise((resolve) => socket.once('close', (code: number) => resolve(code)))

/** One more ask goes the whole way: the healthy window sees it and answers it, the agent gets the answer. */
async function stillWorks(
  target: StubbedCore,
  window: Awaited<ReturnType<typeof connectUi>>,
  id: string,
): Promise<void> {
  const agent = await helloAgent(target, `healthy-${id}`)
  agent.send(askFrame(id))
  const ask = await window.nextAsk((a) => a.agent.name === `healthy-${id}`)
  expect(await window.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])).toMatchObject({ type: 'accepted' })
  expect(await agent.next((frame) => frame.type === 'answer')).toMatchObject({ type: 'answer', id })
}

describe("a fault in one client's handler ends that client only", () => {
  it('history/get whose reply cannot be serialized: that window closes with 1011, the rest goes on', async () => {
    // The crash: the reply threw inside a .then() with no catch.
    const target = await start(async () => ({ entries: [unserializable], more: false }) as never)
    const waiting = await helloAgent(target, 'waiting')
    waiting.send(askFrame('w1'))
    await poll(() => target.registry.size).toBe(1)
    const failing = await connectUi(target)
    const healthy = await connectUi(target)
    const closed = closeCode(failing.socket)
    failing.send({ type: 'history/get', limit: 1000 })
    expect(await closed).toBe(1011)
    await stillWorks(target, healthy, 'h1')
    expect(target.registry.pending().map((ask) => ask.agent.name)).toEqual(['waiting'])
    expect(unhandled).toEqual([])
    expect(target.warnings.join('\n')).toContain('Invalid string length')
    await healthy.close()
  })

  it('a throw while answering: that window closes with 1011, the ask stays pending for the others', async () => {
    const target = await start()
    const agent = await helloAgent(target, 'asker')
    agent.send(askFrame('a1'))
    await poll(() => target.registry.size).toBe(1)
    const failing = await connectUi(target)
    const healthy = await connectUi(target)
    const ask = failing.snapshot.pending[0]!
    registry.failAnswers = true
    const closed = closeCode(failing.socket)
    failing.send({ type: 'answer', askId: ask.askId, answers: [{ id: 'q1', selected: ['SQLite'] }] })
    expect(await closed).toBe(1011)
    expect(target.registry.pending().map((a) => a.askId)).toEqual([ask.askId])
    registry.failAnswers = false
    expect(await healthy.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])).toMatchObject({ type: 'accepted' })
    expect(await agent.next((frame) => frame.type === 'answer')).toMatchObject({ type: 'answer', id: 'a1' })
    expect(unhandled).toEqual([])
    await healthy.close()
  })

  it("a throw in an agent's handler: that agent closes with 1011 and its asks settle aborted; other agents go on", async () => {
    const target = await start()
    const window = await connectUi(target)
    const failing = await helloAgent(target, 'failing')
    failing.send(askFrame('f1'))
    const pending = await window.nextAsk()
    registry.failAddTitled = 'boom'
    failing.send(askFrame('f2', { title: 'boom' }))
    expect(await failing.next<ErrorFrame>((frame) => frame.type === 'error')).toEqual({
      type: 'error',
      id: 'f1',
      code: 'ASK_ABORTED',
      message: FAULT_MESSAGE,
    })
    expect((await failing.closed).code).toBe(1011)
    expect(await window.nextFrame((frame) => frame.type === 'question/resolved')).toEqual({
      type: 'question/resolved',
      askId: pending.askId,
      outcome: 'aborted',
    })
    await stillWorks(target, window, 'g1')
    expect(unhandled).toEqual([])
    await window.close()
  })
})
