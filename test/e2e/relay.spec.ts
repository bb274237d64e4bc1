// A remote ask in the served page, in real Chromium, against the real `ask-user serve`: its home has a
// relay (`ask-user relay init` and `relay add-agent` against a real nats-server), so serve's core starts
// the bridge; an agent's ask through the relay shows with the "Remote" mark in its list row and card
// header, under the name add-agent gave it, and the person's answer reaches the agent.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AgentRelayFileSchema } from '../../cli/relay/agent-file'
import { openRemoteAsker, type RelayLink } from '../../relay/exchange'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../helpers/nats-server'
import { ensureRendererBuilt, ROOT } from './support/build'
import { askView, expect, test, waitArmed } from './support/fixtures'

const BIN = join(ROOT, 'bin', 'ask-user.js')
const skip = natsServerSkipReason()
let root: string
let home: string
let server: RunningNatsServer | undefined
let serve: ChildProcess | undefined
/** What serve printed on stderr (also passed through). */
let serveErr = ''
let pageUrl: string
let agentLink: RelayLink | undefined
/** One page for the file: serve's printed link signs in one page, once. */
let page: Page

const cli = (args: string[]): string =>
  execFileSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, ASK_USER_HOME: home },
    encoding: 'utf8',
  })

test.beforeAll(async ({ browser }) => {
  test.skip(skip !== undefined, skip)
  test.setTimeout(120_000)
  ensureRendererBuilt()
  root = await mkdtemp(join(tmpdir(), 'relay-e2e-'))
  home = join(root, 'home')
  const port = await freePort()
  const init = [
    'relay',
    'init',
    '--self-hosted',
    join(root, 'relay'),
    '--origin',
    'https://inbox.example',
    '--loopback',
  ]
  const ports = ['--client-port', String(port), '--ws-port', String(await freePort())]
  const printed = cli([...init, ...ports, '--url', `nats://127.0.0.1:${port}`])
  server = await startNatsServer(/start: nats-server -c (\S+)/.exec(printed)![1]!)
  cli(['relay', 'add-agent', 'nightly', '--out', join(root, 'nightly.json')])
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, ASK_USER_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  serve.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    serveErr += chunk
    process.stderr.write(chunk)
  })
  pageUrl = await new Promise<string>((resolve, reject) => {
    let out = ''
    serve!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('http://'))
      if (line) resolve(line.trim())
    })
    serve!.once('exit', (code) => reject(new Error(`ask-user serve exited with ${code}`)))
  })
  page = await browser.newPage()
  await page.goto(pageUrl)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
})

test.afterAll(async () => {
  await page?.close()
  await agentLink?.close()
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve!.once('exit', resolve))
    serve.kill('SIGTERM')
    await exited
  }
  await server?.stop()
  if (root) await rm(root, { recursive: true, force: true })
})

test('a remote ask is marked Remote in the list and the card; the answer reaches the agent', async () => {
  const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'nightly.json'), 'utf8')))
  const opened = await openRemoteAsker(file, { allowOutdatedLoopback: true })
  agentLink = opened.link
  const answer = opened.asker.ask(
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
  expect(serveErr).not.toContain('question-opening worker')
})

test('a remote password question says how to allow it; once allowed in the terminal the card takes the password', async () => {
  const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'nightly.json'), 'utf8')))
  const opened = await openRemoteAsker(file, { allowOutdatedLoopback: true })
  const link = opened.link
  try {
    const answer = opened.asker.ask([{ id: 'pw', question: 'Signing key passphrase?', secret: true } as never], {
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
    cli(['relay', 'passwords', 'allow', 'nightly'])
    await expect(card.getByTestId('remote-refused')).toHaveCount(0)
    await waitArmed(page)
    const input = card.getByTestId('secret-input')
    await expect(input).toHaveAttribute('type', 'password')
    await input.fill('correct horse battery')
    await page.getByRole('button', { name: 'Send answer' }).click()
    expect(await answer).toEqual({ answers: [{ id: 'pw', selected: [], custom: 'correct horse battery' }] })
    await expect(page.getByTestId('empty-inbox')).toBeVisible()
  } finally {
    cli(['relay', 'passwords', 'deny', 'nightly'])
    await link.close()
  }
})
