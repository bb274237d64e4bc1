// The desktop's part of Web Push (relay/push): the roster's sealed push section, rebuilt from the VAPID
// key in this home and the subscription records the phones wrote on the relay. Called where the desktop
// signs a roster (the renewal at every start, and when a subscription arrives or a receipt reports one
// gone), so the section always lists exactly the current devices' live subscriptions.
import type { NatsConnection } from '@nats-io/nats-core'
import {
  loadMemberKeys,
  verifyRosterSignature,
  type Member,
  type MemberKeys,
  type Roster,
  type RosterPush,
} from '../crypto'
import { openBucket, readEntry } from '../exchange/relay-kv'
import { BUCKETS } from '../nats/templates'
import { isRelayPushError } from '../push/errors'
import { endpointHash, type GonePush } from '../push/notifier'
import { type DeviceSubscription, type PushSectionContent } from '../push/schemas'
import { openPushSection, sealPushSection } from '../push/section'
import { openSubscription, subscriptionKey } from '../push/subscription'
import { loadOrCreateVapid, rememberGone } from '../push/vapid'
import type { DesktopLink } from './desktop-link'
import { publishRosterChange } from './roster-change'
import { loadOwnMember, loadRelayState } from './state'

/** The push section a roster listing `roster.members` should carry, and whether it differs from `roster.push`. */
export interface PushSectionUpdate {
  /** `undefined`: the roster lists no device, so nothing is sent and no VAPID key is needed yet. */
  push: RosterPush | undefined
  changed: boolean
  /** Subscription records that were refused (forged, moved, not sealed to this desktop), by key and code. */
  refused: { key: string; code: string }[]
}

/**
 * The push section for `roster`'s members as desktop home `home` sees it now: the VAPID key (made and
 * stored 0600 on first need), every current device's newest subscription record from the relay's
 * `roster` bucket through `nc`, minus endpoints reported gone (`gone`, remembered in the VAPID file). A
 * removed device's record is never read. Throws relay/push's `PUSH_VAPID_INVALID` for a damaged key file.
 */
export async function pushSectionUpdate(
  home: string,
  nc: NatsConnection,
  roster: Roster,
  gone: readonly GonePush[] = [],
): Promise<PushSectionUpdate> {
  const devices = roster.members.filter((member) => member.role === 'device')
  if (devices.length === 0) return { push: undefined, changed: roster.push !== undefined, refused: [] }
  const desktop = await loadMemberKeys(await loadOwnMember(home, 'desktop'))
  let vapid = await loadOrCreateVapid(home)
  vapid = await rememberGone(
    home,
    vapid,
    gone.map((entry) => entry.endpoint),
  )
  const kv = await openBucket(nc, BUCKETS.roster)
  const subscriptions: DeviceSubscription[] = []
  const refused: PushSectionUpdate['refused'] = []
  for (const device of devices) {
    const key = subscriptionKey(device.id)
    const entry = await readEntry(kv, key)
    if (!entry) continue
    try {
      const opened = await openSubscription(desktop, roster, key, entry.value)
      if (vapid.gone.includes(await endpointHash(opened.subscription.endpoint))) continue
      subscriptions.push({ device: opened.device, subscription: opened.subscription })
    } catch (error) {
      if (!isRelayPushError(error)) throw error
      refused.push({ key, code: error.code })
    }
  }
  const content: PushSectionContent = { v: 1, vapid: vapid.keys, subject: vapid.subject, subscriptions }
  const changed = !(await sameSection(desktop, roster, content))
  return { push: changed ? await sealPushSection(roster.members, content) : roster.push, changed, refused }
}

// Re-sealing gives new ciphertext every time: compare what the current section holds instead, and who it is sealed to.
async function sameSection(desktop: MemberKeys, roster: Roster, content: PushSectionContent): Promise<boolean> {
  if (!roster.push) return false
  const senders = roster.members.filter((member) => member.role !== 'device').map((member) => member.id)
  const sealedTo = roster.push.keys.map((entry) => entry.to)
  if (senders.length !== sealedTo.length || senders.some((id) => !sealedTo.includes(id))) return false
  const current = await openPushSection(desktop, roster).catch(() => undefined)
  return current !== undefined && JSON.stringify(current) === JSON.stringify(content)
}

/**
 * When a subscription arrives or a receipt reports one gone: re-signs and publishes the roster with the
 * updated push section, only when the section changed. Returns the new roster version, or `undefined`
 * when nothing changed. Throws relay/home's `RELAY_ROSTER_CONFLICT` (other changes were published
 * meanwhile at every try: call again) and what {@link pushSectionUpdate} throws.
 */
export async function refreshPushRoster(
  home: string,
  link: DesktopLink,
  options: { now: number; gone?: readonly GonePush[] },
): Promise<number | undefined> {
  const state = await loadRelayState(home)
  const roster = await verifyRosterSignature(link.roster.bytes, link.roster.signature, state.settings.rootPublicKey)
  if (!(await pushSectionUpdate(home, link.nc, roster, options.gone)).changed) return undefined
  // Built again on top of another desktop's roster change published meanwhile (roster-change.ts).
  const next = await publishRosterChange(
    link,
    home,
    () => options.now,
    async (current) => ({
      push: (await pushSectionUpdate(home, link.nc, current, options.gone)).push,
    }),
  )
  return next.roster.version
}

/**
 * The push section for the roster about to replace `current` with `members` (pairing a device, removing
 * one, adding an agent): the current section's subscriptions re-sealed to the new members, so a new
 * phone finds the VAPID public key in the roster it is granted, a new agent can push at once, and a
 * removed device's subscription is gone at once. Needs no connection. `undefined` (no section) when the
 * roster lists no device, or when it cannot be built now: the next start builds it, and a roster change
 * is never held up by push.
 */
export async function pushSectionForMembers(
  home: string,
  current: Roster,
  members: readonly Member[],
): Promise<RosterPush | undefined> {
  if (!members.some((member) => member.role === 'device')) return undefined
  try {
    const desktop = await loadMemberKeys(await loadOwnMember(home, 'desktop'))
    const vapid = await loadOrCreateVapid(home)
    const opened = await openPushSection(desktop, current).catch(() => undefined)
    // Subscriptions made with another VAPID key (before a rotation) are refused by push services: left out.
    const subscriptions = opened?.vapid.publicKey === vapid.keys.publicKey ? opened.subscriptions : []
    return await sealPushSection(members, { v: 1, vapid: vapid.keys, subject: vapid.subject, subscriptions })
  } catch {
    return undefined
  }
}
