// Who may answer: the window credential, the one-time page links that hand it to a page, and what the UI
// channel refuses, against a real companion on port 0 (and a real second Unix user for the redeemer).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WindowFileSchema } from '../../../shared/window-link'
import { attackerSkipReason, createAttacker, type Attacker } from '../../helpers/attacker-user'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'

let t: TestCompanion
afterEach(() => t.cleanup())

async function post(
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${t.companion.port}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const codeOf = (link: string): string => new URL(link).hash.replace('#code=', '')

describe('page links', () => {
  it('a link redeems once, for our own uid, to the window credential (never the agent token)', async () => {
    t = await startTestCompanion()
    const link = t.companion.windowLink()
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{32}$/)
    expect(link).not.toContain(t.companion.token)
    const redeemed = await post('/v1/window/redeem', { code: codeOf(link) })
    expect(redeemed).toEqual({ status: 200, body: { credential: t.companion.windowCredential() } })
    expect(t.companion.windowCredential()).not.toBe(t.companion.token)
  })

  it('a second redemption is an alarm: the credential rotates, open windows are closed 4401, window.json follows', async () => {
    t = await startTestCompanion()
    const code = codeOf(t.companion.windowLink())
    const first = await post('/v1/window/redeem', { code })
    const window = await connectUi({ uiUrl: t.companion.uiUrl, token: first.body['credential'] as string })
    const closed = new Promise<number>((resolve) => window.socket.once('close', (closeCode) => resolve(closeCode)))
    const second = await post('/v1/window/redeem', { code })
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ code: 'CODE_REUSED' })
    expect(await closed).toBe(4401)
    expect(t.companion.windowCredential()).not.toBe(first.body['credential'])
    const file = WindowFileSchema.parse(JSON.parse(await readFile(join(t.home, 'window.json'), 'utf8')))
    await expect
      .poll(
        async () => WindowFileSchema.parse(JSON.parse(await readFile(join(t.home, 'window.json'), 'utf8'))).credential,
      )
      .toBe(t.companion.windowCredential())
    expect(file.page).toBe(`http://127.0.0.1:${t.companion.port}/`)
  })

  it('closing right after a rotation leaves no window.json behind (the rewrite is awaited, not raced)', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ask-user-rotate-close-'))
    try {
      t = await startTestCompanion({ home })
      const code = codeOf(t.companion.windowLink())
      await post('/v1/window/redeem', { code })
      expect((await post('/v1/window/redeem', { code })).status).toBe(409)
      await t.cleanup()
      expect(await readdir(home)).not.toContain('window.json')
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it('an expired or unknown code is refused with 404 and says what to run', async () => {
    let now = 1_000_000
    t = await startTestCompanion({ now: () => now })
    const code = codeOf(t.companion.windowLink())
    now += 60_001
    expect(await post('/v1/window/redeem', { code })).toEqual({
      status: 404,
      body: {
        code: 'UNKNOWN_CODE',
        message: 'this link has expired or is not valid; run `ask-user open` for a new one',
      },
    })
    expect((await post('/v1/window/redeem', { code: 'x'.repeat(32) })).status).toBe(404)
  })

  it('where the uid cannot be told, the page gets 6 digits; 5 wrong tries change them; the right ones let it claim', async () => {
    t = await startTestCompanion({ redeemer: () => 'unknown' })
    const code = codeOf(t.companion.windowLink())
    const redeemed = await post('/v1/window/redeem', { code })
    expect(redeemed.status).toBe(202)
    const { digits, ticket } = redeemed.body['confirm'] as { digits: string; ticket: string }
    expect(digits).toMatch(/^\d{6}$/)
    expect(await post('/v1/window/claim', { ticket })).toEqual({ status: 202, body: { digits } })
    const wrong = digits === '000000' ? '111111' : '000000'
    // Confirming needs the window credential: an agent token holder cannot confirm its own page.
    expect(
      (await post('/v1/window/confirm', { digits }, { Authorization: `Bearer ${t.companion.token}` })).status,
    ).toBe(401)
    for (let i = 0; i < 5; i++) expect(t.companion.confirmWindow(wrong)).toBe(false)
    const renewed = (await post('/v1/window/claim', { ticket })).body['digits'] as string
    expect(renewed).toMatch(/^\d{6}$/)
    const confirm = await post(
      '/v1/window/confirm',
      { digits: renewed },
      { Authorization: `Bearer ${t.companion.windowCredential()}` },
    )
    expect(confirm).toEqual({ status: 200, body: { ok: true } })
    expect(await post('/v1/window/claim', { ticket })).toEqual({
      status: 200,
      body: { credential: t.companion.windowCredential() },
    })
  })

  it('minting a link needs the window credential; the agent token gets 401', async () => {
    t = await startTestCompanion()
    expect((await post('/v1/window/code', {}, { Authorization: `Bearer ${t.companion.token}` })).status).toBe(401)
    const minted = await post('/v1/window/code', {}, { Authorization: `Bearer ${t.companion.windowCredential()}` })
    expect(minted.status).toBe(200)
    expect(minted.body['url']).toBe(`http://127.0.0.1:${t.companion.port}/#code=${minted.body['code'] as string}`)
  })
})

describe('the UI channel never changes who may answer', () => {
  it('refuses pairing, device removal, relay settings and mirroring from a window with FORBIDDEN', async () => {
    t = await startTestCompanion()
    const window = await connectUi(t.companion)
    for (const type of [
      'devices/pair',
      'devices/remove',
      'relay/settings',
      'relay/mirror-local',
      'relay/remote-passwords',
    ]) {
      window.send({ type, askId: 'x' })
      const reply = await window.nextFrame((frame) => frame.type === 'rejected')
      expect(reply).toMatchObject({ type: 'rejected', code: 'FORBIDDEN' })
      expect((reply as { reason: string }).reason).toContain(`${type} changes who may answer`)
    }
    await window.close()
  })

  it("refuses the Relay view's changes over the UI channel, in the very shape the desktop window's IPC carries", async () => {
    t = await startTestCompanion()
    const window = await connectUi(t.companion)
    const changes = [
      { type: 'relay/mirror-local', on: true },
      { type: 'relay/remote-passwords', agent: 'ci-job', allow: true },
      { type: 'devices/remove', name: 'laptop-b' },
    ]
    for (const change of changes) {
      window.send(change)
      const reply = await window.nextFrame((frame) => frame.type === 'rejected')
      expect(reply).toEqual({
        type: 'rejected',
        askId: '',
        code: 'FORBIDDEN',
        reason: `${change.type} changes who may answer: it is accepted only from the desktop app's own window or from \`ask-user\` in a terminal, never over the UI channel`,
      })
    }
    await window.close()
  })
})

const skip = attackerSkipReason()
describe.skipIf(skip !== undefined)(`a redeemer from another uid${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let attacker: Attacker
  beforeAll(() => {
    attacker = createAttacker()
  })
  afterAll(() => attacker.remove())

  it('with the accept-time gate on, its connection is closed before it can send a byte of the code', async () => {
    t = await startTestCompanion()
    const code = codeOf(t.companion.windowLink())
    const script = attacker.writeFile(
      'redeem-gated.mjs',
      `
      try {
        const response = await fetch(process.argv[2], { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: process.argv[3] }) })
        console.log(JSON.stringify({ status: response.status, body: await response.text() }))
      } catch (error) {
        console.log(JSON.stringify({ failed: String(error.cause?.code ?? error) }))
      }
    `,
    )
    let last: string | undefined
    // The gate reads the socket table in batches; retried until one attempt lands after a read.
    await expect
      .poll(
        async () => {
          last = (await attacker.exec('node', [script, `http://127.0.0.1:${t.companion.port}/v1/window/redeem`, code]))
            .stdout
          return JSON.parse(last) as object
        },
        { timeout: 15_000 },
      )
      .toHaveProperty('failed')
    expect(last).not.toContain(t.companion.windowCredential())
    expect(await post('/v1/window/redeem', { code })).toEqual({
      status: 200,
      body: { credential: t.companion.windowCredential() },
    })
  })

  it('with the gate off, the redemption itself refuses it: 403, and the code still works for the person afterwards', async () => {
    t = await startTestCompanion({ preAuth: { dropOtherUsers: false } })
    const code = codeOf(t.companion.windowLink())
    const script = attacker.writeFile(
      'redeem.mjs',
      `
      const response = await fetch(process.argv[2], { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: process.argv[3] }) })
      console.log(JSON.stringify({ status: response.status, body: await response.json() }))
    `,
    )
    const run = await attacker.exec('node', [script, `http://127.0.0.1:${t.companion.port}/v1/window/redeem`, code])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    const stolen = JSON.parse(run.stdout) as { status: number; body: object }
    expect(stolen).toEqual({
      status: 403,
      body: { code: 'OTHER_USER', message: 'this link can only be opened by the user who runs the companion' },
    })
    expect(JSON.stringify(stolen)).not.toContain(t.companion.windowCredential())
    expect(await post('/v1/window/redeem', { code })).toEqual({
      status: 200,
      body: { credential: t.companion.windowCredential() },
    })
  })
})
