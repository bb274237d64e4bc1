// The mini-notice a push carries (RELAY.md §4.6): signed by its sender over the exact bytes, addressed to
// one phone, then HPKE-sealed to that phone's key. The push service sees RFC 8291 ciphertext of our own
// ciphertext; a leaked VAPID key lets someone wake the phone, never put words on its screen, because the
// service worker shows the title only after checking the signature against the root-signed roster.
import { fromBase64url, fromUtf8, parseJson, utf8, type WebCryptoKey } from '../crypto/encoding'
import type { MemberKeys } from '../crypto/keys'
import { findMember } from '../crypto/roster'
import { openSealedBox, sealToKey } from '../crypto/sealed-box'
import type { Member, Roster } from '../crypto/schemas'
import { signEnvelope, splitEnvelope, verifyBytes } from '../crypto/signing'
import { RelayPushError } from './errors'
import { MAX_PUSH_PAYLOAD_BYTES, NOTICE_TITLE_MAX, NoticePayloadSchema, NoticeSchema, type Notice } from './schemas'

/** HPKE `info` of a notice: separates it from every other sealed box. */
const NOTICE_INFO = 'ask-user/v1/push-notice'

/** A notice before its sender and recipient are filled in. */
export type NoticeDraft = Omit<Notice, 'v' | 't' | 'to' | 'agent'>

/**
 * The push payload of `draft` from `sender` to the phone `phone`: the title is cut to
 * {@link NOTICE_TITLE_MAX} characters. Throws `PUSH_TOO_LARGE` when the payload would pass
 * {@link MAX_PUSH_PAYLOAD_BYTES} (it never reaches a push service then).
 */
export async function sealNotice(sender: MemberKeys, phone: Member, draft: NoticeDraft): Promise<Uint8Array> {
  const notice = NoticeSchema.parse({
    v: 1,
    t: 'push-notice',
    to: phone.id,
    agent: sender.member.id,
    ...draft,
    title: [...draft.title].slice(0, NOTICE_TITLE_MAX).join(''),
  })
  const signed = await signEnvelope(sender.signing, utf8(JSON.stringify(notice)))
  const box = await sealToKey(phone.hpkePublic, NOTICE_INFO, utf8(phone.id), signed)
  const payload = utf8(JSON.stringify({ v: 1, ...box }))
  checkPayloadSize(payload)
  return payload
}

/** Throws `PUSH_TOO_LARGE` when `payload` is more than a push service carries. */
export function checkPayloadSize(payload: Uint8Array): void {
  if (payload.byteLength > MAX_PUSH_PAYLOAD_BYTES)
    throw new RelayPushError(
      'PUSH_TOO_LARGE',
      `a push payload is at most ${MAX_PUSH_PAYLOAD_BYTES} bytes before encryption, this one has ${payload.byteLength}; shorten the notice`,
    )
}

/** Why a payload was not shown with its text: the service worker then shows the generic notice. */
export type NoticeRefusal = 'unreadable' | 'not-for-me' | 'unknown-sender' | 'bad-signature'

/** The outcome of {@link openNotice}: a verified notice, or the reason it is not one. */
export type OpenedNotice =
  { verified: true; notice: Notice; sender: Member } | { verified: false; reason: NoticeRefusal }

/**
 * Opens a push payload as the phone `me` (its roster record and HPKE private key) against the verified
 * `roster`. Verified only when it opens, is addressed to `me`, and is signed by an agent or desktop of
 * that roster (a removed agent is not in it). Never throws: anything else is a refusal.
 */
export async function openNotice(
  me: { member: Member; hpkePrivateKey: WebCryptoKey },
  roster: Roster,
  payload: Uint8Array,
): Promise<OpenedNotice> {
  const text = fromUtf8(new Uint8Array(payload))
  const box = NoticePayloadSchema.safeParse(text === undefined ? undefined : parseJson(text))
  if (!box.success) return { verified: false, reason: 'unreadable' }
  const signed = await openSealedBox(me.hpkePrivateKey, NOTICE_INFO, utf8(me.member.id), box.data)
  const parts = signed && splitEnvelope(signed)
  const content = parts && fromUtf8(parts.content)
  const notice = NoticeSchema.safeParse(content === undefined ? undefined : parseJson(content))
  if (!parts || !notice.success) return { verified: false, reason: 'unreadable' }
  if (notice.data.to !== me.member.id) return { verified: false, reason: 'not-for-me' }
  const sender = findMember(roster, notice.data.agent)
  if (sender?.role !== 'agent' && sender?.role !== 'desktop') return { verified: false, reason: 'unknown-sender' }
  if (!(await verifyBytes(fromBase64url(sender.signPublic)!, parts.signature, parts.content)))
    return { verified: false, reason: 'bad-signature' }
  return { verified: true, notice: notice.data, sender }
}
