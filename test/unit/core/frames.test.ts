import { describe, expect, it, vi } from 'vitest'
import { MAX_BUFFERED_BYTES, parseJsonFrame, sendText } from '../../../electron/core/frames'

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
