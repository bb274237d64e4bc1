// Turning on notifications for this phone: the browser's push subscription, made with the relay's VAPID
// public key from the root-signed roster, sealed to the desktops and stored at the phone's own
// `sub.<member id>` key; the desktop adds it to the roster's sealed push section, and agents then wake
// this phone. Called only from the person's tap (browsers refuse a permission prompt otherwise).
import type { NatsConnection } from '@nats-io/nats-core'
import { fromBase64url } from '../../../relay/crypto/encoding'
import { loadMemberKeys } from '../../../relay/crypto/keys'
import { parseRosterRecord } from '../../../relay/crypto/roster-record'
import { verifyRoster } from '../../../relay/crypto/roster'
import type { Roster } from '../../../relay/crypto/schemas'
import { ROSTER_KEY } from '../../../relay/exchange/roster-source'
import { BUCKETS } from '../../../relay/nats/templates'
import type { RelayConnect } from '../../../relay/pairing/relay-kv'
import { getEntry, putEntry } from '../../../relay/pairing/relay-kv'
import { sealSubscription, subscriptionKey } from '../../../relay/push/subscription'
import type { PhoneRecord } from '../home/phone-record'

/** Why notifications could not be turned on, as a stable code the shell turns into a sentence. */
export type PushSetupCode = 'PUSH_UNSUPPORTED' | 'PUSH_DENIED' | 'PUSH_NOT_READY' | 'PUSH_UNREACHABLE'

export class PushSetupError extends Error {
  constructor(
    readonly code: PushSetupCode,
    message: string,
  ) {
    super(message)
    this.name = 'PushSetupError'
  }
}

/** What the subscription needs from the browser (the real objects in the app; a test may pass its own). */
export interface PushHost {
  requestPermission(): Promise<NotificationPermission>
  registration(): Promise<ServiceWorkerRegistration | undefined>
}

/** The browser's own Notification and service worker objects. */
export const browserPushHost: PushHost = {
  requestPermission: () => Notification.requestPermission(),
  registration: async () => (navigator.serviceWorker ? navigator.serviceWorker.ready : undefined),
}

/**
 * Asks for permission (first, as close to the person's tap as it can be), subscribes with the roster's VAPID key and stores the sealed subscription on the
 * relay. Throws {@link PushSetupError}: `PUSH_UNSUPPORTED` (no service worker or Push API),
 * `PUSH_DENIED` (the person or the browser refused), `PUSH_UNREACHABLE` (the relay could not be reached),
 * `PUSH_NOT_READY` (the roster has no VAPID key yet: the desktop adds one when it next signs the roster).
 */
export async function subscribeToPush(
  /** The phone's record, or how to read it once permission is given (the inbox's newest). */
  phone: PhoneRecord | (() => PhoneRecord),
  connect: RelayConnect,
  host: PushHost = browserPushHost,
  now: () => number = Date.now,
): Promise<void> {
  const permission = await host.requestPermission()
  if (permission !== 'granted') throw new PushSetupError('PUSH_DENIED', permission)
  const registration = await host.registration()
  if (registration?.pushManager === undefined) throw new PushSetupError('PUSH_UNSUPPORTED', 'no Push API')
  const record = typeof phone === 'function' ? phone() : phone
  let nc
  try {
    nc = await connect(record.url, record.creds, record.natsName)
  } catch (error) {
    throw new PushSetupError('PUSH_UNREACHABLE', error instanceof Error ? error.message : String(error))
  }
  try {
    const roster = await newestRoster(nc, record, now())
    const vapid = roster.push?.vapidPublic
    const applicationServerKey = vapid === undefined ? undefined : fromBase64url(vapid)
    if (applicationServerKey === undefined) throw new PushSetupError('PUSH_NOT_READY', 'the roster has no VAPID key')
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })
    const sealed = await sealSubscription(await loadMemberKeys(record.secret), roster, subscription.toJSON(), now())
    await putEntry(nc, BUCKETS.roster, subscriptionKey(record.secret.member.id), sealed)
  } finally {
    await nc.close()
  }
}

/**
 * The newest roster this phone can trust: the relay's `roster.current` when it verifies against the
 * pinned root key and is no older than the highest version this phone has seen (a VAPID key, or a
 * desktop, added since the page loaded), else the one the phone stored at its last dial. The relay's
 * operator can withhold a newer roster but never substitute one.
 */
async function newestRoster(nc: NatsConnection, record: PhoneRecord, now: number): Promise<Roster> {
  const published = await getEntry(nc, BUCKETS.roster, ROSTER_KEY).catch(() => undefined)
  const signed = published === undefined ? undefined : parseRosterRecord(published.value)
  if (signed !== undefined) {
    const relayed = await verifyRoster(signed.bytes, signed.signature, record.rootPublicKey, {
      highestSeenVersion: record.highestRosterVersion,
      now,
    }).catch(() => undefined)
    if (relayed !== undefined) return relayed
  }
  return verifyRoster(
    fromBase64url(record.roster.bytes) ?? new Uint8Array(),
    fromBase64url(record.roster.signature) ?? new Uint8Array(),
    record.rootPublicKey,
    { highestSeenVersion: 0, now },
  )
}
