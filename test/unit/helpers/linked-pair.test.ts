import { describe, expect, it } from 'vitest'
import type { TransportMessage } from '../../../shared/transport'
import { createLinkedPair } from '../../helpers/linked-pair'

function record(end: ReturnType<typeof createLinkedPair>[number]): {
  events: Array<TransportMessage | ['close', number, string]>
  closed: Promise<void>
} {
  const events: Array<TransportMessage | ['close', number, string]> = []
  const closed = new Promise<void>((resolve) => {
    end.onclose = (code, reason) => {
      events.push(['close', code, reason])
      resolve()
    }
  })
  end.onmessage = (message) => events.push(message)
  return { events, closed }
}

describe('createLinkedPair', () => {
  it('delivers in order, never inside send, and closes both ends after the frames sent before', async () => {
    const [a, b] = createLinkedPair()
    const atA = record(a)
    const atB = record(b)
    expect(a.send('one')).toBe(true)
    expect(a.sendBinary()).toBe(true)
    expect(atB.events).toEqual([])
    b.send('back')
    a.close(4001, 'done')
    expect(a.closing && b.closing).toBe(true)
    expect(b.send('late')).toBe(false)
    await Promise.all([atA.closed, atB.closed])
    expect(atB.events).toEqual([{ kind: 'text', text: 'one' }, { kind: 'binary' }, ['close', 4001, 'done']])
    expect(atA.events).toEqual([{ kind: 'text', text: 'back' }, ['close', 4001, 'done']])
  })

  it('reports a drop as 1006 on both ends, once', async () => {
    const [a, b] = createLinkedPair()
    const atA = record(a)
    const atB = record(b)
    b.drop()
    a.close(1000, 'ignored')
    await Promise.all([atA.closed, atB.closed])
    expect([atA.events, atB.events]).toEqual([[['close', 1006, '']], [['close', 1006, '']]])
  })
})
