// A mirrored approval on the phone app in real Chromium at phone size (390×844, touch): the built app
// (out/phone) from a 127.0.0.1 static server with its record seeded as pairing leaves it, a real
// nats-server, and a desktop on the Node side mirroring its local agent's permission prompt
// (RemoteAsker.askApproval, as core/relay-bridge/mirror.ts does). Proves: the approval card shows the
// whole command, offers no "Always allow" (only allow once and deny travel over the relay), keeps the
// arming rule, and a tap on "Allow once" reaches the desktop as exactly that decision.
import type { RemoteAsker } from '../../relay/exchange'
import type { ApprovalRequest } from '../../shared/approval'
import { natsServerSkipReason } from '../helpers/nats-server'
import { phoneRecordOf, storePhoneRecordInPage } from '../helpers/phone-record'
import { desktopAsker, until, type RelayWorld } from '../unit/relay/exchange/relay-world'
import { armed, expect, test } from './support/fixtures'
import { startPhoneWorld } from './support/phone-world'
import type { StaticServer } from './support/static-server'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone approval browser test: ${skip}`)

const COMMAND = 'git push --force-with-lease origin feature/relay-approvals && npm run release -- --tag next'
const APPROVAL: ApprovalRequest = {
  tool: 'Bash',
  harness: 'claude-code',
  action: { kind: 'command', command: COMMAND, cwd: '/home/person/project' },
  always: { label: 'Bash(git push:*) in this project' },
}

let app: StaticServer
let world: RelayWorld
let desktop: RemoteAsker

test.beforeAll(async () => {
  // Skipped only without a nats-server on this machine; the reason is printed at load (above).
  test.skip(skip !== undefined, skip)
  test.setTimeout(180_000)
  ;({ app, world } = await startPhoneWorld({ devices: ['phone'], agents: [], desktops: ['desk'] }))
  desktop = await desktopAsker(world, 'desk')
})

test.afterAll(async () => {
  await world?.close()
  await app?.close()
})

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

test('an approval card shows the whole command, no "Always allow", and Allow once reaches the desktop', async ({
  page,
}) => {
  await page.goto(`${app.origin}/`)
  await page.evaluate(storePhoneRecordInPage, phoneRecordOf(world, world.wsUrl))
  await page.reload()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open', { timeout: 30_000 })
  let asked = false
  const decision = desktop.askApproval(APPROVAL, {
    title: 'Release',
    mirroredFor: 'claude',
    onEvent: (e) => void (e.type === 'asked' && (asked = true)),
  })
  decision.catch(() => undefined)
  await until(() => asked, 'the approval to be written')

  const card = page.getByTestId('approval-card')
  await expect(card.getByTestId('approval-code')).toHaveText(COMMAND, { timeout: 30_000 })
  await expect(card).toContainText('claude on desk')
  await armed(card)
  await expect(card.getByRole('button', { name: /Always allow/ })).toHaveCount(0)
  await expect(card.getByRole('button', { name: 'Deny…' })).toBeVisible()
  await card.getByRole('button', { name: 'Allow once' }).tap()
  expect(await decision).toEqual({ behavior: 'allow' })
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})
