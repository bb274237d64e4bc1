// A peer that trickles its upgrade request (one byte at a time, never idle long enough for the idle
// timeout) is cut off at a fixed deadline counted from its connection, not from its last byte.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { createHttpServer, listenOnLoopback } from '../../../core/http-server'
import { PreAuthBudget } from '../../../core/preauth-budget'
import { trickle } from './trickle'

const DEADLINE_MS = 300
let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion({ preAuth: { deadlineMs: DEADLINE_MS } })
})
afterAll(() => t.cleanup())

it('drops a trickling upgrade request at the handshake deadline (fixed, from the connection)', async () => {
  // 40 ms a byte: about 8 s for the whole request, far beyond the 300 ms deadline.
  const request = `GET /v1/agent HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-WebSocket-Protocol: ask-user.v1\r\nX-Padding: ${'a'.repeat(120)}\r\n\r\n`
  const result = await trickle(t.companion.port, request, 40)
  expect(result.outcome).toBe('closed')
  expect(result.received).toBe('')
  // Node checks its own header timeout on a coarse interval; the fixed deadline must fire well before the request ends.
  expect(result.elapsedMs).toBeLessThan(DEADLINE_MS + 1_500)
})

it('still serves a prompt page request on the same companion', async () => {
  const response = await fetch(`http://127.0.0.1:${t.companion.port}/v1/status`, {
    headers: { Authorization: `Bearer ${t.companion.token}` },
  })
  expect(response.status).toBe(200)
})

it("the fixed deadline is its own: with Node's header and request timeouts out of the way, it still drops the trickler", async () => {
  const server = createHttpServer({
    routes: { port: () => 0, tokenMatches: () => false, staticDir: undefined, status: () => ({}) as never },
    preAuth: new PreAuthBudget({ maxSockets: 10, deadlineMs: DEADLINE_MS }),
    preAuthDeadlineMs: DEADLINE_MS,
    maxConnections: 10,
    onUpgrade: (_req, socket) => socket.destroy(),
  })
  server.headersTimeout = 0 // Node's own guards off: only ours is left
  server.requestTimeout = 0
  const port = await listenOnLoopback(server, 0)
  try {
    const result = await trickle(
      port,
      `GET /v1/agent HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(150)}\r\n\r\n`,
      40,
    )
    expect(result.outcome).toBe('closed')
    expect(result.elapsedMs).toBeLessThan(DEADLINE_MS + 1_000)
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
