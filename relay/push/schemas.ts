// Zod schemas of everything relay/push reads or writes: a browser's push subscription, the VAPID keys,
// the sealed section's content, a phone's subscription record and the mini-notice. Browser-safe (the
// phone's service worker imports it).
import { z } from 'zod'
import { fromBase64url } from '../crypto/encoding'
import { AskIdSchema, BytesSchema, KvKeySchema, MAX_RECIPIENTS, MemberIdSchema } from '../crypto/schemas'

/**
 * The most bytes a notice may have before RFC 8291 encryption: push services take a 4,096-byte body,
 * and aes128gcm adds 86 bytes of header, 1 delimiter and a 16-byte tag. Ours to check: the test push
 * service accepts more than real ones do.
 */
export const MAX_PUSH_PAYLOAD_BYTES = 4_096 - 86 - 1 - 16
/** The longest title a notice carries (the notification's text; the full question stays on the relay). */
export const NOTICE_TITLE_MAX = 120

// Browsers give base64url, some with `=` padding: compared without it.
function withoutPadding(text: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === '=') end--
  return text.slice(0, end)
}

function base64urlKey(bytes: number) {
  return z
    .string()
    .transform(withoutPadding)
    .refine((text) => fromBase64url(text)?.byteLength === bytes, `must be base64url of ${bytes} bytes`)
}

/** Only https endpoints, or plain http on this machine (a local push service stand-in in tests). */
function pushEndpointAllowed(text: string): boolean {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return false
  }
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
}

/** A browser's push subscription (`PushSubscription.toJSON()`): where to post, and the keys to encrypt to. */
export const PushSubscriptionSchema = z.object({
  endpoint: z.string().max(2_048).refine(pushEndpointAllowed, 'must be an https URL'),
  keys: z.object({ p256dh: base64urlKey(65), auth: base64urlKey(16) }),
})
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionSchema>

/** The VAPID key pair (RFC 8292), as web-push makes and takes it: raw P-256 keys in base64url. */
export const VapidKeysSchema = z.strictObject({ publicKey: base64urlKey(65), privateKey: base64urlKey(32) })
export type VapidKeys = z.infer<typeof VapidKeysSchema>

/** One device's subscription, as the sealed section lists it. */
export const DeviceSubscriptionSchema = z.strictObject({
  device: MemberIdSchema,
  subscription: PushSubscriptionSchema,
})
export type DeviceSubscription = z.infer<typeof DeviceSubscriptionSchema>

/** What the roster's sealed push section holds: every sender needs the VAPID private key. */
export const PushSectionContentSchema = z.strictObject({
  v: z.literal(1),
  vapid: VapidKeysSchema,
  /** The VAPID `sub` claim: a contact for push services (`mailto:` or `https:`). */
  subject: z
    .string()
    .regex(/^(mailto:|https:)/, 'must be a mailto: or https: contact')
    .max(200),
  subscriptions: z.array(DeviceSubscriptionSchema).max(MAX_RECIPIENTS),
})
export type PushSectionContent = z.infer<typeof PushSectionContentSchema>

/**
 * A phone's subscription record at `roster` bucket `sub.<its member id>`, signed by the phone: the
 * subscription JSON sealed (HPKE) to each desktop of the roster, so the relay never sees the endpoint.
 */
export const SubscriptionRecordSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('push-sub'),
  device: MemberIdSchema,
  /** When the phone subscribed (ms since the epoch): the newest record of a device wins. */
  created: z.int().min(0),
  sealed: z
    .array(z.strictObject({ to: MemberIdSchema, enc: BytesSchema, ct: BytesSchema }))
    .min(1)
    .max(MAX_RECIPIENTS),
})

/** What a notice is about: a new ask, or an ask that ended (answered, withdrawn, expired). */
export const NoticeKindSchema = z.enum(['ask', 'settled'])

/**
 * The mini-notice: signed by its sender (an agent, or the desktop mirroring a local ask), addressed to
 * one phone (`to`, so a phone cannot pass it on to another as if sent there), then sealed to that phone.
 */
export const NoticeSchema = z.strictObject({
  v: z.literal(1),
  t: z.literal('push-notice'),
  to: MemberIdSchema,
  agent: MemberIdSchema,
  askId: AskIdSchema,
  kvKey: KvKeySchema,
  /** ms since the epoch. */
  created: z.int().min(0),
  kind: NoticeKindSchema,
  title: z.string().max(NOTICE_TITLE_MAX),
  /** `settled` only: the name of the device that answered; absent: answered at the desk (or not answered). */
  answeredOn: z.string().min(1).max(100).optional(),
  /** `settled` only, when nobody answered: the agent withdrew the ask, or it expired. */
  ended: z.enum(['withdrawn', 'expired']).optional(),
})
export type Notice = z.infer<typeof NoticeSchema>

/** The push payload: the signed notice sealed to the phone (UTF-8 JSON, as push services carry text). */
export const NoticePayloadSchema = z.strictObject({ v: z.literal(1), enc: BytesSchema, ct: BytesSchema })
