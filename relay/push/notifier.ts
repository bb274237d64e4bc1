// Waking every phone about one ask (Node only): a notice sealed to each device whose subscription the
// roster's push section lists, posted concurrently. Best effort by design: the caller never awaits it on
// the ask's path, nothing here throws, and the only thing it reports is which subscriptions are gone.
import { findMember } from '../crypto/roster'
import type { MemberKeys } from '../crypto/keys'
import type { Roster } from '../crypto/schemas'
import { sha256, toBase64url, utf8 } from '../crypto/encoding'
import { sealNotice, type NoticeDraft } from './notice'
import type { PushSectionContent } from './schemas'
import { pushTopicFor, sendPush, type PushSendResult } from './send'

/** A subscription the push service called gone: the device and the SHA-256 of the endpoint (as receipts carry it). */
export interface GonePush {
  device: string
  endpoint: string
}

/** What one notify round did, per device (for logs and the bench; never ask content). */
export interface NotifyOutcome {
  results: { device: string; result: PushSendResult | { status: 'not-sent'; message: string } }[]
  gone: GonePush[]
}

/** The SHA-256 of a subscription endpoint, base64url: how receipts name a gone subscription. */
export async function endpointHash(endpoint: string): Promise<string> {
  return toBase64url(await sha256(utf8(endpoint)))
}

/**
 * Sends `draft` from `sender` to every device subscription in `section` whose device is still in the
 * verified `roster`. `ask` notices go with high urgency, `settled` ones with low (they replace the
 * notification silently). Resolves when every post has an outcome; never rejects.
 */
export async function notifyDevices(
  sender: MemberKeys,
  roster: Roster,
  section: PushSectionContent,
  draft: NoticeDraft,
  options: { timeoutMs?: number } = {},
): Promise<NotifyOutcome> {
  const topic = await pushTopicFor(draft.askId)
  const results = await Promise.all(
    section.subscriptions.map(async ({ device, subscription }) => {
      const member = findMember(roster, device)
      if (member?.role !== 'device')
        return { device, result: { status: 'not-sent' as const, message: 'the device is not in the roster' } }
      try {
        const payload = await sealNotice(sender, member, draft)
        const result = await sendPush(
          subscription,
          { payload, topic, urgency: draft.kind === 'ask' ? 'high' : 'low' },
          { vapid: section.vapid, subject: section.subject },
          options,
        )
        return { device, result, endpoint: subscription.endpoint }
      } catch (error) {
        return { device, result: { status: 'not-sent' as const, message: (error as Error).message } }
      }
    }),
  )
  const gone: GonePush[] = []
  for (const entry of results) {
    if (entry.result.status === 'gone' && 'endpoint' in entry && entry.endpoint !== undefined)
      gone.push({ device: entry.device, endpoint: await endpointHash(entry.endpoint) })
  }
  return { results: results.map(({ device, result }) => ({ device, result })), gone }
}
