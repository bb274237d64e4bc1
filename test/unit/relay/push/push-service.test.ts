// Web Push end to end against the push service stand-in (web-push-testing, in a private network
// namespace): web-push's generateRequestDetails() posted with fetch, decrypted by the service (RFC 8291),
// then opened and verified as the phone would. VAPID mismatch, 410 and our own 4 KB cap.
import webpush from 'web-push'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isRelayPushError } from '../../../../relay/push/errors'
import { endpointHash, notifyDevices } from '../../../../relay/push/notifier'
import { openNotice, type NoticeDraft } from '../../../../relay/push/notice'
import type { PushSectionContent } from '../../../../relay/push/schemas'
import { sendPush } from '../../../../relay/push/send'
import { generateVapidKeys } from '../../../../relay/push/vapid'
import { pushServiceSkipReason, startPushService, type PushService } from '../../../helpers/push-service'
import { NOW, makeInbox } from '../crypto-fixtures'

const skip = pushServiceSkipReason()
if (skip) console.log(`skipping the push service tests: ${skip}`)

const draft: NoticeDraft = {
  askId: 'BBBBBBBBBBBBBBBBBBBBBB',
  kvKey: 'q.ci-nightly.BBBBBBBBBBBBBBBBBBBBBB',
  created: NOW,
  kind: 'ask',
  title: 'Run the migration?',
}
const subject = 'mailto:test@example.org'

describe.skipIf(skip)('Web Push through the push service stand-in', () => {
  let service: PushService

  beforeAll(async () => {
    service = await startPushService()
  }, 60_000)
  afterAll(async () => {
    await service?.stop()
  })

  it('an ask notice round-trips: accepted, decrypted by the service, verified by the phone', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const phone = devices[1]!
    const vapid = generateVapidKeys()
    const subscription = await service.subscribe(vapid.publicKey)
    const section: PushSectionContent = {
      v: 1,
      vapid,
      subject,
      subscriptions: [{ device: phone.member.id, subscription }],
    }
    const outcome = await notifyDevices(agent, roster, section, draft)
    expect(outcome).toEqual({
      results: [{ device: phone.member.id, result: { status: 'accepted', httpStatus: 201 } }],
      gone: [],
    })
    const [delivered] = await service.messages(subscription.clientHash)
    const opened = await openNotice(phone, roster, new TextEncoder().encode(delivered))
    expect(opened).toMatchObject({ verified: true, notice: { title: draft.title, askId: draft.askId, kind: 'ask' } })
  })

  it('a push signed with another VAPID key is refused by the service', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const subscription = await service.subscribe(generateVapidKeys().publicKey)
    const section: PushSectionContent = {
      v: 1,
      vapid: generateVapidKeys(),
      subject,
      subscriptions: [{ device: devices[1]!.member.id, subscription }],
    }
    const outcome = await notifyDevices(agent, roster, section, draft)
    expect(outcome.results[0]?.result).toEqual({ status: 'refused', httpStatus: 400 })
    expect(outcome.gone).toEqual([])
    expect(await service.messages(subscription.clientHash)).toEqual([])
  })

  it('an expired subscription answers 410 and is reported gone, by endpoint hash', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const vapid = generateVapidKeys()
    const subscription = await service.subscribe(vapid.publicKey)
    await service.expire(subscription.clientHash)
    const section: PushSectionContent = {
      v: 1,
      vapid,
      subject,
      subscriptions: [{ device: devices[1]!.member.id, subscription }],
    }
    const outcome = await notifyDevices(agent, roster, section, draft)
    expect(outcome.results[0]?.result).toEqual({ status: 'gone', httpStatus: 410 })
    expect(outcome.gone).toEqual([
      { device: devices[1]!.member.id, endpoint: await endpointHash(subscription.endpoint) },
    ])
  })

  it('our 4 KB cap refuses what the stand-in would accept', async () => {
    const vapid = generateVapidKeys()
    const subscription = await service.subscribe(vapid.publicKey)
    const oversized = new Uint8Array(4_000).fill(0x61)
    const refused = await sendPush(
      subscription,
      { payload: oversized, topic: 'cap', urgency: 'normal' },
      { vapid, subject },
    )
      .then(() => undefined)
      .catch((error: unknown) => error)
    expect(isRelayPushError(refused, 'PUSH_TOO_LARGE')).toBe(true)
    expect((refused as Error).message).toBe(
      'PUSH_TOO_LARGE: a push payload is at most 3993 bytes before encryption, this one has 4000; shorten the notice',
    )
    // The same bytes posted past our check: the stand-in takes them, real push services do not.
    const request = webpush.generateRequestDetails(subscription, Buffer.from(oversized), {
      vapidDetails: { subject, ...vapid },
      contentEncoding: 'aes128gcm',
    })
    const response = await fetch(request.endpoint, {
      method: 'POST',
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body),
    })
    expect(response.status).toBe(201)
    expect(await service.messages(subscription.clientHash)).toEqual(['a'.repeat(4_000)])
    // And exactly at the cap we send.
    const atCap = await sendPush(
      subscription,
      { payload: oversized.subarray(0, 3_993), topic: 'cap', urgency: 'normal' },
      { vapid, subject },
    )
    expect(atCap).toEqual({ status: 'accepted', httpStatus: 201 })
  })
})
