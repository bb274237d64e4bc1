// The words `ask` and `status` print when they cannot use a companion: the same for both, and the
// "start the Ask User Companion app" tail only when no companion runs (newcomer review L2).
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { START_HINT } from '../../../agent/errors'
import { main } from '../../../cli/main'
import { memoryIo } from './memory-io'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

/** A port with nothing listening: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((done) => server.close(done))
  return port
}

async function run(command: 'ask' | 'status', env: NodeJS.ProcessEnv): Promise<{ code: number; err: string }> {
  const io = memoryIo(env)
  const args = command === 'ask' ? ['ask', '--question', 'Deploy now?'] : ['status']
  const code = await main(args, io)
  expect(io.out()).toBe('')
  return { code, err: io.err() }
}

describe('no companion to use: ask and status say the same, and the next step that works', () => {
  it('a refused connection: the same words from both, with how to start a companion (exit 4)', async () => {
    const url = `ws://127.0.0.1:${await closedPort()}/v1/agent`
    const env = { ASK_USER_URL: url, ASK_USER_TOKEN: 'x' }
    const expected = {
      code: 4,
      err: `Error: cannot reach the Ask User Companion at ${url} (ECONNREFUSED); ${START_HINT}\n`,
    }
    expect(await run('ask', env)).toEqual(expected)
    expect(await run('status', env)).toEqual(expected)
  })

  it('ASK_USER_URL without a token says only that', async () => {
    const env = { ASK_USER_URL: 'ws://127.0.0.1:9/v1/agent' }
    const expected = {
      code: 4,
      err: 'Error: ASK_USER_URL is set but neither ASK_USER_TOKEN_FILE nor ASK_USER_TOKEN is; set one of them, or unset ASK_USER_URL\n',
    }
    expect(await run('ask', env)).toEqual(expected)
    expect(await run('status', env)).toEqual(expected)
  })

  it('an HTTP 401 says the token is stale, never to start a companion that runs', async () => {
    const server = createServer((_req, res) => res.writeHead(401).end('missing or wrong bearer token\n'))
    server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'))
    servers.push(server.listen(0, '127.0.0.1'))
    await once(server, 'listening')
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/agent`
    const env = { ASK_USER_URL: url, ASK_USER_TOKEN: 'old' }
    const expected = {
      code: 4,
      err:
        `Error: cannot reach the Ask User Companion at ${url} (it answered HTTP 401; the token is stale); ` +
        "set ASK_USER_TOKEN_FILE (or ASK_USER_TOKEN) to the running companion's current token, or unset ASK_USER_URL\n",
    }
    expect(await run('ask', env)).toEqual(expected)
    expect(await run('status', env)).toEqual(expected)
  })
})
