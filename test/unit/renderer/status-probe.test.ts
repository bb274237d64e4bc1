// Who answers on the page's port, as the served page's probe sees it after its socket failed: the real
// companion (its 401 names the service), another program (a 503, another server's 401), nothing.
// Real sockets on port 0; only the page's relative URL is made absolute, as the browser would.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { whoAnswers } from '../../../renderer/src/bridge/status-probe'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'

/** `fetch` as the page at `http://127.0.0.1:<port>/` does it: a path resolves against that origin. */
const pageAt =
  (port: number): typeof fetch =>
  (input, init) =>
    fetch(new URL(String(input), `http://127.0.0.1:${port}/`), init)

async function standIn(status: number, body: string): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
const portOf = (server: Server): number => (server.address() as AddressInfo).port

let companion: TestCompanion
const servers: Server[] = []

beforeAll(async () => {
  companion = await startTestCompanion()
})
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve))
  await companion?.cleanup()
})

describe('whoAnswers', () => {
  it('the companion: its 401 names the service', async () => {
    expect(await whoAnswers(pageAt(companion.companion.port))).toBe('companion')
  })

  it('another program: a 503, or a 401 that is not the companion’s', async () => {
    const busy = await standIn(503, 'busy\n')
    const locked = await standIn(401, 'missing or wrong bearer token\n')
    servers.push(busy, locked)
    expect(await whoAnswers(pageAt(portOf(busy)))).toBe('other-program')
    expect(await whoAnswers(pageAt(portOf(locked)))).toBe('other-program')
  })

  it('nothing on the port', async () => {
    const gone = await standIn(200, '')
    const port = portOf(gone)
    await new Promise((resolve) => gone.close(resolve))
    expect(await whoAnswers(pageAt(port))).toBe('nothing')
  })
})
