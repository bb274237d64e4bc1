// cli/io.ts's readAll: the one way the CLI reads a whole stream (`ask --json -`, the hook's event).
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readAll } from '../../../cli/io'

describe('readAll', () => {
  it('joins the chunks as UTF-8, a character split across two chunks included', async () => {
    const stream = new PassThrough()
    const text = readAll(stream)
    const bytes = Buffer.from('{"q":"café"}')
    stream.write(bytes.subarray(0, 10))
    stream.end(bytes.subarray(10))
    expect(await text).toBe('{"q":"café"}')
  })

  it('rejects with the signal’s reason when it aborts before the end, and at once when already aborted', async () => {
    const stream = new PassThrough()
    const controller = new AbortController()
    const text = readAll(stream, controller.signal)
    stream.write('{"q":')
    controller.abort(new Error('no event on stdin within 10 s'))
    await expect(text).rejects.toThrow('no event on stdin within 10 s')
    await expect(readAll(new PassThrough(), AbortSignal.abort(new Error('interrupted')))).rejects.toThrow('interrupted')
  })

  it('rejects with the stream’s error', async () => {
    const stream = new PassThrough()
    const text = readAll(stream)
    stream.destroy(new Error('EIO: i/o error, read'))
    await expect(text).rejects.toThrow('EIO: i/o error, read')
  })
})
