// The roster's sealed push section (RELAY.md §4.6): every sender of pushes (each agent, each desktop)
// needs the VAPID private key and the devices' subscriptions, and nobody else may read them. A fresh
// content key seals the section with AES-256-GCM and is HPKE-wrapped to each agent and desktop of the
// roster; the root signs the roster, so nobody but the desktop can change who receives it.
import {
  fromBase64url,
  fromUtf8,
  parseJson,
  randomBytes,
  toBase64url,
  utf8,
  type Bytes,
  type WebCryptoKey,
} from '../crypto/encoding'
import { openSealedBox, sealToKey } from '../crypto/sealed-box'
import type { Member, Roster, RosterPush } from '../crypto/schemas'
import { RelayPushError } from './errors'
import { PushSectionContentSchema, type PushSectionContent } from './schemas'

/** HPKE `info` of the section's wrapped content key. */
const SECTION_KEY_INFO = 'ask-user/v1/push-section-key'

/** The members that send pushes and so receive the section: every agent and desktop. */
export function pushSenders(members: readonly Member[]): Member[] {
  return members.filter((member) => member.role !== 'device')
}

/** The section's AAD: binds the sealed part to the VAPID public key listed in the clear beside it. */
function sectionAad(vapidPublic: string): Bytes {
  return utf8(`ask-user/v1/push-section:${vapidPublic}`)
}

/**
 * Seals `content` for the roster listing `members`. Subscriptions of devices not in `members` are left
 * out (a removed device's subscription leaves with it). Throws `PUSH_SECTION_OPEN` when no member could
 * receive it (a roster without agents or desktops).
 */
export async function sealPushSection(members: readonly Member[], content: PushSectionContent): Promise<RosterPush> {
  const deviceIds = new Set(members.filter((member) => member.role === 'device').map((member) => member.id))
  const parsed = PushSectionContentSchema.parse({
    ...content,
    subscriptions: content.subscriptions.filter((entry) => deviceIds.has(entry.device)),
  })
  const recipients = pushSenders(members)
  if (recipients.length === 0)
    throw new RelayPushError('PUSH_SECTION_OPEN', 'the roster lists no agent or desktop to seal the push section to')
  const aad = sectionAad(parsed.vapid.publicKey)
  const rawKey = randomBytes(32)
  const iv = randomBytes(12)
  const key = await crypto.subtle.importKey('raw', rawKey, 'AES-GCM', false, ['encrypt'])
  const ct = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, utf8(JSON.stringify(parsed))),
  )
  const keys = await Promise.all(
    recipients.map(async (member) => {
      const box = await sealToKey(member.hpkePublic, SECTION_KEY_INFO, utf8(member.id), rawKey)
      return { to: member.id, enc: box.enc, key: box.ct }
    }),
  )
  return { vapidPublic: parsed.vapid.publicKey, keys, iv: toBase64url(iv), ct: toBase64url(ct) }
}

/**
 * Opens the push section of the verified `roster` as `me`. `undefined` when the roster has none (no
 * phone subscribed yet). Throws `PUSH_SECTION_OPEN` when it is not sealed to `me` or does not open.
 */
export async function openPushSection(
  me: { member: Member; hpkePrivateKey: WebCryptoKey },
  roster: Roster,
): Promise<PushSectionContent | undefined> {
  const push = roster.push
  if (!push) return undefined
  const refuse = (why: string): RelayPushError =>
    new RelayPushError(
      'PUSH_SECTION_OPEN',
      `the roster's push section ${why}; pushes are not sent until the desktop re-seals it`,
    )
  const wrapped = push.keys.find((entry) => entry.to === me.member.id)
  if (!wrapped) throw refuse('is not sealed to this member')
  const rawKey = await openSealedBox(me.hpkePrivateKey, SECTION_KEY_INFO, utf8(me.member.id), {
    enc: wrapped.enc,
    ct: wrapped.key,
  })
  if (rawKey?.byteLength !== 32) throw refuse('does not open with this member key')
  const key = await crypto.subtle.importKey('raw', rawKey, 'AES-GCM', false, ['decrypt'])
  let plain: Bytes
  try {
    plain = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64url(push.iv)!, additionalData: sectionAad(push.vapidPublic) },
        key,
        fromBase64url(push.ct)!,
      ),
    )
  } catch {
    throw refuse('is damaged')
  }
  const text = fromUtf8(plain)
  const parsed = PushSectionContentSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!parsed.success || parsed.data.vapid.publicKey !== push.vapidPublic) throw refuse('is malformed')
  return parsed.data
}
