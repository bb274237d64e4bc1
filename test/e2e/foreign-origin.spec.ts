// A real web page from another origin (a second loopback server) tries `new WebSocket` against both
// endpoints, even holding the token: Chromium never gets a connection; every refusal is server-side
// (the companion counts no agent and no window).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './support/fixtures'

let foreign: Server
let foreignUrl = ''
test.beforeAll(async () => {
  foreign = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>another site</title><p>another site')
  })
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`
})
test.afterAll(async () => {
  await new Promise<void>((resolve) => foreign.close(() => resolve()))
})

test('a page from another origin cannot open the agent endpoint or the UI channel', async ({ page, companion }) => {
  await page.goto(foreignUrl)
  const { agentUrl, uiUrl, token } = companion.companion
  const credential = companion.companion.windowCredential()
  const attempts = [
    { url: agentUrl, protocols: ['ask-user.v1'] },
    { url: `${agentUrl}?token=${token}`, protocols: ['ask-user.v1'] },
    { url: uiUrl, protocols: ['ask-user.ui.v1', `token.${credential}`] },
    { url: uiUrl.replace('127.0.0.1', 'localhost'), protocols: ['ask-user.ui.v1', `token.${credential}`] },
  ]
  const results = await page.evaluate(
    (list) =>
      Promise.all(
        list.map(
          ({ url, protocols }) =>
            new Promise<{ opened: boolean; code: number }>((resolve) => {
              const socket = new WebSocket(url, protocols)
              let opened = false
              socket.onopen = () => (opened = true)
              socket.onclose = (event) => resolve({ opened, code: event.code })
            }),
        ),
      ),
    attempts,
  )
  expect(results).toEqual(attempts.map(() => ({ opened: false, code: 1006 })))
  const status = await fetch(`http://127.0.0.1:${companion.companion.port}/v1/status`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(await status.json()).toMatchObject({ agents: 0, windows: 0 })
})

test("the same page on the companion's own origin does open the UI channel (the refusal above is the Origin check)", async ({
  page,
  companion,
}) => {
  await page.goto(`http://127.0.0.1:${companion.companion.port}/v1/status`)
  const { uiUrl } = companion.companion
  const token = companion.companion.windowCredential()
  const opened = await page.evaluate(
    ({ url, protocols }) =>
      new Promise<boolean>((resolve) => {
        const socket = new WebSocket(url, protocols)
        socket.onopen = () => {
          socket.close()
          resolve(true)
        }
        socket.onclose = () => resolve(false)
      }),
    { url: uiUrl, protocols: ['ask-user.ui.v1', `token.${token}`] },
  )
  expect(opened).toBe(true)
})
