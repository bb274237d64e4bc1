// The phone app as a web app in real Chromium, from a copy of the built out/phone on a 127.0.0.1 static
// server (a secure context): it installs its service worker from the page (under the page's Trusted
// Types), reloads offline from that worker's cache, shows its version, asks for no permission on load,
// requests nothing from another origin, and a new version waits until the person taps "Update".
import { appendFile, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { ROOT } from './support/build'
import { expectNoSeriousViolations } from './support/axe'
import { ensurePhoneBuilt, PHONE_DIR } from './support/phone-build'
import { serveStatic, type StaticServer } from './support/static-server'

let folder: string
let app: StaticServer

test.beforeAll(async () => {
  test.setTimeout(180_000)
  await ensurePhoneBuilt()
  // A copy: the update test changes its sw.js as a new release would.
  folder = await mkdtemp(join(tmpdir(), 'phone-app-'))
  await cp(PHONE_DIR, folder, { recursive: true })
  app = await serveStatic(folder)
})

test.afterAll(async () => {
  await app?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

/** The built scripts index.html does not name: chunks the app imports when it needs them. */
async function chunksLoadedLater(): Promise<string[]> {
  const html = await readFile(join(folder, 'index.html'), 'utf8')
  const scripts = await readdir(join(folder, 'assets'))
  return scripts
    .filter((file) => file.endsWith('.js') && !html.includes(`assets/${file}`))
    .map((file) => `assets/${file}`)
}

/** Loads the app until its own service worker controls the page (the first visit installs it). */
async function openControlled(page: Page): Promise<void> {
  await page.goto(`${app.origin}/`)
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL))
    .toBe(`${app.origin}/sw.js`)
}

test('installs its worker, reloads offline, shows its version, asks nothing on load, stays on its origin', async ({
  page,
  context,
}) => {
  await page.addInitScript(() => {
    const counted = window as unknown as { permissionAsks: number }
    counted.permissionAsks = 0
    const original = Notification.requestPermission.bind(Notification)
    Notification.requestPermission = () => {
      counted.permissionAsks++
      return original()
    }
  })
  const foreign: string[] = []
  page.on('request', (request) => {
    if (!request.url().startsWith(`${app.origin}/`)) foreign.push(request.url())
  })
  await openControlled(page)
  const version = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version as string
  await expect(page.getByRole('contentinfo')).toHaveText(
    new RegExp(`^Version ${version.replace(/\./g, '\\.')}\\+\\w+$`),
  )
  // Nothing paired in this browser: the pairing screen, which says where the code comes from.
  await expect(page.getByText('Add a phone', { exact: false })).toBeVisible()

  // Offline, the chunks loaded after the first screen (the pairing screen; the Markdown parser, loaded when
  // a card first needs it; the History, Relay and Connect views, loaded when first opened; the notifications
  // button's subscription code, loaded on its tap) come from the worker's cache too: the precache list holds
  // every file of the build, not only index.html's.
  const lazyChunks = await chunksLoadedLater()
  expect(lazyChunks.map((file) => file.slice(0, file.indexOf('-')))).toEqual(
    expect.arrayContaining([
      'assets/PairScreen',
      'assets/parse',
      'assets/HistoryView',
      'assets/RelayView',
      'assets/ConnectView',
      'assets/push', // push-subscribe
    ]),
  )
  const servedOffline: string[] = []
  page.on('response', (response) => {
    if (response.ok() && response.fromServiceWorker()) servedOffline.push(new URL(response.url()).pathname.slice(1))
  })
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('contentinfo')).toContainText(`Version ${version}`)
  await expect(page.getByText('Add a phone', { exact: false })).toBeVisible()
  // The views the pairing screen does not open, the parser it never needs, the Chinese messages (this browser
  // reads English) and the subscription code are asked for as opening a view or a card, switching the
  // language or a tap would, still offline.
  const opened = await page.evaluate(
    (files) => Promise.all(files.map((file) => fetch(`/${file}`).then((response) => response.ok))),
    lazyChunks.filter((file) => /^assets\/((History|Relay|Connect)View|messages-zh|parse|push-subscribe)-/.test(file)),
  )
  expect(opened).toEqual([true, true, true, true, true, true])
  await expect.poll(() => lazyChunks.filter((file) => !servedOffline.includes(file))).toEqual([])
  await context.setOffline(false)

  expect(await page.evaluate(() => (window as unknown as { permissionAsks: number }).permissionAsks)).toBe(0)
  expect(foreign).toEqual([])
})

test("the scripts every first screen runs open with V8's compile hint, on their first line; the chunks loaded later do not", async () => {
  const hinted: string[] = []
  for (const file of await readdir(join(folder, 'assets'))) {
    if (!file.endsWith('.js')) continue
    const source = await readFile(join(folder, 'assets', file), 'utf8')
    if (source.startsWith('//# allFunctionsCalledOnLoad\n')) hinted.push(file.slice(0, file.indexOf('-')))
    else expect(source, file).not.toContain('allFunctionsCalledOnLoad')
  }
  // The entry (relay client, crypto, the first-screen decision) and the interface; not pairing, the views,
  // the Markdown parser, the Chinese messages or the push subscription.
  expect(hinted.sort()).toEqual(['PhoneApp', 'index'])
})

test('the manifest names the icons it ships, at their sizes', async ({ request }) => {
  const manifest = (await (await request.get(`${app.origin}/manifest.webmanifest`)).json()) as {
    display: string
    start_url: string
    icons: { src: string; sizes: string; type: string; purpose: string }[]
  }
  expect(manifest).toMatchObject({ display: 'standalone', start_url: './' })
  expect(manifest.icons.map((icon) => icon.purpose)).toContain('maskable')
  for (const icon of manifest.icons.filter((entry) => entry.type === 'image/png')) {
    const png = Buffer.from(await (await request.get(`${app.origin}/${icon.src}`)).body())
    // The PNG header's width and height (IHDR), as the manifest says.
    expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes)
  }
})

test('a phone that reads Chinese fetches the Chinese messages and paints in Chinese from the first frame; one that reads English never fetches them', async ({
  browser,
}) => {
  for (const [locale, chinese] of [
    ['zh-CN', true],
    ['en-US', false],
  ] as const) {
    const context = await browser.newContext({ locale })
    const page = await context.newPage()
    const fetched: string[] = []
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname))
    // Every text node the page ever shows, from the first one on: English must never flash.
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { seenTexts: string[] }).seenTexts = seen
      new MutationObserver(() => seen.push(document.body?.innerText ?? '')).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
      })
    })
    await page.goto(`${app.origin}/`)
    const hint = chinese
      ? '在桌面上打开 Ask User 窗口，进入“中继 → 添加手机”'
      : 'On your desktop, open the Ask User window, go to Relay → Add a phone'
    await expect(page.getByText(hint, { exact: false })).toBeVisible()
    expect(fetched.some((path) => /\/assets\/messages-zh-[\w-]+\.js$/.test(path))).toBe(chinese)
    if (chinese) {
      const seen = await page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts)
      expect(seen.filter((text) => text.includes('Pair this phone'))).toEqual([])
    }
    await context.close()
  }
})

test('a new version waits for the tap on Update, then takes over', async ({ page }) => {
  await openControlled(page)
  // A new release: any changed byte of sw.js is a new version to the browser.
  await appendFile(join(folder, 'sw.js'), '\n// the next release\n')
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration?.update()))
  await expect(page.getByText('A new version of the app is ready.')).toBeVisible()
  // Not before the tap: a reload still runs under the old worker, with the new one waiting.
  await page.reload()
  await expect(page.getByText('A new version of the app is ready.')).toBeVisible()
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.waiting !== null))).toBe(
    true,
  )

  await page.getByRole('button', { name: 'Update' }).tap()
  await expect(page.getByText('A new version of the app is ready.')).toBeHidden()
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.waiting === null)))
    .toBe(true)
})

for (const width of [360, 430]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the pairing screen at ${width} px, ${colorScheme}: no serious or critical axe violation`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 844 })
      await page.emulateMedia({ colorScheme })
      await page.goto(`${app.origin}/`)
      await expect(page.getByRole('contentinfo')).toBeVisible()
      await expectNoSeriousViolations(page)
    })
  }
}
