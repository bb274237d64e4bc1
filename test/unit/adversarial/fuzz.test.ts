// Protocol fuzzing on loopback: seeded random frames to both endpoints over real sockets. Every reply
// is one of our frames with one of our codes (never a crash, never a warning), Object.prototype stays
// clean, and a fresh connection then completes a normal ask.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ErrorCodeSchema } from '../../../shared/error-codes'
import { RejectionCodeSchema } from '../../../shared/ui'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent } from '../core/raw-agent'
import { fuzzFrame, type FuzzFrame } from './fuzz-frames'

const FRAMES = 1_500
const warnings: string[] = []
let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion({ onWarning: (message) => warnings.push(message) })
})
afterAll(() => t.cleanup())

const samples = (seed: number): FuzzFrame[] => fc.sample(fuzzFrame, { numRuns: FRAMES, seed })
const send = (socket: { send(data: string | Uint8Array): void }, frame: FuzzFrame): void =>
  socket.send('text' in frame ? frame.text : frame.binary)

it(`agent endpoint: ${FRAMES} fuzzed frames get our error frames only, or a documented close`, async () => {
  let agent = await helloAgent(t.companion, 'fuzzer')
  const closes: number[] = []
  for (const [index, frame] of samples(1).entries()) {
    if (agent.socket.readyState !== agent.socket.OPEN) {
      closes.push((await agent.closed).code)
      agent = await helloAgent(t.companion, 'fuzzer')
    }
    send(agent.socket, frame)
    if (index % 100 === 99) {
      // A sentinel: every frame before it has been handled once its reply is here.
      agent.send({ type: 'cancel', id: `sentinel-${index}` })
      await agent.next((f) => f.type === 'error' && f.id === `sentinel-${index}`).catch(() => undefined)
    }
  }
  agent.send({ type: 'cancel', id: 'sentinel-end' })
  await agent.next((f) => f.type === 'error' && f.id === 'sentinel-end')
  for (const f of agent.frames) expect(['welcome', 'error']).toContain(f.type)
  for (const f of agent.frames) if (f.type === 'error') expect(ErrorCodeSchema.options).toContain(f.code)
  for (const code of closes) expect([1002, 1008, 1009]).toContain(code) // unsupported protocol, policy, too big
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  expect(warnings).toEqual([])
  console.log(`fuzz (agent): ${FRAMES} frames, ${closes.length} documented closes (${closes.join(', ')})`)
  agent.socket.close()
}, 60_000)

it(`UI channel: ${FRAMES} fuzzed frames get rejected INVALID_FRAME/NOT_PENDING/INVALID_ANSWER or history only`, async () => {
  const ui = await connectUi(t.companion)
  for (const [index, frame] of samples(2).entries()) {
    send(ui.socket, frame)
    if (index % 100 === 99) await ui.dismiss(`sentinel-${index}`)
  }
  await ui.dismiss('sentinel-end')
  for (const f of ui.frames)
    expect(['snapshot', 'question/added', 'question/resolved', 'rejected', 'history', 'accepted']).toContain(f.type)
  for (const f of ui.frames) if (f.type === 'rejected') expect(RejectionCodeSchema.options).toContain(f.code)
  expect(ui.socket.readyState).toBe(ui.socket.OPEN)
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  expect(warnings).toEqual([])
  await ui.close()
}, 60_000)

it('after the fuzzing, a new connection asks and gets its answer', async () => {
  const agent = await helloAgent(t.companion, 'after-fuzz')
  const ui = await connectUi(t.companion)
  agent.send(askFrame('after'))
  const ask = await ui.nextAsk((a) => a.agent.name === 'after-fuzz')
  expect(await ui.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])).toEqual({
    type: 'accepted',
    askId: ask.askId,
    outcome: 'answered',
  })
  expect(await agent.next((f) => f.type === 'answer')).toEqual({
    type: 'answer',
    id: 'after',
    answers: [{ id: 'q1', selected: ['SQLite'] }],
  })
  await ui.close()
  agent.socket.close()
})
