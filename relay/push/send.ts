// Posting one push (Node only): web-push builds the RFC 8291 body and the VAPID headers
// (generateRequestDetails), and Node's fetch posts them, so any http(s) push service works, the local
// stand-in included (web-push's own sendNotification always dials https).
import webpush from 'web-push'
import { sha256, toBase64url, utf8 } from '../crypto/encoding'
import { checkPayloadSize } from './notice'
import type { PushSubscriptionJson, VapidKeys } from './schemas'

/** How long a push service may take to accept a push before it counts as unreachable. */
export const PUSH_SEND_TIMEOUT_MS = 10_000
/** How long a push service keeps an undelivered notice: an ask older than a day is read in the app. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60

/** What became of one push: accepted (2xx), gone (404/410: drop the subscription), refused, unreachable. */
export type PushSendResult =
  | { status: 'accepted'; httpStatus: number }
  | { status: 'gone'; httpStatus: 404 | 410 }
  | { status: 'refused'; httpStatus: number }
  | { status: 'unreachable'; message: string }

/** One push to send: the payload (already sealed and capped), its topic and urgency. */
export interface PushMessage {
  payload: Uint8Array
  /** Replaces an undelivered push of the same topic at the push service (RFC 8030 §5.4): the ask id's topic. */
  topic: string
  urgency: 'high' | 'normal' | 'low'
  ttlSeconds?: number
}

/** The sender's VAPID identity. */
export interface VapidSender {
  vapid: VapidKeys
  subject: string
}

/**
 * RFC 8030's topic for `askId`: at most 32 base64url characters. An ask id that fits is its own topic;
 * a longer one is shortened to the first 24 bytes of its SHA-256.
 */
export async function pushTopicFor(askId: string): Promise<string> {
  if (askId.length <= 32) return askId
  return toBase64url((await sha256(utf8(askId))).subarray(0, 24))
}

/**
 * Encrypts and posts `message` to `subscription` as `sender`. Throws `PUSH_TOO_LARGE` before any request
 * when the payload is over our cap; otherwise never throws: every failure is a result.
 */
export async function sendPush(
  subscription: PushSubscriptionJson,
  message: PushMessage,
  sender: VapidSender,
  options: { timeoutMs?: number } = {},
): Promise<PushSendResult> {
  checkPayloadSize(message.payload)
  let request: webpush.RequestDetails
  try {
    request = webpush.generateRequestDetails(subscription, Buffer.from(message.payload), {
      vapidDetails: { subject: sender.subject, publicKey: sender.vapid.publicKey, privateKey: sender.vapid.privateKey },
      TTL: message.ttlSeconds ?? PUSH_TTL_SECONDS,
      urgency: message.urgency,
      topic: message.topic,
      contentEncoding: 'aes128gcm',
    })
  } catch (error) {
    return { status: 'unreachable', message: `the push could not be prepared: ${(error as Error).message}` }
  }
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body === null ? null : new Uint8Array(request.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? PUSH_SEND_TIMEOUT_MS),
    })
    await response.arrayBuffer().catch(() => undefined)
    if (response.status === 404 || response.status === 410) return { status: 'gone', httpStatus: response.status }
    if (response.ok) return { status: 'accepted', httpStatus: response.status }
    return { status: 'refused', httpStatus: response.status }
  } catch (error) {
    return { status: 'unreachable', message: (error as Error).message }
  }
}
