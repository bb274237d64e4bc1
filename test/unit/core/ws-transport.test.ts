import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import type { TransportMessage } from '../../../shared/transport'
import { parseJsonFrame } from '../../../core/frames'
import { MAX_BUFFERED_BYTES, frameText, registerStream, sendText, wsTransport } from '../../../core/ws-transport'

let server: WebSocketServer | undefined
let client: WebSocket | undefined
afterEach(async () => {
  client?.terminate()
  if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
  server = client = undefined
})

/** A ws server on port 0 and one client connected to it; resolves with the accepted socket. */
async function accepted(): Promise<{ ws: WebSocket; stream: Socket; client: WebSocket }> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server!.once('listening', () => resolve()))
  const { port } = server.address() as AddressInfo
  const connection = new Promise<{ ws: WebSocket; stream: Socket }>((resolve) =>
    server!.once('connection', (ws, req) => resolve({ ws, stream: req.socket })),
  )
  client = new WebSocket(`ws://127.0.0.1:${port}`)
  return { ...(await connection), client }
}

describe('frame decoding', () => {
  it('decodes ws buffers as UTF-8 text', () => {
    expect(parseJsonFrame(frameText([Buffer.from('{"type":'), Buffer.from('"y"}')]))).toEqual({
      ok: true,
      value: { type: 'y' },
    })
    expect(parseJsonFrame(frameText(new TextEncoder().encode('{"type":"z"}').buffer as ArrayBuffer))).toMatchObject({
      ok: true,
    })
    expect(frameText(Buffer.from('é'))).toBe('é')
  })
})

describe('sendText', () => {
  it('sends only on open sockets and terminates a peer that stopped reading', () => {
    const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: vi.fn(), terminate: vi.fn() }
    expect(sendText(socket as never, 'a')).toBe(true)
    expect(socket.send).toHaveBeenCalledWith('a')
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1
    expect(sendText(socket as never, 'b')).toBe(false)
    expect(socket.terminate).toHaveBeenCalledTimes(1)
    socket.readyState = 3
    expect(sendText(socket as never, 'c')).toBe(false)
    expect(socket.send).toHaveBeenCalledTimes(1)
  })

  it('sends every frame of one tick to a socket in a single write', async () => {
    const { ws, stream, client } = await accepted()
    registerStream(ws, stream)
    let writes = 0
    const write = stream._write.bind(stream)
    const writev = stream._writev?.bind(stream)
    stream._write = (...args: Parameters<typeof write>) => (writes++, write(...args))
    if (writev) stream._writev = (...args: Parameters<typeof writev>) => (writes++, writev(...args))
    const received: string[] = []
    const three = new Promise<void>((resolve) =>
      client.on('message', (data) => received.push(String(data)) === 3 && resolve()),
    )
    sendText(ws, 'one')
    sendText(ws, 'two')
    sendText(ws, 'three')
    await three
    expect(received).toEqual(['one', 'two', 'three'])
    expect(writes).toBe(1)
  })

  it('batches per socket: frames to two sockets in one tick leave in one write each, in order', async () => {
    const first = await accepted()
    const port = (server!.address() as AddressInfo).port
    const secondConnection = new Promise<{ ws: WebSocket; stream: Socket }>((resolve) =>
      server!.once('connection', (ws, req) => resolve({ ws, stream: req.socket })),
    )
    const otherClient = new WebSocket(`ws://127.0.0.1:${port}`)
    const second = { ...(await secondConnection), client: otherClient }
    try {
      const counted = [first, second].map(({ ws, stream, client: peer }) => {
        registerStream(ws, stream)
        const counter = { writes: 0, received: [] as string[] }
        const write = stream._write.bind(stream)
        const writev = stream._writev?.bind(stream)
        stream._write = (...args: Parameters<typeof write>) => (counter.writes++, write(...args))
        if (writev) stream._writev = (...args: Parameters<typeof writev>) => (counter.writes++, writev(...args))
        const two = new Promise<void>((resolve) =>
          peer.on('message', (data) => counter.received.push(String(data)) === 2 && resolve()),
        )
        return { counter, two }
      })
      sendText(first.ws, 'a1')
      sendText(second.ws, 'b1')
      sendText(first.ws, 'a2')
      sendText(second.ws, 'b2')
      expect(first.stream.writableCorked).toBe(1) // held until the next tick
      await Promise.all(counted.map((c) => c.two))
      expect(counted.map((c) => c.counter.received)).toEqual([
        ['a1', 'a2'],
        ['b1', 'b2'],
      ])
      expect(counted.map((c) => c.counter.writes)).toEqual([1, 1])
      expect([first.stream.writableCorked, second.stream.writableCorked]).toEqual([0, 0])
      // the next tick batches again
      sendText(first.ws, 'a3')
      expect(first.stream.writableCorked).toBe(1)
    } finally {
      otherClient.terminate()
    }
  })
})

describe('wsTransport', () => {
  it('delivers text decoded and binary as binary, sends text, and reports the close code and reason', async () => {
    const { ws, client } = await accepted()
    const transport = wsTransport(ws)
    const messages: TransportMessage[] = []
    const two = new Promise<void>((resolve) => {
      transport.onmessage = (message) => messages.push(message) === 2 && resolve()
    })
    const closed = new Promise<[number, string]>((resolve) => {
      transport.onclose = (code, reason) => resolve([code, reason])
    })
    await new Promise<void>((resolve) => client.once('open', () => resolve()))
    client.send('{"type":"x"}')
    client.send(Buffer.from([1, 2]), { binary: true })
    await two
    expect(messages).toEqual([{ kind: 'text', text: '{"type":"x"}' }, { kind: 'binary' }])
    const echoed = new Promise<string>((resolve) => client.once('message', (data) => resolve(String(data))))
    expect(transport.send('hi')).toBe(true)
    expect(await echoed).toBe('hi')
    transport.close(4000, 'bye')
    expect(await closed).toEqual([4000, 'bye'])
    expect(transport.send('late')).toBe(false)
  })
})
