// The "Relay" view in the served page, in real Chromium, against the real `ask-user serve`: its home is the
// first desktop of a relay (`relay init`, `relay add-agent`, and a laptop paired with `relay pair` + `relay
// join`, all real CLI processes against a real nats-server). The view shows this desk, the paired device and
// the agent, read-only with the line saying where changes are made, at 390 px too; then the relay is killed
// and the view says it is unreachable.
import { once } from 'node:events'
import { join } from 'node:path'
import { natsServerSkipReason } from '../helpers/nats-server'
import { ROOT } from './support/build'
import { expect, test } from './support/fixtures'
import { makeRelayHome, type RelayHome } from './support/relay-home'
import { startServe, type Served } from './support/serve'

const skip = natsServerSkipReason()
// Skipped, with the reason printed, only where Debian's nats-server is not installed (.ci/run installs it).
if (skip) console.log(`skipping the relay browser tests: ${skip}`)
let relay: RelayHome | undefined
let served: Served | undefined

test.beforeAll(async () => {
  test.skip(skip !== undefined, skip)
  test.setTimeout(150_000)
  // A second laptop, paired as a person does: the one-time line, the same 6-digit code, "yes" on the desktop.
  relay = await makeRelayHome(['nightly'], 'laptop-b')
  served = await startServe({ home: relay.home })
})

test.afterAll(async () => {
  await served?.cleanup()
  await relay?.close()
})

test('the Relay view shows this desk, the paired device and the agent; the relay killed shows unreachable', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto(served!.link)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  // An ask from the agent gives it a last contact.
  const asker = await relay!.openAgent('nightly')
  void asker.ask([{ id: 'ship', question: 'Ship it?' }], { title: 'Nightly' }).catch(() => undefined)
  await expect(page.getByTestId('ask-item')).toHaveCount(1, { timeout: 30_000 })

  await page.getByTestId('relay-tab').click()
  const view = page.getByTestId('relay-view')
  await expect(view.getByTestId('relay-read-only')).toHaveText(
    'Read-only here. Changes are made with `ask-user relay …` in a terminal or in the desktop window.',
  )
  // No "Add a phone" here: the served page says a phone is paired in the desktop window.
  await expect(view.getByTestId('phone-pairing-served')).toHaveText(
    'A phone is added in the desktop app’s window (Relay → Add a phone), never from a web page.',
  )
  await expect(view.getByTestId('phone-pairing-start')).toHaveCount(0)
  await expect(view.getByTestId('relay-link')).toHaveAttribute('data-state', 'connected')
  await expect(view.getByTestId('relay-desk')).toContainText('first desktop')
  const devices = view.getByTestId('relay-device')
  await expect(devices).toHaveCount(2, { timeout: 30_000 })
  await expect(devices.filter({ hasText: 'this desk' })).toHaveCount(1)
  await expect(devices.filter({ hasText: 'laptop-b' })).toContainText('paired device')
  const agent = view.getByTestId('relay-agent')
  await expect(agent).toHaveCount(1)
  await expect(agent).toContainText('nightly')
  await expect(agent).toContainText('last contact')
  await expect(view.getByTestId('relay-pending')).toHaveText('Remote asks pending: 1')
  await page.setViewportSize({ width: 1100, height: 760 })
  await page.screenshot({ path: join(ROOT, 'test-results', 'screenshots', 'relay-view.png') })

  // Narrow: nothing runs off the side at 390 px.
  await page.setViewportSize({ width: 390, height: 844 })
  const overflow = await view.evaluate((el) => el.scrollWidth - el.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await page.screenshot({ path: join(ROOT, 'test-results', 'screenshots', 'relay-view-narrow.png') })

  const exited = once(relay!.server.process, 'exit')
  relay!.server.process.kill('SIGKILL')
  await exited
  await expect(view.getByTestId('relay-link')).toHaveAttribute('data-state', 'unreachable', { timeout: 30_000 })
  await expect(view.getByTestId('relay-link')).toContainText('Unreachable since')
})
