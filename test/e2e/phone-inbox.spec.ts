// The phone app's inbox end to end in real Chromium at phone size: the built app (out/phone) from a
// 127.0.0.1 static server, its record seeded into IndexedDB as pairing leaves it, a real nats-server whose
// WebSocket listener allows only the app's origin, and a real agent (RemoteAsker) and a second desk
// (RelayDesk on a laptop member) on the Node side. Proves: a paired phone opens on the inbox; an ask is
// listed, answered by a tap and the agent gets exactly the answer; a race lost names the winning device
// and the phone's late answer never reaches the agent; a cut link reads as not connected and the app
// recovers on `online`; axe finds nothing serious at 360/430 px in light and dark; a browser without
// X25519 is refused by name.
import { createServer, Socket, type Server } from 'node:net'
import type { Page } from '@playwright/test'
import { RelayDesk, RemoteAsker } from '../../relay/exchange'
import type { PhoneRecord } from '../../phone/src/home/phone-record'
import { natsServerSkipReason } from '../helpers/nats-server'
import { until, type RelayWorld } from '../unit/relay/exchange/relay-world'
import { expectNoSeriousViolations } from './support/axe'
import { startPhoneWorld } from './support/phone-world'
import { armed, expect, test } from './support/fixtures'
import { phoneRecordOf, storePhoneRecordInPage } from '../helpers/phone-record'
import type { StaticServer } from './support/static-server'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone inbox browser tests: ${skip}`)

const QUESTIONS = [{ id: 'go', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }]

/** A TCP pass-through in front of the relay's WebSocket port that the test can cut and restore. */
interface CuttableLink {
  url: string
  cut(): void
  restore(): void
  close(): Promise<void>
}

async function cuttableLink(targetPort: number): Promise<CuttableLink> {
  const open = new Set<Socket>()
  let cut = false
  const server: Server = createServer((client) => {
    if (cut) return void client.destroy()
    const upstream = new Socket()
    upstream.connect(targetPort, '127.0.0.1')
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => undefined)
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `ws://127.0.0.1:${port}`,
    cut() {
      cut = true
      for (const socket of open) socket.destroy()
    },
    restore() {
      cut = false
    },
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), open.forEach((s) => s.destroy()))),
  }
}

let app: StaticServer
let world: RelayWorld
let laptop: RelayDesk
let agent: RemoteAsker
let link: CuttableLink

test.beforeAll(async () => {
  test.skip(skip !== undefined, skip)
  test.setTimeout(180_000)
  ;({ app, world } = await startPhoneWorld({
    devices: ['phone', 'laptop'],
    agents: ['ci-nightly'],
    desktops: ['desk'],
  }))
  link = await cuttableLink(Number(new URL(world.wsUrl).port))
  laptop = await RelayDesk.start({
    link: await world.link('laptop'),
    device: world.members.get('laptop')!.keys,
    rootPublicKey: world.rootPublicKey,
  })
  agent = new RemoteAsker({
    link: await world.link('ci-nightly'),
    agent: world.members.get('ci-nightly')!.keys,
    rootPublicKey: world.rootPublicKey,
  })
})

test.afterAll(async () => {
  laptop?.close()
  await world?.close()
  await link?.close()
  await app?.close()
})

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

/** The record pairing leaves for the `phone` member, dialling the relay through the cuttable link. */
const phoneRecord = (): PhoneRecord => phoneRecordOf(world, link.url)

/** Opens the app, writes the record into IndexedDB as pairing does, and reloads onto the inbox. */
async function openPairedPhone(page: Page): Promise<void> {
  await page.goto(`${app.origin}/`)
  await page.evaluate(storePhoneRecordInPage, phoneRecord())
  await page.reload()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open', { timeout: 30_000 })
}

/** The agent asks; resolves once the question is on the relay, with its key and the answer's promise. */
/** The asks of the running test: withdrawn after it, so no ask of one test is still listed in the next. */
const asked: Array<{ withdrawal: AbortController; settled: Promise<unknown> }> = []

test.afterEach(async () => {
  for (const { withdrawal } of asked) withdrawal.abort()
  await Promise.all(asked.splice(0).map(({ settled }) => settled))
})

async function agentAsks(
  questions: Parameters<RemoteAsker['ask']>[0] = QUESTIONS,
): Promise<{ key: string; answer: Promise<unknown> }> {
  let askId: string | undefined
  const withdrawal = new AbortController()
  const answer = agent.ask(questions, {
    signal: withdrawal.signal,
    onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)),
  })
  asked.push({ withdrawal, settled: answer.catch(() => undefined) })
  await until(() => askId !== undefined, 'the question to be written')
  return { key: `q.ci-nightly.${askId!}`, answer }
}

test('a paired phone opens on the inbox, shows its version, and is connected', async ({ page }) => {
  await openPairedPhone(page)
  await expect(page.getByTestId('pair-name')).toHaveCount(0)
  await expect(page.locator('footer')).toHaveText(/^Version \S+/)
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})

test("a paired phone's first screen evaluates no pairing code (the pairing screen's chunk brings it)", async ({
  page,
}) => {
  // Text only the pairing offer's parser (relay/pairing/offer.ts) holds: a script carrying it carries
  // the offer's schemas, built at evaluation.
  const offerText = 'This pairing link has expired; press'
  await page.goto(`${app.origin}/`)
  await page.evaluate(storePhoneRecordInPage, phoneRecord())
  // From the paired reload on (the first page, unpaired, may load the pairing screen).
  const scripts: string[] = []
  page.on('request', (request) => void (request.url().endsWith('.js') && scripts.push(request.url())))
  await page.reload()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open', { timeout: 30_000 })
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
  // The same files from the app's server (a response's body is gone once the page has used it).
  const fetched = await Promise.all(scripts.map(async (url) => ({ url, body: await (await fetch(url)).text() })))
  expect(fetched.some(({ url }) => /\/assets\/index-[\w-]+\.js$/.test(url))).toBe(true)
  expect(fetched.filter(({ body }) => body.includes(offerText)).map(({ url }) => url)).toEqual([])
})

test("the notifications button's code loads on its tap, not with the first screen, and says where it stands", async ({
  page,
}) => {
  const pushChunks: string[] = []
  page.on('request', (request) => {
    if (/\/assets\/push-subscribe-[\w-]+\.js$/.test(request.url())) pushChunks.push(request.url())
  })
  await openPairedPhone(page)
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
  expect(pushChunks).toEqual([])
  await page.getByRole('button', { name: 'Notify me of new questions' }).tap()
  // Headless Chromium refuses the permission: the refusal of the code loaded on the tap, by its code.
  await expect(page.getByRole('alert')).toHaveText(
    'Notifications are blocked. Allow them for this site in the browser’s settings, then tap again.',
  )
  expect(pushChunks).toHaveLength(1)
})

test("a paired phone dials the relay before its interface mounts (the link's round trips overlap the first paint)", async ({
  page,
}) => {
  await page.goto(`${app.origin}/`)
  await page.evaluate(storePhoneRecordInPage, phoneRecord())
  // When the page first opens a WebSocket, and when the app's root first gets content; the browser's
  // first two key generations (the entry's probe of X25519 and Ed25519) answer late, as on a slow phone,
  // so the interface's code is there well before the first screen is decided.
  await page.addInitScript(() => {
    const seen: { dial?: number; mount?: number } = {}
    Object.assign(window, { seen })
    const generateKey = SubtleCrypto.prototype.generateKey
    let slowed = 0
    SubtleCrypto.prototype.generateKey = function (this: SubtleCrypto, ...args: unknown[]) {
      const run = () => Reflect.apply(generateKey, this, args) as Promise<CryptoKeyPair>
      return slowed++ < 2 ? new Promise((resolve) => setTimeout(resolve, 500)).then(run) : run()
    } as SubtleCrypto['generateKey']
    const Native = WebSocket
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        seen.dial ??= performance.now()
        super(...args)
      }
    }
    new MutationObserver((_records, observer) => {
      const root = document.getElementById('app')
      if (root && root.childNodes.length > 0) {
        seen.mount ??= performance.now()
        observer.disconnect()
      }
    }).observe(document, { childList: true, subtree: true })
  })
  await page.reload()
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open', { timeout: 30_000 })
  const seen = await page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen)
  expect(seen.dial).toBeLessThan(seen.mount!)
})

test("a real agent's ask is listed, answered by a tap, and the agent gets exactly that answer", async ({ page }) => {
  await openPairedPhone(page)
  const { answer } = await agentAsks()
  await expect(page.getByTestId('ask-view')).toContainText('Deploy now?', { timeout: 30_000 })
  await armed(page.getByTestId('ask-view'))
  await page.getByRole('radio', { name: 'Yes' }).check()
  await page.getByRole('button', { name: 'Send answer' }).tap()
  expect(JSON.stringify(await answer)).toBe(JSON.stringify({ answers: [{ id: 'go', selected: ['Yes'] }] }))
  await expect(page.getByTestId('empty-inbox')).toBeVisible()
})

test('plain asks never fetch the Markdown parser: the list and their cards show without it', async ({ page }) => {
  const parserRequests: string[] = []
  page.on('request', (request) => {
    if (/\/assets\/parse-[\w-]+\.js$/.test(request.url())) parserRequests.push(request.url())
  })
  await openPairedPhone(page)
  await agentAsks()
  await expect(page.getByTestId('ask-view')).toContainText('Deploy now?', { timeout: 30_000 })
  // Two idle periods after the card is painted: the moment the parser used to load.
  for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)))
  expect(parserRequests).toEqual([])
})

test('a detail in Markdown is rendered once the parser, loaded when its card first needs it, arrives', async ({
  page,
}) => {
  const parserChunks: string[] = []
  page.on('response', (response) => {
    if (response.ok() && /\/assets\/parse-[\w-]+\.js$/.test(response.url())) parserChunks.push(response.url())
  })
  await openPairedPhone(page)
  await agentAsks([{ ...QUESTIONS[0]!, detail: 'The plan:\n\n1. **Ship** the build' }])
  const detail = page.getByTestId('question-detail')
  await expect(detail.locator('ol > li strong')).toHaveText('Ship', { timeout: 30_000 })
  await expect(page.getByTestId('md-loading')).toHaveCount(0)
  expect(parserChunks.length).toBeGreaterThan(0)
})

test("a race lost to the laptop names the laptop, and the phone's late answer never reaches the agent", async ({
  page,
}) => {
  await openPairedPhone(page)
  const { key, answer } = await agentAsks()
  await expect(page.getByTestId('ask-view')).toContainText('Deploy now?', { timeout: 30_000 })
  await armed(page.getByTestId('ask-view'))
  // A draft on the phone keeps the card open when the ask settles elsewhere.
  await page.getByRole('radio', { name: 'Yes' }).check()
  await until(() => laptop.pending().some((ask) => ask.key === key), 'the ask on the laptop', 30_000)
  expect(await laptop.answer(key, [{ id: 'go', selected: ['No'] }])).toEqual({ won: true })
  await expect(page.getByTestId('settled-notice')).toContainText('laptop', { timeout: 30_000 })
  expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
  await expect(page.getByRole('button', { name: 'Send answer' })).toHaveCount(0)
})

test('a cut link reads as not connected; on `online` the app dials afresh and a new ask is answered', async ({
  page,
}) => {
  await openPairedPhone(page)
  link.cut()
  try {
    await expect(page.getByTestId('connection-status')).not.toHaveAttribute('data-status', 'open', {
      timeout: 60_000,
    })
  } finally {
    link.restore()
  }
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', 'open', { timeout: 60_000 })
  const { answer } = await agentAsks()
  await expect(page.getByTestId('ask-view')).toContainText('Deploy now?', { timeout: 30_000 })
  await armed(page.getByTestId('ask-view'))
  await page.getByRole('radio', { name: 'No' }).check()
  await page.getByRole('button', { name: 'Send answer' }).tap()
  expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
})

test('axe: nothing serious on the inbox with an ask shown, at 360 and 430 px, light and dark', async ({ page }) => {
  test.setTimeout(120_000)
  await openPairedPhone(page)
  const { key, answer } = await agentAsks()
  await expect(page.getByTestId('ask-view')).toContainText('Deploy now?', { timeout: 30_000 })
  await armed(page.getByTestId('ask-view'))
  for (const width of [360, 430]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 844 })
      await page.emulateMedia({ colorScheme })
      await expectNoSeriousViolations(page)
    }
  }
  // Leave no ask pending for the next test: the laptop answers it.
  await until(() => laptop.pending().some((ask) => ask.key === key), 'the ask on the laptop', 30_000)
  await laptop.answer(key, [{ id: 'go', selected: ['No'] }])
  await answer
})

test('a browser without X25519 is refused by name', async ({ page }) => {
  await page.addInitScript(() => {
    const generateKey = crypto.subtle.generateKey.bind(crypto.subtle)
    crypto.subtle.generateKey = ((algorithm: AlgorithmIdentifier, ...rest: unknown[]) => {
      const name = typeof algorithm === 'string' ? algorithm : algorithm.name
      if (name === 'X25519') return Promise.reject(new DOMException('Unrecognized name', 'NotSupportedError'))
      return (generateKey as (...args: unknown[]) => Promise<unknown>)(algorithm, ...rest)
    }) as typeof crypto.subtle.generateKey
  })
  await page.goto(`${app.origin}/`)
  await expect(page.getByRole('heading', { name: 'This browser cannot hold the phone’s keys' })).toBeVisible()
  await expect(page.getByText(/X25519/)).toBeVisible()
  await expect(page.getByText(/Ed25519/)).toHaveCount(0)
})
