import type { AddressInfo, Socket } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { MAX_BUFFERED_BYTES, parseJsonFrame, registerTransport, sendText } from '../../../core/frames'

describe('frames', () => {
  it('parses JSON objects with a string type, from strings and ws buffers', () => {
    expect(parseJsonFrame('{"type":"x","a":1}')).toEqual({ ok: true, frame: { type: 'x', a: 1 } })
    expect(parseJsonFrame([Buffer.from('{"type":'), Buffer.from('"y"}')])).toEqual({ ok: true, frame: { type: 'y' } })
    expect(parseJsonFrame(new TextEncoder().encode('{"type":"z"}').buffer as ArrayBuffer)).toMatchObject({ ok: true })
    expect(parseJsonFrame('nope')).toEqual({ ok: false, message: 'the frame is not valid JSON' })
    expect(parseJsonFrame('null')).toEqual({ ok: false, message: 'a frame must be a JSON object' })
    expect(parseJsonFrame('{"type":1}')).toEqual({ ok: false, message: 'a frame needs a string "type"' })
  })

  it('sends only on open sockets and terminates a peer that stopped reading', () => {
    const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: vi.fn(), terminate: vi.fn() }
    sendText(socket as never, 'a')
    expect(socket.send).toHaveBeenCalledWith('a')
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1
    sendText(socket as never, 'b')
    expect(socket.terminate).toHaveBeenCalledTimes(1)
    socket.readyState = 3
    sendText(socket as never, 'c')
    expect(socket.send).toHaveBeenCalledTimes(1)
  })
})

describe('sendText batching', () => {
  it('sends every frame of one tick to a socket in a single write', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => server.once('listening', () => resolve()))
    const { port } = server.address() as AddressInfo
    const accepted = new Promise<{ ws: WebSocket; stream: Socket }>((resolve) =>
      server.once('connection', (ws, req) => resolve({ ws, stream: req.socket })),
    )
    const client = new WebSocket(`ws://127.0.0.1:${port}`)
    try {
      const { ws, stream } = await accepted
      registerTransport(ws, stream)
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
    } finally {
      client.terminate()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
