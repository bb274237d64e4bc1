// The served page in a real Chromium never claims "all clear" when it does not know: a companion that
// went away makes it say so (port named, count unknown, old notices greyed), and one that came back
// with a new credential makes it say "The companion restarted: run `ask-user open`", and another
// program on its port makes it say so, with the next step.
import { createServer, type Server } from 'node:http'
import type { Page, Response } from '@playwright/test'
import { AskUserClient } from '../../agent'
import { startTestCompanion, type TestCompanion } from '../helpers/companion'
import { ensureRendererBuilt, RENDERER_DIR } from './support/build'
import { expect, test } from './support/fixtures'

/** Counts every moment `[data-testid=empty-inbox]` is in the page from now on (an observer only). */
async function watchForAllClear(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const seen = { count: 0 }
    ;(window as unknown as { allClearSeen: typeof seen }).allClearSeen = seen
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="empty-inbox"]')) seen.count += 1
    }).observe(document.body, { childList: true, subtree: true })
  })
  return () => page.evaluate(() => (window as unknown as { allClearSeen: { count: number } }).allClearSeen.count)
}

test('a stopped companion: the page says it is not connected, never "Nothing to answer"; a restarted one: run `ask-user open`', async ({
  page,
}) => {
  ensureRendererBuilt()
  let running: TestCompanion | undefined = await startTestCompanion({ staticDir: RENDERER_DIR, writeDiscovery: false })
  const port = running.companion.port
  const agent = new AskUserClient({
    env: { ASK_USER_URL: running.companion.agentUrl, ASK_USER_TOKEN: running.companion.token },
    name: 'builder',
    cwd: '/home/ada/src/builder',
  })
  try {
    await page.goto(running.companion.windowLink())
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
    await agent.notify({ kind: 'turn-complete', text: 'Build finished' })
    await expect(page.getByTestId('notice')).toHaveCount(1)
    await expect(page.getByTestId('notices')).toHaveAttribute('data-stale', 'false')
    await expect(page.getByTestId('empty-inbox')).toBeVisible()
    await expect(page.getByTestId('pending-count')).toHaveText('0 pending')
    await agent.close()
    const allClearSeen = await watchForAllClear(page)

    await running.cleanup()
    running = undefined
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'unreachable', {
      timeout: 15_000,
    })
    await expect(page.getByTestId('sign-in')).toHaveText(
      `Not connected to the companion on port ${port}; retrying. If it restarted, run \`ask-user open\`.`,
    )
    await expect(page.getByTestId('inbox-unknown')).toBeVisible()
    await expect(page.getByTestId('empty-inbox')).toHaveCount(0)
    await expect(page.getByTestId('pending-count')).toHaveText('? pending')
    await expect(page).toHaveTitle('(?) Ask User Companion')
    await expect(page.getByTestId('notices')).toHaveAttribute('data-stale', 'true')

    // The same port, a new companion: its window credential is new, so this page's is refused.
    running = await startTestCompanion({ staticDir: RENDERER_DIR, writeDiscovery: false, port })
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'unverified', {
      timeout: 15_000,
    })
    await expect(page.getByTestId('sign-in')).toContainText('The companion restarted: run `ask-user open`')
    await expect(page.getByTestId('inbox-unknown')).toBeVisible()
    await expect(page.getByTestId('pending-count')).toHaveText('? pending')
    expect(await allClearSeen()).toBe(0)

    // The new link in the same tab signs it in again.
    await page.goto(running.companion.windowLink())
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
    await expect(page.getByTestId('empty-inbox')).toBeVisible()
  } finally {
    await agent.close()
    await page.close()
    await running?.cleanup()
  }
})

/** A stand-in for another program on the port: plain HTTP, 503 to everything (a busy proxy, a dev server). */
async function otherProgramOn(port: number): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy\n'))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return server
}

test('another program on the port: the page says the port is taken, not that the companion restarted', async ({
  page,
}) => {
  ensureRendererBuilt()
  let running: TestCompanion | undefined = await startTestCompanion({ staticDir: RENDERER_DIR, writeDiscovery: false })
  const port = running.companion.port
  let other: Server | undefined
  try {
    await page.goto(running.companion.windowLink())
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
    await running.cleanup()
    running = undefined
    other = await otherProgramOn(port)
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'other-program', {
      timeout: 15_000,
    })
    await expect(page.getByTestId('connection-status')).toHaveText('Port used by another program')
    await expect(page.getByTestId('sign-in')).toHaveText(
      `Port ${port} is used by another program, not the companion: nothing from it is shown. Stop that program, or start the companion on a free port (\`ask-user serve --port 0\`), then run \`ask-user open\`.`,
    )
    await expect(page.getByTestId('pending-count')).toHaveText('? pending')
    await expect(page.getByTestId('empty-inbox')).toHaveCount(0)

    // The program goes and the companion comes back on the port: now it is "restarted", not "another program".
    const closing = other
    other = undefined
    await new Promise<void>((resolve) => {
      closing.close(() => resolve())
      closing.closeAllConnections()
    })
    running = await startTestCompanion({ staticDir: RENDERER_DIR, writeDiscovery: false, port })
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'unverified', {
      timeout: 15_000,
    })
    // Each failed proof is followed by a probe; once two more have had the companion's 401, the words stand.
    const companionRefusal = (response: Response) => response.url().endsWith('/v1/status') && response.status() === 401
    await page.waitForResponse(companionRefusal, { timeout: 15_000 })
    await page.waitForResponse(companionRefusal, { timeout: 15_000 })
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'unverified')
    await expect(page.getByTestId('sign-in')).toHaveText(
      'The companion restarted: run `ask-user open` for a new window. (Nothing from what answers now is shown until then.)',
    )
  } finally {
    await page.close()
    other?.closeAllConnections()
    await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()))
    await running?.cleanup()
  }
})
