// Framing over real sockets on port 0: what the WebSocket transports decide before any protocol
// object sees a frame (binary frames, the 1009 size cap, JSON decoding on the UI socket).
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import type { ErrorFrame } from '../../../shared/wire'
import type { V1ServerFrame as UiServerFrame } from '../../../core/ui-v1'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent, poll } from './raw-agent'

let t: TestCompanion | undefined
afterEach(async () => {
  await t?.cleanup()
  t = undefined
})

describe('agent endpoint framing', () => {
  it('answers a binary frame with INVALID_FRAME and stays usable', async () => {
    t = await startTestCompanion()
    const agent = await helloAgent(t.companion)
    agent.socket.send(Buffer.from('{"type":"hello"}'), { binary: true })
    expect(await agent.next<ErrorFrame>((f) => f.type === 'error')).toEqual({
      type: 'error',
      code: 'INVALID_FRAME',
      message: 'binary frames are not supported; send JSON text frames',
    })
    agent.send(askFrame('ok'))
    await poll(() => t!.companion.pending().length).toBe(1)
  })

  it('closes with 1009 on a frame over maxPayload; its pending asks resolve agent-gone', async () => {
    t = await startTestCompanion({ settings: { limits: { ...DEFAULT_LIMITS, frameBytes: 2048 } } })
    const resolved: string[] = []
    t.companion.on('resolved', (_askId, outcome) => resolved.push(outcome))
    const agent = await helloAgent(t.companion)
    agent.send(askFrame('small'))
    await poll(() => t!.companion.pending().length).toBe(1)
    agent.send(askFrame('big', { title: 'x'.repeat(4096) }))
    expect((await agent.closed).code).toBe(1009)
    await poll(() => resolved).toEqual(['agent-gone'])
  })
})

describe('UI socket framing', () => {
  it('refuses non-JSON text and binary frames with rejected INVALID_FRAME and keeps going', async () => {
    t = await startTestCompanion()
    const ui = await connectUi(t.companion)
    const isRejected = (f: UiServerFrame): boolean => f.type === 'rejected'
    ui.send('nope')
    expect(await ui.nextFrame(isRejected)).toEqual({
      type: 'rejected',
      askId: '',
      code: 'INVALID_FRAME',
      reason: 'the frame is not valid JSON',
    })
    ui.socket.send(Buffer.from([1, 2]), { binary: true })
    expect(await ui.nextFrame(isRejected)).toEqual({
      type: 'rejected',
      askId: '',
      code: 'INVALID_FRAME',
      reason: 'binary frames are not supported; send JSON text frames',
    })
    ui.send('[1]')
    expect(await ui.nextFrame(isRejected)).toMatchObject({
      code: 'INVALID_FRAME',
      reason: 'a frame must be a JSON object',
    })
    ui.send({ type: 'answer', askId: 'unknown', answers: [] })
    expect(await ui.nextFrame(isRejected)).toMatchObject({ askId: 'unknown', code: 'NOT_PENDING' })
    await ui.close()
  })
})
