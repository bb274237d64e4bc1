// The floor: a bare `ws` relay with the same topology as the companion (agent → relay → window →
// relay → agent) and the same frame shapes, but no validation, no registry of asks, no history,
// no auth check. It is the least any relay in JavaScript over loopback WebSockets has to do: parse
// each frame once, mint a window-side id, forward, route the answer back by that id.
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'

export interface FloorRelay {
  port: number
  agentUrl: string
  uiUrl: string
  close(): Promise<void>
}

/**
 * `windowReplies: 'v1'`: on an answer the relay also sends the answering window what protocol v1
 * requires, `ask/settled` then `ask/accepted`, in one write as the companion does (ws-transport.ts).
 * The difference between the two floors is what those frames cost a relay that does nothing else.
 */
const streamOf = (ws: WebSocket): { cork(): void; uncork(): void } =>
  (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket

/** Starts a floor relay on a free loopback port. */
export async function startFloorRelay(options: { windowReplies?: 'v1' } = {}): Promise<FloorRelay> {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    perMessageDeflate: false,
    handleProtocols: (protocols) => protocols.values().next().value ?? false,
  })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const agents = new Map<number, WebSocket>()
  const windows = new Set<WebSocket>()
  let nextConn = 1

  wss.on('connection', (ws, req) => {
    if (req.url === '/v1/ui') {
      windows.add(ws)
      ws.on('close', () => windows.delete(ws))
      ws.send('{"type":"snapshot","pending":[]}')
      ws.on('message', (data) => {
        const f = JSON.parse(String(data))
        if (f.type !== 'ask/answer') return
        const askId = String(f.askId)
        const dot = askId.indexOf('.')
        const agent = agents.get(Number(askId.slice(0, dot)))
        agent?.send(JSON.stringify({ type: 'answer', id: askId.slice(dot + 1), answers: f.answers }))
        if (options.windowReplies === 'v1') {
          const stream = streamOf(ws)
          stream.cork()
          for (const w of windows) w.send(JSON.stringify({ type: 'ask/settled', askId, outcome: 'answered' }))
          ws.send(JSON.stringify({ type: 'ask/accepted', askId, outcome: 'answered' }))
          process.nextTick(() => stream.uncork())
        }
      })
      return
    }
    const conn = nextConn++
    agents.set(conn, ws)
    let name = 'agent'
    ws.on('close', () => agents.delete(conn))
    ws.on('message', (data) => {
      const f = JSON.parse(String(data))
      if (f.type === 'hello') {
        name = f.client?.name ?? name
        ws.send('{"type":"welcome","protocol":1,"server":{"name":"floor","version":"0"}}')
      } else if (f.type === 'ask') {
        const frame = JSON.stringify({
          type: 'ask/added',
          ask: {
            askId: `${conn}.${f.id}`,
            kind: 'question',
            agent: { name },
            questions: f.questions,
            receivedAt: Date.now(),
          },
        })
        for (const w of windows) w.send(frame)
      }
    })
  })

  const port = (wss.address() as AddressInfo).port
  return {
    port,
    agentUrl: `ws://127.0.0.1:${port}/v1/agent`,
    uiUrl: `ws://127.0.0.1:${port}/v1/ui`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate()
        wss.close(() => resolve())
      }),
  }
}
