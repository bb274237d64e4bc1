// A phone's push subscription on its way to the desktop: the phone seals the subscription JSON to each
// desktop of the roster and signs the record; it writes it at `roster` bucket `sub.<its member id>`, a
// key only its own credential may write. The desktop opens it, checks the signature against the roster,
// and puts the subscription in the roster's sealed push section.
import { fromBase64url, fromUtf8, ownBytes, parseJson, utf8, type Bytes, type WebCryptoKey } from '../crypto/encoding'
import type { MemberKeys } from '../crypto/keys'
import { findMember } from '../crypto/roster'
import { openSealedBox, sealToKey } from '../crypto/sealed-box'
import type { Member, Roster } from '../crypto/schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from '../crypto/signing'
import { SUBSCRIPTION_KEY_PREFIX } from '../nats/templates'
import { RelayPushError } from './errors'
import { PushSubscriptionSchema, SubscriptionRecordSchema, type DeviceSubscription } from './schemas'

/** HPKE `info` of a sealed subscription. */
const SUBSCRIPTION_INFO = 'ask-user/v1/push-subscription'

/** Where the device with member id `deviceId` keeps its subscription record (in the `roster` bucket). */
export function subscriptionKey(deviceId: string): string {
  return `${SUBSCRIPTION_KEY_PREFIX}.${deviceId}`
}

/**
 * The record the phone `phone` stores at {@link subscriptionKey}: `subscription` (a browser's
 * `PushSubscription.toJSON()`) sealed to every desktop of the verified `roster`, signed by the phone.
 * Throws `PUSH_SUBSCRIPTION_INVALID` when `subscription` is not one, or the roster lists no desktop.
 */
export async function sealSubscription(
  phone: MemberKeys,
  roster: Roster,
  subscription: unknown,
  now: number,
): Promise<Bytes> {
  const parsed = PushSubscriptionSchema.safeParse(subscription)
  if (!parsed.success)
    throw new RelayPushError(
      'PUSH_SUBSCRIPTION_INVALID',
      `the browser's push subscription is not usable (${parsed.error.issues[0]?.message ?? 'invalid'}); allow notifications again`,
    )
  const desktops = roster.members.filter((member) => member.role === 'desktop')
  if (desktops.length === 0)
    throw new RelayPushError('PUSH_SUBSCRIPTION_INVALID', 'the roster lists no desktop to send the subscription to')
  const plain = utf8(JSON.stringify({ endpoint: parsed.data.endpoint, keys: parsed.data.keys }))
  const sealed = await Promise.all(
    desktops.map(async (desktop) => ({
      to: desktop.id,
      ...(await sealToKey(desktop.hpkePublic, SUBSCRIPTION_INFO, utf8(phone.member.id), plain)),
    })),
  )
  const record = SubscriptionRecordSchema.parse({
    v: 1,
    t: 'push-sub',
    device: phone.member.id,
    created: now,
    sealed,
  })
  return signEnvelope(phone.signing, utf8(JSON.stringify(record)))
}

/**
 * Opens the subscription record read from `kvKey` as the desktop `me`, against the verified `roster`.
 * Throws `PUSH_SUBSCRIPTION_SIGNATURE` when it is not signed by the device of the roster its key names
 * (forged, moved by the relay, or from a removed device), `PUSH_SUBSCRIPTION_INVALID` when it is not a
 * record or not sealed to `me`.
 */
export async function openSubscription(
  me: { member: Member; hpkePrivateKey: WebCryptoKey },
  roster: Roster,
  kvKey: string,
  stored: Uint8Array,
): Promise<DeviceSubscription & { created: number }> {
  const parts = splitEnvelope(ownBytes(stored))
  const text = parts && fromUtf8(parts.content)
  const record = SubscriptionRecordSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!parts || !record.success)
    throw new RelayPushError('PUSH_SUBSCRIPTION_INVALID', `${kvKey} does not hold a subscription record; ignoring it`)
  const device = findMember(roster, record.data.device)
  if (
    kvKey !== subscriptionKey(record.data.device) ||
    device?.role !== 'device' ||
    !(await verifyBytes(fromBase64url(device.signPublic)!, parts.signature, parts.content))
  )
    throw new RelayPushError(
      'PUSH_SUBSCRIPTION_SIGNATURE',
      `${kvKey} is not signed by the device of the roster it names; ignoring it`,
    )
  const mine = record.data.sealed.find((entry) => entry.to === me.member.id)
  const plain = mine && (await openSealedBox(me.hpkePrivateKey, SUBSCRIPTION_INFO, utf8(device.id), mine))
  const json = plain && fromUtf8(plain)
  const subscription = PushSubscriptionSchema.safeParse(json === undefined ? undefined : parseJson(json))
  if (!subscription.success)
    throw new RelayPushError(
      'PUSH_SUBSCRIPTION_INVALID',
      `${kvKey} is not sealed to this desktop; the phone subscribes again when it next opens`,
    )
  return { device: device.id, subscription: subscription.data, created: record.data.created }
}
