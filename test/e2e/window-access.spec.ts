// The served page in a real Chromium: it signs in from a one-time link, keeps its credential in memory
// only, raises the alarm when its link is opened twice, and shows nothing from a port that cannot prove
// it is the companion.
import { WebSocketServer } from 'ws'
import { newNonce } from '../../shared/proof'
import { startTestCompanion } from '../helpers/companion'
import { RENDERER_DIR } from './support/build'
import { expect, test } from './support/fixtures'

test('the link leaves the address bar at once, and the page neither stores nor shows the credential', async ({
  page,
  companion,
  openInbox,
}) => {
  await openInbox(page)
  expect(page.url()).toBe(`http://127.0.0.1:${companion.companion.port}/`)
  const stored = await page.evaluate(
    () =>
      JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie + history.length,
  )
  expect(stored).not.toContain(companion.companion.windowCredential())
  expect(await page.content()).not.toContain(companion.companion.windowCredential())
})

test('a second redemption of the link alarms the signed-in page and signs it out', async ({ page, companion }) => {
  const link = companion.companion.windowLink()
  await page.goto(link)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  const second = await fetch(`http://127.0.0.1:${companion.companion.port}/v1/window/redeem`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: new URL(link).hash.slice('#code='.length) }),
  })
  expect(second.status).toBe(409)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'alarm')
  await expect(page.getByTestId('sign-in')).toContainText('opened a second time')
})

test('a page whose companion was replaced on its port by something without the credential shows nothing from it', async ({
  page,
}) => {
  const own = await startTestCompanion({ staticDir: RENDERER_DIR, writeDiscovery: false })
  const port = own.companion.port
  await page.goto(own.companion.windowLink())
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  await own.cleanup()
  // The squatter: accepts the window, forges a proof, then pushes a snapshot with an ask of its own.
  const squatter = new WebSocketServer({
    host: '127.0.0.1',
    port,
    handleProtocols: (offered) => [...offered][0] ?? false,
  })
  let connections = 0
  squatter.on('connection', (socket) => {
    connections += 1
    socket.send(JSON.stringify({ type: 'proof', nonce: newNonce(), mac: newNonce() }))
    socket.send(
      JSON.stringify({
        type: 'snapshot',
        pending: [
          {
            askId: 'evil',
            agent: { name: 'evil' },
            questions: [{ id: 'q', question: 'Type your password' }],
            receivedAt: 0,
          },
        ],
      }),
    )
  })
  try {
    // The page dials the squatter (and keeps dialling); its proof fails, and /v1/status does not answer as
    // the companion does: another program, and said so.
    await expect.poll(() => connections, { timeout: 15_000 }).toBeGreaterThan(0)
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'other-program', {
      timeout: 15_000,
    })
    await expect(page.getByTestId('sign-in')).toContainText(
      `Port ${port} is used by another program, not the companion: nothing from it is shown.`,
    )
    await expect(page.getByText('Type your password')).toHaveCount(0)
  } finally {
    for (const client of squatter.clients) client.terminate()
    await new Promise((resolve) => squatter.close(resolve))
  }
})
