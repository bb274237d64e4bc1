// The bound on what all windows together leave unread, over real sockets on port 0: windows that stop
// reading pile up data in the companion; past the total, the biggest queue is cut first, and a window
// that reads is never touched.
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { WindowQueues } from '../../../core/window-queues'
import { sendText } from '../../../core/ws-transport'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { startTestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent } from './raw-agent'
import { WAIT_MS } from '../../helpers/waits'

let server: WebSocketServer | undefined
const clients: WebSocket[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate()
  if (server) await new Promise((resolve) => server!.close(resolve))
  server = undefined
})

/** A server on 127.0.0.1:0 and `count` clients; returns each client with its socket on the server. */
async function connect(count: number): Promise<Array<{ client: WebSocket; peer: WebSocket }>> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const pairs: Array<{ client: WebSocket; peer: WebSocket }> = []
  for (let i = 0; i < count; i++) {
    const accepted = once(server, 'connection') as Promise<[WebSocket]>
    const client = new WebSocket(`ws://127.0.0.1:${port}`)
    client.on('error', () => undefined)
    clients.push(client)
    const [[peer]] = await Promise.all([accepted, once(client, 'open')])
    peer.on('error', () => undefined)
    pairs.push({ client, peer })
  }
  return pairs
}

const CHUNK = 'x'.repeat(64 * 1024)
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Sends chunks to `peer` until the companion holds at least `bytes` for it (the kernel's buffers full first). */
async function fill(peer: WebSocket, queues: WindowQueues, bytes: number): Promise<void> {
  for (let sent = 0; peer.bufferedAmount < bytes; sent++) {
    if (sent > 4000) throw new Error(`the queue did not grow to ${bytes} bytes (at ${peer.bufferedAmount})`)
    expect(sendText(peer, CHUNK, queues)).toBe(true)
    await turn()
  }
}

describe('WindowQueues', () => {
  it('past the total, cuts the window with the most queued first, and only as many as needed', async () => {
    const [big, small, reader] = await connect(3)
    const maxBytes = 2 * 1024 * 1024
    const queues = new WindowQueues(maxBytes)
    for (const { peer } of [big!, small!, reader!]) queues.track(peer)
    const received: string[] = []
    reader!.client.on('message', (data) => received.push(String(data).slice(0, 5)))
    big!.client.pause()
    small!.client.pause()
    await fill(big!.peer, queues, 1.5 * 1024 * 1024) // stays under the total
    expect(big!.peer.readyState).toBe(WebSocket.OPEN)
    // The small queue grows until the two together pass the total: the big one is cut, not the sender.
    for (let sent = 0; big!.peer.readyState === WebSocket.OPEN; sent++) {
      if (sent > 4000) throw new Error('the total was never enforced')
      sendText(small!.peer, CHUNK, queues)
      await turn()
    }
    expect(big!.peer.readyState).not.toBe(WebSocket.OPEN)
    expect(small!.peer.readyState).toBe(WebSocket.OPEN)
    expect(small!.peer.bufferedAmount).toBeLessThanOrEqual(maxBytes)
    // A window that reads is never cut, and gets what is sent to it.
    expect(sendText(reader!.peer, 'hello', queues)).toBe(true)
    await expect.poll(() => received, { timeout: WAIT_MS }).toContain('hello')
    expect(reader!.peer.readyState).toBe(WebSocket.OPEN)
  })
})

describe("the companion's windows together", () => {
  it('windows that stop reading are cut once all windows together pass limits.windowQueueBytes; a reading window and every ask stay', async () => {
    const t = await startTestCompanion({ settings: { limits: { ...DEFAULT_LIMITS, windowQueueBytes: 1024 * 1024 } } })
    try {
      const windows = async (): Promise<number> => {
        const res = await fetch(`http://127.0.0.1:${t.companion.port}/v1/status`, {
          headers: { Authorization: `Bearer ${t.companion.token}` },
        })
        return ((await res.json()) as { windows: number }).windows
      }
      const stalled = [await connectUi(t.companion), await connectUi(t.companion)]
      const reader = await connectUi(t.companion)
      for (const window of stalled) window.socket.pause()
      expect(await windows()).toBe(3)
      const agent = await helloAgent(t.companion)
      const questions = Array.from({ length: 40 }, (_, i) => ({ id: `q${i}`, question: `${i} ${'w'.repeat(19_000)}` }))
      let sent = 0
      for (; sent < 60 && (await windows()) === 3; sent++) {
        agent.send(askFrame(`big-${sent}`, { questions }))
        await reader.nextAsk((ask) => ask.questions.length === 40 && reader.frames.length > sent)
      }
      expect(await windows()).toBeLessThan(3)
      expect(reader.socket.readyState).toBe(reader.socket.OPEN)
      expect(t.companion.pending()).toHaveLength(sent)
    } finally {
      await t.cleanup()
    }
  })
})
