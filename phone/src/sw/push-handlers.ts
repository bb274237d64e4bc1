// What the service worker does with a push and with a tap on its notification. A push always shows a
// notification (browsers revoke the permission of workers that stay silent). Its text comes from the
// push only when the notice opens with this phone's key and is signed by an agent or desktop of the
// root-signed roster kept in IndexedDB; anything else (a leaked VAPID key, a removed agent, a payload
// for another phone) shows the generic "New question". A settled ask replaces its notification by tag,
// silently.
import { verifyRoster } from '../../../relay/crypto/roster'
import { AskIdSchema } from '../../../relay/crypto/schemas'
import { X25519_SUITE } from '../../../relay/crypto/suite'
import { fromBase64url } from '../../../relay/crypto/encoding'
import { openNotice } from '../../../relay/push/notice'
import type { Notice } from '../../../relay/push/schemas'
import { loadPhoneRecord } from '../home/phone-home'
import type { PhoneRecord } from '../home/phone-record'

/** What the handlers need from the service worker's global scope (a test passes the real one). */
export interface PushScope {
  registration: ServiceWorkerRegistration
  clients: Clients
}

/** Where the handlers read the phone's record and the time (the real IndexedDB and clock by default). */
export interface PushDeps {
  readRecord: () => Promise<PhoneRecord | undefined>
  now: () => number
}

const DEFAULT_DEPS: PushDeps = { readRecord: () => loadPhoneRecord(), now: () => Date.now() }

/** The tag of the generic notification: one at a time, replaced by the next. */
export const GENERIC_TAG = 'ask-user-generic'

/** The notification to show for a push, as title and options. */
export interface PushNotification {
  title: string
  options: NotificationOptions & { tag: string; data: { askId?: string } }
}

const GENERIC: PushNotification = {
  title: 'New question',
  options: { tag: GENERIC_TAG, body: 'Open Ask User to read it.', data: {} },
}

/** Shows the notification for one push payload (`undefined`: the push carried none). Never rejects. */
export async function onPush(
  scope: PushScope,
  payload: Uint8Array | undefined,
  deps: PushDeps = DEFAULT_DEPS,
): Promise<void> {
  const shown = await notificationFor(payload, deps).catch(() => GENERIC)
  await scope.registration.showNotification(shown.title, shown.options)
}

/** What a payload shows: the verified notice's text, or {@link GENERIC}. Never rejects for a bad payload. */
export async function notificationFor(payload: Uint8Array | undefined, deps: PushDeps): Promise<PushNotification> {
  if (payload === undefined) return GENERIC
  const record = await deps.readRecord()
  if (!record) return GENERIC
  const roster = await verifyRoster(
    fromBase64url(record.roster.bytes) ?? new Uint8Array(),
    fromBase64url(record.roster.signature) ?? new Uint8Array(),
    record.rootPublicKey,
    { highestSeenVersion: record.highestRosterVersion, now: deps.now() },
  )
  const hpkePrivateKey = await X25519_SUITE.kem.deserializePrivateKey(
    (fromBase64url(record.secret.hpkePrivate) ?? new Uint8Array()).slice().buffer,
  )
  const opened = await openNotice({ member: record.secret.member, hpkePrivateKey }, roster, payload)
  if (!opened.verified) return GENERIC
  return opened.notice.kind === 'ask'
    ? {
        title: opened.notice.title || 'New question',
        options: { tag: opened.notice.askId, body: `From ${opened.sender.name}`, data: { askId: opened.notice.askId } },
      }
    : {
        title: settledText(opened.notice),
        options: {
          tag: opened.notice.askId,
          body: opened.notice.title,
          silent: true,
          data: { askId: opened.notice.askId },
        },
      }
}

function settledText(notice: Notice): string {
  if (notice.ended === 'withdrawn') return 'No longer asked'
  if (notice.ended === 'expired') return 'Expired unanswered'
  return notice.answeredOn === undefined ? 'Answered at the desk' : `Answered on ${notice.answeredOn}`
}

/** Opens (or focuses) the app on the ask the tapped notification is about: `./#ask=<askId>`. */
export async function onNotificationClick(scope: PushScope, notification: Notification): Promise<void> {
  notification.close()
  const askId = AskIdSchema.safeParse((notification.data as { askId?: unknown } | null)?.askId)
  const url = new URL(askId.success ? `./#ask=${askId.data}` : './', scope.registration.scope).href
  const open = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const client = open.find((candidate): candidate is WindowClient => 'focus' in candidate)
  if (client === undefined) {
    await scope.clients.openWindow(url)
    return
  }
  // Allowed only inside a real tap; a refused focus must not stop the navigation.
  await client.focus().catch(() => undefined)
  // The app follows `#ask=` changes; navigate() is refused for a window this worker does not control.
  await client.navigate(url).catch(() => client.postMessage({ type: 'open-ask', url }))
}
