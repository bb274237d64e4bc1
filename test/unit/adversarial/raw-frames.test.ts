// Frames no well-behaved client sends, after a valid handshake and hello, over a hand-written client
// (raw-socket.ts): each ends the connection with the close code RFC 6455 and DESIGN.md name, the
// companion stays healthy, its heap bounded, and the next agent still asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { askFrame, helloAgent, poll } from '../core/raw-agent'
import { encodeFrame, openRaw, type RawSocket } from './raw-socket'

const FRAME_BYTES = 64 * 1024
let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion({ settings: { limits: { ...DEFAULT_LIMITS, frameBytes: FRAME_BYTES } } })
})
afterAll(() => t.cleanup())

async function helloRaw(): Promise<RawSocket> {
  const raw = await openRaw(t.companion.port, '/v1/agent', {
    Authorization: `Bearer ${t.companion.token}`,
    'Sec-WebSocket-Protocol': 'ask-user.v1',
  })
  raw.text(JSON.stringify({ type: 'hello', protocol: 1, client: { name: 'raw' } }))
  expect(JSON.parse(await raw.nextText())).toMatchObject({ type: 'welcome' })
  return raw
}

describe('malformed frames close with the documented code', () => {
  it.each([
    ['an unmasked frame', 1002, [encodeFrame({ opcode: 0x1, payload: '{}', mask: false })]],
    [
      'a frame with reserved bits set (no extension negotiated)',
      1002,
      [encodeFrame({ opcode: 0x1, payload: '{}', rsv: 4 })],
    ],
    ['a frame with RSV2 and RSV3 set', 1002, [encodeFrame({ opcode: 0x1, payload: '{}', rsv: 3 })]],
    ['an unknown data opcode (0x3)', 1002, [encodeFrame({ opcode: 0x3, payload: 'x' })]],
    ['an unknown control opcode (0xB)', 1002, [encodeFrame({ opcode: 0xb })]],
    ['a fragmented control frame', 1002, [encodeFrame({ opcode: 0x9, fin: false })]],
    ['a continuation frame with nothing to continue', 1002, [encodeFrame({ opcode: 0x0, payload: 'x' })]],
    [
      'invalid UTF-8 in a text frame',
      1007,
      [encodeFrame({ opcode: 0x1, payload: Buffer.from([0x7b, 0xc3, 0x28, 0x7d]) })],
    ],
    ['a frame over the size limit', 1009, [encodeFrame({ opcode: 0x1, payload: Buffer.alloc(FRAME_BYTES + 1, 0x20) })]],
  ] as const)('%s → %i', async (_name, code, frames) => {
    const raw = await helloRaw()
    for (const frame of frames) raw.write(frame)
    expect(await raw.closeCode).toBe(code)
  })

  it('a fragment flood past the size limit → 1009, the heap stays bounded', async () => {
    const raw = await helloRaw()
    const before = process.memoryUsage().heapUsed
    raw.write(encodeFrame({ opcode: 0x1, payload: '{', fin: false }))
    // 20,000 one-kilobyte fragments: 20 MiB offered against a 64 KiB message limit (bounded loop).
    const piece = encodeFrame({ opcode: 0x0, payload: Buffer.alloc(1024, 0x20), fin: false })
    let sent = 0
    const code = raw.closeCode
    let closed = false
    void code.then(() => (closed = true))
    while (sent < 20_000 && !closed && !raw.socket.destroyed) {
      if (!raw.socket.write(piece))
        await new Promise<void>((resolve) => raw.socket.once('drain', resolve).once('close', resolve))
      sent++
    }
    expect(await code).toBe(1009)
    expect(sent).toBeLessThan(20_000)
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 * 1024 * 1024)
  })
})

it('after every one of them, the companion still serves a normal ask', async () => {
  await poll(() => t.companion.pending().length).toBe(0)
  const agent = await helloAgent(t.companion)
  agent.send(askFrame('after'))
  await poll(() => t.companion.pending().length).toBe(1)
  agent.socket.close()
  await poll(() => t.companion.pending().length).toBe(0)
})
