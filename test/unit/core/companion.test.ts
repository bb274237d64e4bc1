import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { startCompanion } from '../../../core'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { connectUi } from '../../helpers/ui-client'
import { askFrame, helloAgent } from './raw-agent'
import { pageCsp } from '../../../shared/csp'

let t: TestCompanion | undefined
afterEach(async () => {
  await t?.cleanup()
  t = undefined
})

const get = (url: string, headers: Record<string, string> = {}): Promise<Response> => fetch(url, { headers })

describe('graceful shutdown', () => {
  it('fails pending asks with ASK_ABORTED, closes agents and windows with 1001, is idempotent', async () => {
    t = await startTestCompanion()
    const { companion } = t
    const ui = await connectUi(companion)
    const agent = await helloAgent(companion)
    agent.send(askFrame('a1'))
    const ask = await ui.nextAsk()
    const uiClosed = new Promise<number>((resolve) => ui.socket.once('close', (code) => resolve(code)))
    const resolved = ui.nextFrame((f) => f.type === 'question/resolved')
    await Promise.all([companion.close(), companion.close()])
    expect(agent.frames.at(-1)).toEqual({
      type: 'error',
      id: 'a1',
      code: 'ASK_ABORTED',
      message: 'the companion is shutting down',
    })
    expect((await agent.closed).code).toBe(1001)
    expect(await resolved).toEqual({ type: 'question/resolved', askId: ask.askId, outcome: 'aborted' })
    expect(await uiClosed).toBe(1001)
    expect(await companion.history()).toMatchObject([{ askId: ask.askId, outcome: 'aborted' }])
    await expect(get(`http://127.0.0.1:${companion.port}/v1/status`)).rejects.toThrow()
  })
})

describe('robustness', () => {
  it('survives hundreds of random frames on both endpoints, then serves a normal ask', async () => {
    t = await startTestCompanion()
    const { companion } = t
    const agent = await helloAgent(companion)
    const ui = await connectUi(companion)
    const frame = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record(
        {
          type: fc.constantFrom('hello', 'ask', 'cancel', 'answer', 'dismiss', 'history/get', 'x'),
          id: fc.anything(),
          askId: fc.anything(),
          questions: fc.anything(),
          answers: fc.anything(),
          protocol: fc.anything(),
          client: fc.anything(),
          limit: fc.anything(),
        },
        { requiredKeys: ['type'] },
      ),
    )
    const samples = fc.sample(frame, { numRuns: 300, seed: 42 })
    for (const sample of samples) {
      const text = typeof sample === 'string' ? sample : (JSON.stringify(sample) ?? 'undefined')
      agent.socket.send(text)
      ui.socket.send(text)
    }
    agent.send(askFrame('after-fuzz'))
    const ask = await ui.nextAsk((a) => a.questions[0]?.question === 'Which database?')
    expect(await ui.answer(ask.askId, [{ id: 'q1', selected: ['SQLite'] }])).toMatchObject({ type: 'accepted' })
    expect(await agent.next((f) => f.type === 'answer' && f.id === 'after-fuzz')).toMatchObject({
      answers: [{ id: 'q1', selected: ['SQLite'] }],
    })
    await ui.close()
  })

  it('reports a taken port clearly', async () => {
    t = await startTestCompanion()
    await expect(
      startCompanion({ port: t.companion.port, writeDiscovery: false, home: t.home, onWarning: () => undefined }),
    ).rejects.toThrow(`port ${t.companion.port} on 127.0.0.1 is already in use`)
  })
})

describe('HTTP', () => {
  it('GET /v1/status needs the bearer token and counts pending, agents and windows', async () => {
    t = await startTestCompanion({ serverInfo: { name: 'c', version: '1.2.3' } })
    const url = `http://127.0.0.1:${t.companion.port}/v1/status`
    const refused = await get(url)
    expect(refused.status).toBe(401)
    // The refusal names the service: a page whose socket failed tells the companion from another program by it.
    expect(await refused.json()).toEqual({
      code: 'UNAUTHORIZED',
      message: 'missing or wrong bearer token',
      service: 'ask-user-companion',
    })
    expect((await get(url, { Authorization: 'Bearer nope' })).status).toBe(401)
    const ui = await connectUi(t.companion)
    const agent = await helloAgent(t.companion)
    agent.send(askFrame('a1'))
    await ui.nextAsk()
    const ok = await get(url, { Authorization: `Bearer ${t.companion.token}` })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({
      protocol: 1,
      server: { name: 'c', version: '1.2.3' },
      pending: 1,
      agents: 1,
      windows: 1,
    })
    expect(
      (await get(url, { Authorization: `Bearer ${t.companion.token}`, Origin: 'https://evil.example' })).status,
    ).toBe(403)
    await ui.close()
  })

  it('serves the static renderer with traversal refused, a placeholder when unbuilt, 404 without staticDir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ask-user-static-'))
    try {
      await mkdir(join(dir, 'assets'))
      await writeFile(join(dir, 'index.html'), '<!doctype html><title>UI</title>')
      await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)')
      t = await startTestCompanion({ staticDir: dir })
      const base = `http://127.0.0.1:${t.companion.port}`
      const index = await get(`${base}/`)
      expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await index.text()).toContain('<title>UI</title>')
      expect((await get(`${base}/assets/app.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect((await get(`${base}/assets/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404)
      expect((await get(`${base}/missing.js`)).status).toBe(404)
      expect((await get(`${base}/v1/agent`)).status).toBe(426)
      // the browser build's page once it exists, with the browser CSP, no framing and no referrer
      await writeFile(join(dir, 'web.html'), '<!doctype html><title>Web</title>')
      const web = await get(`${base}/`)
      expect(await web.text()).toContain('<title>Web</title>')
      expect(web.headers.get('content-security-policy')).toBe(pageCsp('web', 'header'))
      expect(web.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(web.headers.get('content-security-policy')).toContain("img-src 'self';")
      expect(web.headers.get('content-security-policy')).toContain('ws://127.0.0.1:*')
      expect(web.headers.get('referrer-policy')).toBe('no-referrer')
      expect(web.headers.get('x-frame-options')).toBe('DENY')
      await t.cleanup()
      t = await startTestCompanion({ staticDir: join(dir, 'nothing-here') })
      expect(await (await get(`http://127.0.0.1:${t.companion.port}/`)).text()).toContain('npm run build')
      await t.cleanup()
      t = await startTestCompanion()
      expect((await get(`http://127.0.0.1:${t.companion.port}/`)).status).toBe(404)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
