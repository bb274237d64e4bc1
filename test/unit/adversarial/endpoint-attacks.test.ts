// The endpoint under attack: every refusal is the documented HTTP status, a thousand failed attempts
// leave the companion healthy (no socket, ask or heap left behind), a half-open peer is dropped by
// the heartbeat, and the connection cap answers 503 while valid agents still get in once a slot frees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { askFrame, helloAgent, poll, tryUpgrade, type RawAgent } from '../core/raw-agent'
import { openRaw } from './raw-socket'

const CAP = 6
let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion({ heartbeatMs: 150, settings: { limits: { ...DEFAULT_LIMITS, connections: CAP } } })
})
afterAll(() => t.cleanup())

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` })
const status = async (): Promise<{ pending: number; agents: number; windows: number }> => {
  const response = await fetch(`http://127.0.0.1:${t.companion.port}/v1/status`, { headers: bearer(t.companion.token) })
  return (await response.json()) as { pending: number; agents: number; windows: number }
}

/** One hostile upgrade attempt and the status it must get. */
interface Attempt {
  name: string
  url: () => string
  protocols: string[] | (() => string[])
  headers: () => Record<string, string>
  status: number
}

const agentUrl = (): string => t.companion.agentUrl
const uiUrl = (): string => t.companion.uiUrl
const ORIGINS = [
  'null',
  'https://evil.example',
  'file://',
  'http://127.0.0.1:1',
  'http://localhost.evil.example',
  'chrome-extension://abc',
]
const ATTEMPTS: Attempt[] = [
  { name: 'agent: no token', url: agentUrl, protocols: ['ask-user.v1'], headers: () => ({}), status: 401 },
  {
    name: 'agent: wrong token',
    url: agentUrl,
    protocols: ['ask-user.v1'],
    headers: () => bearer('A'.repeat(43)),
    status: 401,
  },
  {
    name: 'agent: token in the query string',
    url: () => `${agentUrl()}?token=${t.companion.token}`,
    protocols: ['ask-user.v1'],
    headers: () => ({}),
    status: 401,
  },
  {
    name: 'agent: token as access_token',
    url: () => `${agentUrl()}?access_token=${t.companion.token}`,
    protocols: ['ask-user.v1'],
    headers: () => ({}),
    status: 401,
  },
  {
    name: 'agent: token as a subprotocol',
    url: agentUrl,
    protocols: ['ask-user.v1', `token.${'x'}`],
    headers: () => ({}),
    status: 401,
  },
  ...ORIGINS.map((origin): Attempt => ({
    name: `agent: Origin ${origin}`,
    url: agentUrl,
    protocols: ['ask-user.v1'],
    headers: () => ({ ...bearer(t.companion.token), Origin: origin }),
    status: 403,
  })),
  {
    name: 'agent: foreign Host',
    url: agentUrl,
    protocols: ['ask-user.v1'],
    headers: () => ({ ...bearer(t.companion.token), Host: 'evil.example' }),
    status: 403,
  },
  {
    name: 'agent: rebinding Host 127.0.0.1.evil.example',
    url: agentUrl,
    protocols: ['ask-user.v1'],
    headers: () => ({ ...bearer(t.companion.token), Host: '127.0.0.1.evil.example' }),
    status: 403,
  },
  {
    name: 'agent: missing subprotocol',
    url: agentUrl,
    protocols: [],
    headers: () => bearer(t.companion.token),
    status: 426,
  },
  { name: 'ui: no token', url: uiUrl, protocols: ['ask-user.ui.v1'], headers: () => ({}), status: 401 },
  {
    name: 'ui: the agent token as bearer',
    url: uiUrl,
    protocols: ['ask-user.ui.v1'],
    headers: () => bearer(t.companion.token),
    status: 401,
  },
  {
    name: 'ui: the agent token as a subprotocol',
    url: uiUrl,
    protocols: () => ['ask-user.ui.v1', `token.${t.companion.token}`],
    headers: () => ({}),
    status: 401,
  },
  {
    name: 'agent: the proof subprotocol without a nonce',
    url: agentUrl,
    protocols: ['ask-user.v1.proof'],
    headers: () => ({}),
    status: 400,
  },
  {
    name: 'agent: the proof subprotocol with two nonces',
    url: agentUrl,
    protocols: ['ask-user.v1.proof', `nonce.${'a'.repeat(43)}`, `nonce.${'b'.repeat(43)}`],
    headers: () => ({}),
    status: 400,
  },
  {
    name: 'ui: wrong token subprotocol',
    url: uiUrl,
    protocols: ['ask-user.ui.v1', 'token.wrong'],
    headers: () => ({}),
    status: 401,
  },
  {
    name: 'ui: token in the query string',
    url: () => `${uiUrl()}?token=${t.companion.token}`,
    protocols: ['ask-user.ui.v1'],
    headers: () => ({}),
    status: 401,
  },
  ...ORIGINS.map((origin): Attempt => ({
    name: `ui: Origin ${origin}`,
    url: uiUrl,
    protocols: ['ask-user.ui.v1'],
    headers: () => ({ ...bearer(t.companion.token), Origin: origin }),
    status: 403,
  })),
  {
    name: 'ui: foreign Host',
    url: uiUrl,
    protocols: ['ask-user.ui.v1'],
    headers: () => ({ ...bearer(t.companion.token), Host: 'evil.example:80' }),
    status: 403,
  },
  { name: 'ui: missing subprotocol', url: uiUrl, protocols: [], headers: () => bearer(t.companion.token), status: 426 },
]

describe('each hostile upgrade gets its documented status', () => {
  it.each(ATTEMPTS)('$name → $status', async ({ url, protocols, headers, status: expected }) => {
    expect(await tryUpgrade(url(), typeof protocols === 'function' ? protocols() : protocols, headers())).toEqual({
      status: expected,
    })
  })
})

it('1,000 failed attempts (50 at a time) leave the companion healthy: no socket, ask or heap left', async () => {
  const heapBefore = process.memoryUsage().heapUsed
  const statuses = new Map<number, number>()
  for (let batch = 0; batch < 20; batch++) {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const attempt = ATTEMPTS[(batch * 50 + i) % ATTEMPTS.length]!
        return tryUpgrade(
          attempt.url(),
          typeof attempt.protocols === 'function' ? attempt.protocols() : attempt.protocols,
          attempt.headers(),
        ).then((result) => {
          expect(result.status).toBe(attempt.status)
          return result.status
        })
      }),
    )
    for (const code of results) statuses.set(code, (statuses.get(code) ?? 0) + 1)
  }
  expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(1000)
  expect(await status()).toMatchObject({ pending: 0, agents: 0, windows: 0 })
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024)
  const agent = await helloAgent(t.companion)
  agent.send(askFrame('after-attack'))
  await poll(() => t.companion.pending().length).toBe(1)
  agent.socket.close()
  await poll(() => t.companion.pending().length).toBe(0)
})

it('drops a half-open agent (upgraded, said hello, never answers a ping); its ask resolves agent-gone', async () => {
  const outcomes: string[] = []
  const off = t.companion.on('resolved', (_askId, outcome) => outcomes.push(outcome))
  const raw = await openRaw(t.companion.port, '/v1/agent', {
    ...bearer(t.companion.token),
    'Sec-WebSocket-Protocol': 'ask-user.v1',
  })
  raw.text(JSON.stringify({ type: 'hello', protocol: 1, client: { name: 'half-open' } }))
  await raw.nextText()
  raw.text(JSON.stringify(askFrame('h1')))
  await poll(() => t.companion.pending().length).toBe(1)
  expect(await raw.closeCode).toBe(1006) // terminated: no closing handshake for a dead peer
  await poll(() => outcomes).toEqual(['agent-gone'])
  off()
})

it('at the connection cap answers 503 (hostile attempts still get their own status), and a valid agent gets in once a slot frees', async () => {
  await poll(async () => (await status()).agents).toBe(0)
  const held: RawAgent[] = []
  for (let i = 0; i < CAP; i++) held.push(await helloAgent(t.companion, `holder-${i}`))
  expect(await tryUpgrade(agentUrl(), ['ask-user.v1'], bearer(t.companion.token))).toEqual({ status: 503 })
  expect(await tryUpgrade(uiUrl(), ['ask-user.ui.v1'], bearer(t.companion.windowCredential()))).toEqual({ status: 503 })
  expect(await tryUpgrade(agentUrl(), ['ask-user.v1'], bearer('B'.repeat(43)))).toEqual({ status: 401 })
  held.pop()!.socket.close()
  await poll(() => tryUpgrade(agentUrl(), ['ask-user.v1'], bearer(t.companion.token)).then((r) => r.status)).toBe(101)
  for (const agent of held) agent.socket.close()
  await poll(async () => (await status()).agents).toBe(0)
})
