// A remote ask in the served page, in real Chromium, against the real `ask-user serve`: its home has a
// relay (`ask-user relay init` and `relay add-agent` against a real nats-server), so serve's core starts
// the bridge; an agent's ask through the relay shows with the "Remote" mark in its list row and card
// header, under the name add-agent gave it, and the person's answer reaches the agent.
import type { Page } from '@playwright/test'
import { join } from 'node:path'
import { natsServerSkipReason } from '../helpers/nats-server'
import { ROOT } from './support/build'
import { askView, expect, test, waitArmed } from './support/fixtures'
import { makeRelayHome, type RelayHome } from './support/relay-home'
import { startServe, type Served } from './support/serve'

const skip = natsServerSkipReason()
// Skipped, with the reason printed, only where Debian's nats-server is not installed (.ci/run installs it).
if (skip) console.log(`skipping the relay browser tests: ${skip}`)
let relay: RelayHome | undefined
let served: Served | undefined
/** One page for the file: serve's printed link signs in one page, once. */
let page: Page

test.beforeAll(async ({ browser }) => {
  // Skipped only without a nats-server on this machine; the reason is printed at load (above).
  test.skip(skip !== undefined, skip)
  test.setTimeout(120_000)
  relay = await makeRelayHome(['nightly'])
  served = await startServe({ home: relay.home })
  page = await browser.newPage()
  await page.goto(served.link)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
})

test.afterAll(async () => {
  await page?.close()
  await served?.cleanup()
  await relay?.close()
})

test('a remote ask is marked Remote in the list and the card; the answer reaches the agent', async () => {
  const asker = await relay!.openAgent('nightly')
  const answer = asker.ask(
    [{ id: 'ship', question: 'Ship the nightly build?', options: [{ label: 'yes' }, { label: 'no' }] }],
    { title: 'Nightly build' },
  )
  const row = page.getByTestId('ask-item')
  await expect(row).toHaveCount(1, { timeout: 30_000 })
  await expect(row.getByTestId('remote-mark')).toHaveText('Remote')
  const card = askView(page)
  await expect(card.getByText('Ship the nightly build?')).toBeVisible()
  await expect(card.getByTestId('remote-mark')).toBeVisible()
  await expect(card.getByText('nightly', { exact: true })).toBeVisible()
  await page.setViewportSize({ width: 1100, height: 700 })
  await page.screenshot({ path: join(ROOT, 'test-results', 'screenshots', 'remote-ask.png') })
  await waitArmed(page)
  await page.getByRole('radio', { name: 'yes' }).check()
  await page.getByRole('button', { name: 'Send answer' }).click()
  expect(await answer).toEqual({ answers: [{ id: 'ship', selected: ['yes'] }] })
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
  // Opened by the bundle's worker thread (out/main/relay-opener-worker.js): the fallback would have said so.
  expect(served!.stderr()).not.toContain('question-opening worker')
})

test('a remote password question says how to allow it; once allowed in the terminal the card takes the password', async () => {
  const asker = await relay!.openAgent('nightly')
  try {
    const answer = asker.ask([{ id: 'pw', question: 'Signing key passphrase?', secret: true } as never], {
      title: 'Release signing',
    })
    const card = askView(page)
    await expect(card.getByText('Signing key passphrase?')).toBeVisible({ timeout: 30_000 })
    await expect(card.getByTestId('remote-refused')).toHaveText(
      'Remote passwords are not allowed for nightly on this desk. To answer it here, run: ask-user relay passwords allow nightly',
    )
    await expect(page.getByRole('button', { name: 'Send answer' })).toHaveCount(0)
    // Never the askpass look: that belongs to this machine's askpass helper.
    await expect(card.locator('.askpass')).toHaveCount(0)
    await expect(card.getByTestId('receiver-line')).toHaveAttribute('data-kind', 'unverified')
    relay!.cli(['relay', 'passwords', 'allow', 'nightly'])
    await expect(card.getByTestId('remote-refused')).toHaveCount(0)
    await waitArmed(page)
    const input = card.getByTestId('secret-input')
    await expect(input).toHaveAttribute('type', 'password')
    await input.fill('correct horse battery')
    await page.getByRole('button', { name: 'Send answer' }).click()
    expect(await answer).toEqual({ answers: [{ id: 'pw', selected: [], custom: 'correct horse battery' }] })
    await expect(page.getByTestId('empty-inbox')).toBeVisible()
  } finally {
    relay!.cli(['relay', 'passwords', 'deny', 'nightly'])
  }
})
