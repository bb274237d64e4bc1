// The client against a scripted fake companion: protocol edge cases the real core never produces.
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'
import { AskUserClient } from '../../../agent/client'
import type { AskAbortedError } from '../../../agent/errors'
import { failure } from '../../helpers/errors'

type Script = (socket: WebSocket, frame: { type: string; id?: string; client?: { name: string } }) => void

const servers: WebSocketServer[] = []
const clients: AskUserClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  for (const server of servers.splice(0)) {
    for (const socket of server.clients) socket.terminate()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A fake companion that welcomes each hello and hands every later frame to `script`. */
async function fakeCompanion(script: Script, options: { protocol?: string | false } = {}): Promise<AskUserClient> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (offered) => (options.protocol === false ? false : (options.protocol ?? [...offered][0] ?? false)),
  })
  servers.push(server)
  await new Promise((resolve) => server.once('listening', resolve))
  server.on('connection', (socket, request) => {
    expect(request.headers.authorization).toBe('Bearer secret')
    expect(request.headers.origin).toBeUndefined()
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Parameters<Script>[1]
      if (frame.type === 'hello') socket.send(JSON.stringify({ type: 'welcome', protocol: 1, server: { name: 'fake', version: '0' } }))
      else script(socket, frame)
    })
  })
  const { port } = server.address() as { port: number }
  const client = new AskUserClient({ env: { ASK_USER_URL: `ws://127.0.0.1:${port}/v1/agent`, ASK_USER_TOKEN: 'secret' }, connectTimeoutMs: 2_000 })
  clients.push(client)
  return client
}


const question = [{ id: 'q', question: 'Q?', options: [{ label: 'a' }] }]

describe('the client never passes on a bad reply', () => {
  it('an unreadable frame closes the connection and fails pending asks with ASK_ABORTED', async () => {
    const client = await fakeCompanion((socket) => socket.send('{"type":"answer","id":"ask-1"}'))
    const error = await failure(client.ask(question))
    expect(error.code).toBe('ASK_ABORTED')
    expect((error as AskAbortedError).reason).toBe('connection-lost')
    expect(error.message).toMatch(/^the Ask User Companion went away before the person answered \(connection closed: code 1002/)
  })

  it('an answer that breaks the answer rules is INVALID_ANSWER', async () => {
    const client = await fakeCompanion((socket, frame) =>
      socket.send(JSON.stringify({ type: 'answer', id: frame.id, answers: [{ id: 'q', selected: ['not offered'] }] })),
    )
    const error = await failure(client.ask(question))
    expect(error.code).toBe('INVALID_ANSWER')
    expect(error.message).toBe(
      'the companion sent an answer that breaks the answer rules: answer 1 ("q"): "not offered" is not one of the options',
    )
  })

  it('an error frame for the ask keeps its code and message', async () => {
    const client = await fakeCompanion((socket, frame) =>
      socket.send(JSON.stringify({ type: 'error', id: frame.id, code: 'LIMIT_EXCEEDED', message: 'too many pending asks' })),
    )
    const error = await failure(client.ask(question))
    expect([error.code, error.message]).toEqual(['LIMIT_EXCEEDED', 'too many pending asks'])
  })

  it('an abrupt drop (no close frame) fails the ask with ASK_ABORTED, and the next ask reconnects', async () => {
    let asks = 0
    const client = await fakeCompanion((socket, frame) => {
      asks++
      if (asks === 1) socket.terminate()
      else socket.send(JSON.stringify({ type: 'answer', id: frame.id, answers: [{ id: 'q', selected: ['a'] }] }))
    })
    const error = await failure(client.ask(question))
    expect((error as AskAbortedError).reason).toBe('connection-lost')
    expect(error.message).toContain('connection closed: code 1006')
    expect(await client.ask(question)).toEqual({ answers: [{ id: 'q', selected: ['a'] }] })
  })

  it('a server that does not accept the subprotocol is no companion (NO_PROVIDER)', async () => {
    const client = await fakeCompanion(() => undefined, { protocol: false })
    const error = await failure(client.ask(question))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toMatch(/^cannot reach the Ask User Companion at ws:\/\/127\.0\.0\.1:\d+\/v1\/agent \(.+\); start the/)
  })

  it('mints distinct ids for concurrent asks on one connection and sends cancel on abort', async () => {
    const seen: string[] = []
    let cancelled: string | undefined
    const client = await fakeCompanion((_socket, frame) => {
      if (frame.type === 'ask') seen.push(frame.id!)
      if (frame.type === 'cancel') cancelled = frame.id
    })
    const controller = new AbortController()
    const first = failure(client.ask(question, { signal: controller.signal }))
    void client.ask(question).catch(() => undefined)
    const deadline = Date.now() + 5_000
    while (seen.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(new Set(seen).size).toBe(2)
    controller.abort()
    expect((await first).code).toBe('ASK_ABORTED')
    while (cancelled === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(cancelled).toBe(seen[0])
  })
})
