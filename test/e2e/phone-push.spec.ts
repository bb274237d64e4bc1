// The phone's service worker in Chromium: the real out/phone/sw.js, registered from 127.0.0.1 (a secure
// context) with notifications granted, the phone's record in IndexedDB, and synthetic push and
// notificationclick events carrying payloads the push service stand-in decrypted (a real subscription
// needs the browser vendor's push service). What the person would see is read back with
// registration.getNotifications().
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { expect, test, type Page, type Worker } from '@playwright/test'
import { generateMemberIdentity, loadMemberKeys, type MemberKeys } from '../../relay/crypto/keys'
import { generateRootIdentity, loadRootKeys } from '../../relay/crypto/keys'
import { rosterRecordOf } from '../../relay/crypto/roster-record'
import { signRoster } from '../../relay/crypto/roster'
import { notifyDevices } from '../../relay/push/notifier'
import { sealNotice, type NoticeDraft } from '../../relay/push/notice'
import { generateVapidKeys } from '../../relay/push/vapid'
import { pushServiceSkipReason, startPushService, type PushService } from '../helpers/push-service'
import { ensurePhoneBuilt, PHONE_DIR } from './support/phone-build'

// The worker's globals, as far as this test uses them inside worker.evaluate (the tests' tsconfig has
// the DOM lib, not WebWorker).
interface WorkerScope {
  registration: ServiceWorkerRegistration
  dispatchEvent(event: Event): boolean
}
declare const PushEvent: new (type: string, init?: { data?: string }) => Event
declare const NotificationEvent: new (type: string, init: { notification: Notification }) => Event

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}
// A blank page of the app's origin to register the worker from (the app's own page enforces Trusted
// Types, and registering is the app's job, not this test's).
const BLANK = '/__push-test.html'

async function serveOutPhone(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (path === BLANK) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>push test</title>')
      return
    }
    const file = normalize(join(PHONE_DIR, path === '/' ? 'index.html' : path))
    if (!file.startsWith(PHONE_DIR)) return void response.writeHead(404).end()
    readFile(file).then(
      (body) =>
        response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { server, origin: `http://127.0.0.1:${address.port}` }
}

interface Inbox {
  agent: MemberKeys
  stranger: MemberKeys
  phone: MemberKeys
  record: unknown
}

async function makeInbox(): Promise<Inbox> {
  const rootIdentity = await generateRootIdentity()
  const root = await loadRootKeys(rootIdentity.secret)
  const agent = await loadMemberKeys((await generateMemberIdentity('ci-nightly', 'agent')).secret)
  const stranger = await loadMemberKeys((await generateMemberIdentity('stranger', 'agent')).secret)
  const desk = await generateMemberIdentity('desk', 'desktop')
  const phoneIdentity = await generateMemberIdentity('pocket', 'device')
  const phone = await loadMemberKeys(phoneIdentity.secret)
  const signed = await signRoster(root, {
    version: 1,
    members: [agent.member, desk.member, phone.member],
    now: Date.now(),
  })
  const { bytes, signature } = rosterRecordOf(signed)
  const record = {
    v: 1,
    url: 'ws://127.0.0.1:9',
    rootPublicKey: rootIdentity.publicKey,
    secret: phoneIdentity.secret,
    creds: 'not used by the service worker',
    natsName: phone.member.id,
    credsExpiresAt: Math.floor(Date.now() / 1000) + 86_400,
    roster: { bytes, signature },
    highestRosterVersion: 1,
  }
  return { agent, stranger, phone, record }
}

const ASK_ID = 'CCCCCCCCCCCCCCCCCCCCCC'
const draft: NoticeDraft = {
  askId: ASK_ID,
  kvKey: `q.ci-nightly.${ASK_ID}`,
  created: Date.now(),
  kind: 'ask',
  title: 'Merge the release branch?',
}

/**
 * Dispatches a synthetic push with `payload` (UTF-8 text; `undefined`: no data) in the worker and waits
 * for what the handler handed to waitUntil. A script-made event refuses waitUntil (so the browser would
 * not keep the worker alive for it, and the handler's work could be cut off under load); the stand-in
 * collects the promise instead, as the browser does for a real push.
 */
async function push(worker: Worker, payload: string | undefined): Promise<void> {
  await worker.evaluate(async (data) => {
    const event = data === undefined ? new PushEvent('push') : new PushEvent('push', { data })
    const pending: Promise<unknown>[] = []
    Object.defineProperty(event, 'waitUntil', { value: (work: Promise<unknown>) => void pending.push(work) })
    self.dispatchEvent(event)
    if (pending.length !== 1) throw new Error(`the push handler called waitUntil ${pending.length} times`)
    await Promise.all(pending)
  }, payload)
}

type Shown = { title: string; body: string; tag: string; silent: boolean | null; data: unknown }

/** The notifications shown, once `count` of them with tag `tag` are there. */
async function shown(worker: Worker, tag: string): Promise<Shown[]> {
  let found: Shown[] = []
  await expect
    .poll(async () => {
      found = await worker.evaluate(async (wanted) => {
        const list = await (self as unknown as WorkerScope).registration.getNotifications({ tag: wanted })
        return list.map((n: Notification) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          silent: n.silent,
          data: n.data as unknown,
        }))
      }, tag)
      return found.length
    })
    .toBeGreaterThan(0)
  return found
}

/**
 * Closes every notification and waits until the browser has forgotten them. close() is applied later, and
 * a close still on its way would take down the next notification with the same tag (Chromium names a
 * tagged notification by its tag), so the next push must not be sent before the list is empty.
 */
async function clearNotifications(worker: Worker): Promise<void> {
  await expect
    .poll(() =>
      worker.evaluate(async () => {
        const list = await (self as unknown as WorkerScope).registration.getNotifications()
        for (const n of list) n.close()
        return list.length
      }),
    )
    .toBe(0)
}

test.describe('the phone service worker: push and notificationclick', () => {
  let server: Server
  let origin: string
  let service: PushService | undefined
  let inbox: Inbox
  let page: Page
  let worker: Worker

  test.beforeAll(async () => {
    await ensurePhoneBuilt()
    ;({ server, origin } = await serveOutPhone())
    if (!pushServiceSkipReason()) service = await startPushService()
    inbox = await makeInbox()
  })

  test.afterAll(async () => {
    await service?.stop()
    await new Promise<void>((resolve) => server?.close(() => resolve()))
  })

  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['notifications'], { origin })
    page = await context.newPage()
    await page.goto(`${origin}${BLANK}`)
    const registered = context.waitForEvent('serviceworker')
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('./sw.js')
      await navigator.serviceWorker.ready
    })
    worker = context.serviceWorkers()[0] ?? (await registered)
    // The phone's record, where the pairing leaves it (phone/src/home/phone-home.ts).
    await page.evaluate(async (record) => {
      const open = indexedDB.open('ask-user-phone', 1)
      open.onupgradeneeded = () => open.result.createObjectStore('home')
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('home', 'readwrite')
        tx.objectStore('home').put(record, 'record')
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
      db.close()
    }, inbox.record)
    await clearNotifications(worker)
  })

  /** The payload as the push service decrypted it (sealed directly when the stand-in cannot run here). */
  async function deliveredPayload(sender: MemberKeys, notice: NoticeDraft): Promise<string> {
    if (!service) return new TextDecoder().decode(await sealNotice(sender, inbox.phone.member, notice))
    const vapid = generateVapidKeys()
    const subscription = await service.subscribe(vapid.publicKey)
    const roster = {
      v: 1 as const,
      version: 1,
      issuedAt: 0,
      expiresAt: Date.now() + 60_000,
      members: [sender.member, inbox.phone.member],
    }
    const outcome = await notifyDevices(
      sender,
      roster,
      {
        v: 1,
        vapid,
        subject: 'mailto:test@example.org',
        subscriptions: [{ device: inbox.phone.member.id, subscription }],
      },
      notice,
    )
    expect(outcome.results[0]?.result).toEqual({ status: 'accepted', httpStatus: 201 })
    const [message] = await service.messages(subscription.clientHash)
    return message!
  }

  test('a verified notice shows its title, tagged by the ask; settled replaces it silently', async () => {
    await push(worker, await deliveredPayload(inbox.agent, draft))
    expect(await shown(worker, ASK_ID)).toEqual([
      {
        title: 'Merge the release branch?',
        body: 'From ci-nightly',
        tag: ASK_ID,
        silent: false,
        data: { askId: ASK_ID },
      },
    ])
    await push(worker, await deliveredPayload(inbox.agent, { ...draft, kind: 'settled', answeredOn: 'laptop' }))
    await expect.poll(async () => (await shown(worker, ASK_ID))[0]?.title).toBe('Answered on laptop')
    expect(await shown(worker, ASK_ID)).toEqual([
      { title: 'Answered on laptop', body: draft.title, tag: ASK_ID, silent: true, data: { askId: ASK_ID } },
    ])
  })

  test('a sender outside the roster, a payload for another phone, junk and an empty push: the generic notice', async () => {
    const other = await loadMemberKeys((await generateMemberIdentity('other phone', 'device')).secret)
    const forOther = new TextDecoder().decode(await sealNotice(inbox.agent, other.member, draft))
    for (const payload of [await deliveredPayload(inbox.stranger, draft), forOther, 'junk', undefined]) {
      await clearNotifications(worker)
      await push(worker, payload)
      expect(await shown(worker, 'ask-user-generic')).toEqual([
        { title: 'New question', body: 'Open Ask User to read it.', tag: 'ask-user-generic', silent: false, data: {} },
      ])
      // Never the question's text, and nothing under the ask's tag.
      expect(
        await worker.evaluate(
          async () => (await (self as unknown as WorkerScope).registration.getNotifications()).length,
        ),
      ).toBe(1)
    }
  })

  test('a tap opens the app on its ask: ./#ask=<askId>', async () => {
    // Reloaded so the worker controls the page (it may then navigate it).
    await page.reload()
    await push(worker, await deliveredPayload(inbox.agent, draft))
    await shown(worker, ASK_ID)
    await worker.evaluate(async (tag) => {
      const scope = self as unknown as WorkerScope
      const [notification] = await scope.registration.getNotifications({ tag })
      const event = new NotificationEvent('notificationclick', { notification: notification! })
      // As for push(): the handler's waitUntil work is awaited here.
      const pending: Promise<unknown>[] = []
      Object.defineProperty(event, 'waitUntil', { value: (work: Promise<unknown>) => void pending.push(work) })
      scope.dispatchEvent(event)
      await Promise.all(pending)
    }, ASK_ID)
    await expect.poll(() => page.url()).toBe(`${origin}/#ask=${ASK_ID}`)
    expect(
      await worker.evaluate(
        async (tag) => (await (self as unknown as WorkerScope).registration.getNotifications({ tag })).length,
        ASK_ID,
      ),
    ).toBe(0)
  })
})
