// The roster's sealed push section and the phone's subscription record: who can open what, and that a
// removed device's subscription and a forged or moved record never reach the senders.
import { describe, expect, it } from 'vitest'
import { renewRoster, signRoster, verifyRoster } from '../../../../relay/crypto/roster'
import type { Roster } from '../../../../relay/crypto/schemas'
import { isRelayPushError, type RelayPushCode } from '../../../../relay/push/errors'
import type { PushSectionContent } from '../../../../relay/push/schemas'
import { openPushSection, sealPushSection } from '../../../../relay/push/section'
import { openSubscription, sealSubscription, subscriptionKey } from '../../../../relay/push/subscription'
import { generateVapidKeys } from '../../../../relay/push/vapid'
import { NOW, makeInbox, makeMember } from '../crypto-fixtures'

const browserSubscription = (n: number) => ({
  endpoint: `https://push.example/send/${n}`,
  expirationTime: null,
  keys: {
    // A real P-256 point is not needed for sealing; the schema checks the sizes (65 and 16 bytes).
    p256dh: Buffer.alloc(65, n).toString('base64url'),
    auth: Buffer.alloc(16, n).toString('base64url'),
  },
})

async function codeOf(promise: Promise<unknown>): Promise<RelayPushCode | 'ACCEPTED' | string> {
  return promise.then(
    () => 'ACCEPTED',
    (error: unknown) => (isRelayPushError(error) ? error.code : String(error)),
  )
}

async function verified(root: { publicKey: string }, signed: { bytes: Uint8Array; signature: Uint8Array }) {
  return verifyRoster(signed.bytes, signed.signature, root.publicKey, { highestSeenVersion: 0, now: NOW })
}

describe('push section in the roster', () => {
  it('agents and desktops open it; devices cannot; a removed device’s subscription is left out', async () => {
    const { root, agent, devices, roster } = await makeInbox(3)
    const [desk, phone, gonePhone] = devices as [(typeof devices)[0], (typeof devices)[0], (typeof devices)[0]]
    const vapid = generateVapidKeys()
    const withoutGonePhone = roster.members.filter((member) => member.id !== gonePhone.member.id)
    const content: PushSectionContent = {
      v: 1,
      vapid,
      subject: 'mailto:me@example.org',
      subscriptions: [
        { device: phone.member.id, subscription: browserSubscription(1) },
        { device: gonePhone.member.id, subscription: browserSubscription(2) },
      ],
    }
    const push = await sealPushSection(withoutGonePhone, content)
    const signed = await renewRoster(root, roster, { now: NOW, members: withoutGonePhone, push })
    const next = await verified(root, signed)
    expect(next.push?.vapidPublic).toBe(vapid.publicKey)
    for (const sender of [agent, desk]) {
      const opened = await openPushSection(sender, next)
      expect(opened?.vapid).toEqual(vapid)
      expect(opened?.subscriptions.map((entry) => entry.device)).toEqual([phone.member.id])
    }
    expect(await codeOf(openPushSection(phone, next))).toBe('PUSH_SECTION_OPEN')
    // The private key is nowhere in the signed bytes in the clear.
    expect(new TextDecoder().decode(signed.bytes)).not.toContain(vapid.privateKey)
  })

  it('a renewal keeps the section; a membership change without a new one drops it', async () => {
    const { root, agent, roster } = await makeInbox(2)
    const push = await sealPushSection(roster.members, {
      v: 1,
      vapid: generateVapidKeys(),
      subject: 'mailto:me@example.org',
      subscriptions: [],
    })
    const withPush = await verified(root, await renewRoster(root, roster, { now: NOW, push }))
    const renewed = await verified(root, await renewRoster(root, withPush, { now: NOW }))
    expect(renewed.push).toEqual(push)
    const newAgent = await makeMember('second agent', 'agent')
    const changed = await verified(
      root,
      await renewRoster(root, withPush, { now: NOW, members: [...withPush.members, newAgent.member] }),
    )
    expect(changed.push).toBeUndefined()
    expect(await openPushSection(agent, changed)).toBeUndefined()
  })
})

describe('phone subscription record', () => {
  it('the desktop opens what the phone sealed, at the phone’s own key', async () => {
    const { devices, roster } = await makeInbox(2)
    const [desk, phone] = devices as [(typeof devices)[0], (typeof devices)[0]]
    const record = await sealSubscription(phone, roster, browserSubscription(7), NOW)
    const opened = await openSubscription(desk, roster, subscriptionKey(phone.member.id), record)
    expect(opened).toEqual({
      device: phone.member.id,
      created: NOW,
      subscription: { endpoint: 'https://push.example/send/7', keys: browserSubscription(7).keys },
    })
    // The endpoint is sealed: the relay never sees it.
    expect(new TextDecoder().decode(record)).not.toContain('push.example')
  })

  it('refuses a record moved to another device’s key, one from a removed device, and a forged one', async () => {
    const { root, devices, roster } = await makeInbox(3)
    const [desk, phone, other] = devices as [(typeof devices)[0], (typeof devices)[0], (typeof devices)[0]]
    const record = await sealSubscription(phone, roster, browserSubscription(1), NOW)
    expect(await codeOf(openSubscription(desk, roster, subscriptionKey(other.member.id), record))).toBe(
      'PUSH_SUBSCRIPTION_SIGNATURE',
    )
    const removed: Roster = await verified(
      root,
      await signRoster(root, {
        version: 2,
        members: roster.members.filter((member) => member.id !== phone.member.id),
        now: NOW,
      }),
    )
    expect(await codeOf(openSubscription(desk, removed, subscriptionKey(phone.member.id), record))).toBe(
      'PUSH_SUBSCRIPTION_SIGNATURE',
    )
    const forger = await makeMember('forger', 'device')
    const forged = await sealSubscription(
      { ...forger, member: { ...forger.member, id: phone.member.id } },
      roster,
      browserSubscription(9),
      NOW,
    )
    expect(await codeOf(openSubscription(desk, roster, subscriptionKey(phone.member.id), forged))).toBe(
      'PUSH_SUBSCRIPTION_SIGNATURE',
    )
  })

  it('refuses to seal what is not a push subscription, with the reason', async () => {
    const { devices, roster } = await makeInbox(2)
    const phone = devices[1]!
    for (const bad of [
      { ...browserSubscription(1), endpoint: 'http://push.example/x' },
      { ...browserSubscription(1), keys: { p256dh: 'AAAA', auth: browserSubscription(1).keys.auth } },
      null,
    ])
      expect(await codeOf(sealSubscription(phone, roster, bad, NOW))).toBe('PUSH_SUBSCRIPTION_INVALID')
  })
})
