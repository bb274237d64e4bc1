import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { DEFAULT_LIMITS } from '../../../shared/limits'
import { isLoopbackHost, isOwnOrigin } from '../../../core/handshake'
import { tryUpgrade, poll } from './raw-agent'

let t: TestCompanion
beforeAll(async () => {
  t = await startTestCompanion({ settings: { limits: { ...DEFAULT_LIMITS, connections: 3 } } })
})
afterAll(() => t.cleanup())

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` })

describe('agent endpoint handshake', () => {
  it('accepts loopback, subprotocol and token with 101 and selects ask-user.v1', async () => {
    expect(await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], bearer(t.companion.token))).toEqual({
      status: 101,
      protocol: 'ask-user.v1',
    })
  })
  it('refuses any Origin with 403, including "null" and its own', async () => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${t.companion.port}`]) {
      expect(
        await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], { ...bearer(t.companion.token), Origin: origin }),
      ).toEqual({ status: 403 })
    }
  })
  it('refuses a foreign Host with 403 (DNS rebinding)', async () => {
    expect(
      await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], {
        ...bearer(t.companion.token),
        Host: 'evil.example:80',
      }),
    ).toEqual({ status: 403 })
  })
  it('accepts localhost and [::1] Host headers on any port', async () => {
    for (const host of ['localhost:9', '[::1]:1234', '127.0.0.1']) {
      expect(
        (await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], { ...bearer(t.companion.token), Host: host })).status,
      ).toBe(101)
    }
  })
  it('refuses a missing or wrong subprotocol with 426', async () => {
    expect(await tryUpgrade(t.companion.agentUrl, [], bearer(t.companion.token))).toEqual({ status: 426 })
    expect(await tryUpgrade(t.companion.agentUrl, ['ask-user.v2'], bearer(t.companion.token))).toEqual({ status: 426 })
  })
  it('refuses a wrong or missing token with 401', async () => {
    expect(await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], bearer('x'.repeat(43)))).toEqual({ status: 401 })
    expect(await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], {})).toEqual({ status: 401 })
    expect(await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], { Authorization: t.companion.token })).toEqual({
      status: 401,
    })
  })
  it('answers unknown paths with 404', async () => {
    expect(
      await tryUpgrade(
        t.companion.agentUrl.replace('/v1/agent', '/v2/agent'),
        ['ask-user.v1'],
        bearer(t.companion.token),
      ),
    ).toEqual({ status: 404 })
  })
  it('answers 503 past the connection cap', async () => {
    const windows = await Promise.all([1, 2, 3].map(() => connectUi(t.companion)))
    expect(await tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], bearer(t.companion.token))).toEqual({ status: 503 })
    await Promise.all(windows.map((w) => w.close()))
    await poll(() =>
      tryUpgrade(t.companion.agentUrl, ['ask-user.v1'], bearer(t.companion.token)).then((r) => r.status),
    ).toBe(101)
  })
})

describe('UI channel handshake', () => {
  const ui = (): string => t.companion.uiUrl
  it('takes the window credential from a token.<credential> subprotocol and selects ask-user.ui.v1', async () => {
    expect(await tryUpgrade(ui(), ['ask-user.ui.v1', `token.${t.companion.windowCredential()}`], {})).toEqual({
      status: 101,
      protocol: 'ask-user.ui.v1',
    })
  })
  it('takes the window credential from a bearer header', async () => {
    expect(await tryUpgrade(ui(), ['ask-user.ui.v1'], bearer(t.companion.windowCredential()))).toEqual({
      status: 101,
      protocol: 'ask-user.ui.v1',
    })
  })
  it("accepts the companion's own origin and refuses others with 403", async () => {
    const protocols = ['ask-user.ui.v1', `token.${t.companion.windowCredential()}`]
    for (const origin of [`http://127.0.0.1:${t.companion.port}`, `http://localhost:${t.companion.port}`]) {
      expect((await tryUpgrade(ui(), protocols, { Origin: origin })).status).toBe(101)
    }
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${t.companion.port + 1}`]) {
      expect(await tryUpgrade(ui(), protocols, { Origin: origin })).toEqual({ status: 403 })
    }
  })
  it('checks Host, subprotocol and token', async () => {
    expect(
      await tryUpgrade(ui(), ['ask-user.ui.v1', `token.${t.companion.windowCredential()}`], { Host: 'evil.example' }),
    ).toEqual({ status: 403 })
    expect(await tryUpgrade(ui(), [`token.${t.companion.windowCredential()}`], {})).toEqual({ status: 426 })
    expect(await tryUpgrade(ui(), ['ask-user.ui.v1', 'token.wrong'], {})).toEqual({ status: 401 })
    expect(await tryUpgrade(ui(), ['ask-user.ui.v1'], {})).toEqual({ status: 401 })
  })
  it('refuses the agent token: a token holder (a forwarded one, say) can ask but never open a window', async () => {
    expect(await tryUpgrade(ui(), ['ask-user.ui.v1', `token.${t.companion.token}`], {})).toEqual({ status: 401 })
    expect(await tryUpgrade(ui(), ['ask-user.ui.v1'], bearer(t.companion.token))).toEqual({ status: 401 })
  })
})

describe('host and origin predicates', () => {
  it('knows loopback hosts', () => {
    expect(['127.0.0.1:1', 'LOCALHOST', '[::1]', 'localhost:65535'].every(isLoopbackHost)).toBe(true)
    expect(['127.0.0.2', 'localhost.evil.example', '[::2]:1', '', '0.0.0.0:80', undefined].some(isLoopbackHost)).toBe(
      false,
    )
  })
  it('knows its own origin', () => {
    expect(isOwnOrigin('http://[::1]:5', 5)).toBe(true)
    expect(isOwnOrigin('https://127.0.0.1:5', 5)).toBe(false)
  })
})

describe('timeouts before the upgrade', () => {
  it('drops a TCP connection that sends nothing within the pre-auth deadline', async () => {
    const quick = await startTestCompanion({ preAuth: { deadlineMs: 100 } })
    try {
      const socket = connect(quick.companion.port, '127.0.0.1')
      socket.on('error', () => undefined)
      let ended = false
      let received = ''
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
      socket.once('end', () => (ended = true))
      const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')))
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<'still open'>((resolve) => (timer = setTimeout(() => resolve('still open'), 10_000)))
      const outcome = await Promise.race([closed, deadline])
      clearTimeout(timer)
      socket.destroy()
      expect(outcome).toBe('closed')
      expect(ended).toBe(true) // the companion hung up, not this side
      expect(received).not.toContain('101 Switching Protocols')
    } finally {
      await quick.cleanup()
    }
  })
})
