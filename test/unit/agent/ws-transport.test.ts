// Dialing the companion's WebSocket for real (port 0): the upgrade, the subprotocol, the deadline.
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'
import { AskUserClient } from '../../../agent/client'
import { Connection } from '../../../agent/connection'
import { validateAsk } from '../../../agent/validated-ask'
import { failure } from '../../helpers/errors'
import { WAIT_MS } from '../../helpers/waits'
import { newNonce, offeredNonce, proofMac } from '../../../shared/proof'

const servers: WebSocketServer[] = []
const clients: AskUserClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  for (const server of servers.splice(0)) {
    for (const socket of server.clients) socket.terminate()
    await new Promise((resolve) => server.close(resolve))
  }
})

interface FakeOptions {
  /** The subprotocol to select (default: the first offered); false refuses the upgrade's subprotocol. */
  protocol?: string | false
  /** What the fake companion does with the hello (default: welcome). */
  onHello?: (socket: WebSocket) => void
  connectTimeoutMs?: number
  /** The secret the fake proves with (default: the client's token); a squatter has none. */
  proveWith?: string
}

/** A fake companion over a real WebSocket server on port 0, and a client pointed at it. */
async function fakeCompanion(
  options: FakeOptions = {},
): Promise<{ client: AskUserClient; url: string; requests: Array<Record<string, unknown>> }> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (offered) => (options.protocol === false ? false : (options.protocol ?? [...offered][0] ?? false)),
  })
  servers.push(server)
  await new Promise((resolve) => server.once('listening', resolve))
  const requests: Array<Record<string, unknown>> = []
  server.on('connection', (socket, request) => {
    const clientNonce = offeredNonce(
      String(request.headers['sec-websocket-protocol'])
        .split(',')
        .map((item) => item.trim()),
    )
    requests.push({
      authorization: request.headers.authorization,
      origin: request.headers.origin,
      nonce: clientNonce !== undefined,
    })
    const nonce = newNonce()
    void proofMac(options.proveWith ?? 'secret', 'companion', 'agent', clientNonce ?? '', nonce).then((mac) =>
      socket.send(JSON.stringify({ type: 'proof', nonce, mac })),
    )
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; id?: string }
      requests.push({ frame: frame.type })
      if (frame.type === 'hello') {
        if (options.onHello) options.onHello(socket)
        else socket.send(JSON.stringify({ type: 'welcome', protocol: 1, server: { name: 'fake', version: '0' } }))
      } else if (frame.type === 'ask') {
        socket.send(JSON.stringify({ type: 'answer', id: frame.id, answers: [{ id: 'q', selected: [] }] }))
      }
    })
  })
  const { port } = server.address() as { port: number }
  const url = `ws://127.0.0.1:${port}/v1/agent`
  const client = new AskUserClient({
    env: { ASK_USER_URL: url, ASK_USER_TOKEN: 'secret' },
    connectTimeoutMs: options.connectTimeoutMs ?? 2_000,
  })
  clients.push(client)
  return { client, url, requests }
}

const question = validateAsk({ questions: [{ id: 'q', question: 'Q?' }] })

describe('dialing the companion', () => {
  it('never sends the token: offers a nonce, checks the proof, proves itself, and carries asks once greeted', async () => {
    const { client, requests } = await fakeCompanion()
    expect(await client.ask(question)).toEqual({ answers: [{ id: 'q', selected: [] }] })
    expect(requests).toEqual([
      { authorization: undefined, origin: undefined, nonce: true },
      { frame: 'prove' },
      { frame: 'hello' },
      { frame: 'ask' },
    ])
  })

  it('a squatter that cannot prove it holds the token gets nothing: no prove, no hello, NO_PROVIDER', async () => {
    const { client, url, requests } = await fakeCompanion({ proveWith: 'not-the-token' })
    const error = await failure(client.ask(question))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toMatch(
      new RegExp(`^cannot reach the Ask User Companion at ${url} \\(cannot verify the companion on this port: `),
    )
    expect(requests).toEqual([{ authorization: undefined, origin: undefined, nonce: true }])
  })

  it('a server that does not accept the subprotocol is no companion (NO_PROVIDER)', async () => {
    const { client } = await fakeCompanion({ protocol: false })
    const error = await failure(client.ask(question))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toMatch(
      /^cannot reach the Ask User Companion at ws:\/\/127\.0\.0\.1:\d+\/v1\/agent \(.+\); start the/,
    )
  })

  it('an error frame instead of the welcome is NO_PROVIDER, naming it', async () => {
    const { client, url } = await fakeCompanion({
      onHello: (socket) =>
        socket.send(
          JSON.stringify({ type: 'error', code: 'UNSUPPORTED_PROTOCOL', message: 'protocol 1 is not supported' }),
        ),
    })
    const error = await failure(client.ask(question))
    expect(error.code).toBe('NO_PROVIDER')
    expect(error.message).toMatch(
      new RegExp(
        `^cannot reach the Ask User Companion at ${url} \\(UNSUPPORTED_PROTOCOL: protocol 1 is not supported\\); `,
      ),
    )
  })

  it('no welcome within the connect timeout is NO_PROVIDER, and the socket is dropped', async () => {
    let dropped: Promise<number> | undefined
    const { client, url } = await fakeCompanion({
      connectTimeoutMs: 200,
      onHello: (socket) => void (dropped = new Promise((resolve) => socket.once('close', (code) => resolve(code)))),
    })
    const error = await failure(client.ask(question))
    expect(error.message).toMatch(
      new RegExp(`^cannot reach the Ask User Companion at ${url} \\(no welcome within 200 ms\\); `),
    )
    expect(await dropped).toBe(1006)
  })

  it('Connection.open dials without a client', async () => {
    const { url } = await fakeCompanion()
    const connection = await Connection.open({ url, token: 'secret', source: 'env' }, { name: 'bare' }, WAIT_MS)
    await connection.close()
  })
})
