// The "Relay" view in the served page, in real Chromium, against the real `ask-user serve`: its home is the
// first desktop of a relay (`relay init`, `relay add-agent`, and a laptop paired with `relay pair` + `relay
// join`, all real CLI processes against a real nats-server). The view shows this desk, the paired device and
// the agent, read-only with the line saying where changes are made, at 390 px too; then the relay is killed
// and the view says it is unreachable.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AgentRelayFileSchema } from '../../cli/relay/agent-file'
import { openRemoteAsker, type RelayLink } from '../../relay/exchange'
import { freePort, natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../helpers/nats-server'
import { ensureRendererBuilt, ROOT } from './support/build'
import { expect, test } from './support/fixtures'

const BIN = join(ROOT, 'bin', 'ask-user.js')
const skip = natsServerSkipReason()
let root: string
let home: string
let server: RunningNatsServer | undefined
let serve: ChildProcess | undefined
let pageUrl: string
let agentLink: RelayLink | undefined

const envFor = (askUserHome: string): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'] ?? '',
  HOME: askUserHome,
  ASK_USER_HOME: askUserHome,
})
const cli = (args: string[]): string =>
  execFileSync(process.execPath, [BIN, ...args], { env: envFor(home), encoding: 'utf8' })

/** Starts `ask-user ARGS` in `askUserHome` with piped stdio; `waitFor` resolves on the first match in its stdout. */
function running(args: string[], askUserHome: string) {
  const child = spawn(process.execPath, [BIN, ...args], { env: envFor(askUserHome), stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  const seen = new Set<() => void>()
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const check of [...seen]) check()
  })
  child.stderr.resume()
  return {
    child,
    waitFor: (pattern: RegExp): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out)
          if (match) {
            seen.delete(check)
            resolve(match)
          }
        }
        seen.add(check)
        child.once('exit', (code) => reject(new Error(`ask-user ${args[1]} exited ${code} before ${pattern}: ${out}`)))
        check()
      }),
    exited: once(child, 'exit').then(([code]) => code as number | null),
  }
}

test.beforeAll(async () => {
  test.skip(skip !== undefined, skip)
  test.setTimeout(150_000)
  ensureRendererBuilt()
  root = await mkdtemp(join(tmpdir(), 'relay-view-e2e-'))
  home = join(root, 'home')
  const port = await freePort()
  const init = ['relay', 'init', '--self-hosted', join(root, 'relay'), '--origin', 'https://inbox.example']
  const ports = ['--loopback', '--client-port', String(port), '--ws-port', String(await freePort())]
  const printed = cli([...init, ...ports, '--url', `nats://127.0.0.1:${port}`])
  server = await startNatsServer(/start: nats-server -c (\S+)/.exec(printed)![1]!)
  cli(['relay', 'add-agent', 'nightly', '--out', join(root, 'nightly.json')])
  // A second laptop, paired as a person does: the one-time line, the same 6-digit code, "yes" on the desktop.
  const pair = running(['relay', 'pair'], home)
  const line = (await pair.waitFor(/^(AUP1:\S+)$/m))[1]!
  const joining = running(['relay', 'join', '--name', 'laptop-b'], join(root, 'laptop-b'))
  joining.child.stdin.end(`${line}\n`)
  await pair.waitFor(/Confirmation code: \d{6}/)
  pair.child.stdin.end('yes\n')
  expect(await pair.exited).toBe(0)
  expect(await joining.exited).toBe(0)
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: envFor(home),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  pageUrl = await new Promise<string>((resolve, reject) => {
    let out = ''
    serve!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const found = out.split('\n').find((l) => l.startsWith('http://'))
      if (found) resolve(found.trim())
    })
    serve!.once('exit', (code) => reject(new Error(`ask-user serve exited with ${code}`)))
  })
})

test.afterAll(async () => {
  await agentLink?.close().catch(() => undefined)
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve!.once('exit', resolve))
    serve.kill('SIGTERM')
    await exited
  }
  await server?.stop()
  if (root) await rm(root, { recursive: true, force: true })
})

test('the Relay view shows this desk, the paired device and the agent; the relay killed shows unreachable', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto(pageUrl)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open')
  // An ask from the agent gives it a last contact.
  const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'nightly.json'), 'utf8')))
  const opened = await openRemoteAsker(file, { allowOutdatedLoopback: true })
  agentLink = opened.link
  void opened.asker.ask([{ id: 'ship', question: 'Ship it?' }], { title: 'Nightly' }).catch(() => undefined)
  await expect(page.getByTestId('ask-item')).toHaveCount(1, { timeout: 30_000 })

  await page.getByTestId('relay-tab').click()
  const view = page.getByTestId('relay-view')
  await expect(view.getByTestId('relay-read-only')).toHaveText(
    'Read-only here. Changes are made with `ask-user relay …` in a terminal or in the desktop window.',
  )
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

  const exited = once(server!.process, 'exit')
  server!.process.kill('SIGKILL')
  await exited
  await expect(view.getByTestId('relay-link')).toHaveAttribute('data-state', 'unreachable', { timeout: 30_000 })
  await expect(view.getByTestId('relay-link')).toContainText('Unreachable since')
})
