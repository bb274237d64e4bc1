import { createServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { run } from '../../../cli/commands/status'
import { EXIT } from '../../../cli/io'
import { memoryIo } from './memory-io'
import { WAIT_MS } from '../../helpers/waits'

const sockets: Socket[] = []
const server = createServer((socket) => void sockets.push(socket)) // accepts and never answers
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('ask-user status', () => {
  it('exits 130 when interrupted while waiting for a companion that does not answer', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    const { port } = server.address() as { port: number }
    const io = memoryIo({ ASK_USER_URL: `ws://127.0.0.1:${port}/v1/agent`, ASK_USER_TOKEN: 't' })
    const exit = run([], io)
    await expect.poll(() => sockets.length, { timeout: WAIT_MS }).toBe(1)
    io.abort()
    expect(await exit).toBe(EXIT.INTERRUPTED)
    expect(io.err()).toBe('Error: interrupted\n')
    expect(io.out()).toBe('')
  })
})
