import { afterEach, describe, expect, it, vi } from 'vitest'
import { Heartbeat } from '../../../core/heartbeat'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { askFrame, openAgent, poll } from './raw-agent'

let t: TestCompanion | undefined
afterEach(async () => {
  await t?.cleanup()
  t = undefined
  vi.useRealTimers()
})

describe('heartbeat', () => {
  it('terminates an agent that stops answering pings; its asks resolve agent-gone', async () => {
    t = await startTestCompanion({ heartbeatMs: 100 })
    const resolved: Array<[string, string]> = []
    t.companion.on('resolved', (askId, outcome) => resolved.push([askId, outcome]))
    const silent = await openAgent(t.companion, { autoPong: false })
    silent.send({ type: 'hello', protocol: 1, client: { name: 'silent' } })
    await silent.next((f) => f.type === 'welcome')
    silent.send(askFrame('a1'))
    await poll(() => t!.companion.pending().length).toBe(1)
    const askId = t.companion.pending()[0]!.askId
    expect((await silent.closed).code).toBe(1006)
    await poll(() => resolved).toEqual([[askId, 'agent-gone']])
  })

  it('pings each round and terminates after one missed pong (fake timers)', () => {
    vi.useFakeTimers()
    const heartbeat = new Heartbeat(1000)
    const handlers: Record<string, () => void> = {}
    const socket = {
      ping: vi.fn(),
      terminate: vi.fn(),
      // As an EventEmitter calls its listeners: with the socket as `this`.
      on: (event: string, fn: () => void) => void (handlers[event] = fn.bind(socket)),
      once: (event: string, fn: () => void) => void (handlers[event] = fn.bind(socket)),
    }
    heartbeat.track(socket as never)
    heartbeat.start()
    vi.advanceTimersByTime(1000)
    expect(socket.ping).toHaveBeenCalledTimes(1)
    handlers['pong']!()
    vi.advanceTimersByTime(1000)
    expect(socket.ping).toHaveBeenCalledTimes(2)
    expect(socket.terminate).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1000)
    expect(socket.terminate).toHaveBeenCalledTimes(1)
    heartbeat.stop()
  })
})
