// Turning on notifications against a real relay: the phone takes the VAPID key from the newest roster it
// can trust (the relay's, when it verifies and is not older than what the phone has seen, else its own
// stored one), so a key a desktop added after the page loaded is used, and an operator who serves an old
// roster or one signed by another root gets nothing from it. The browser's side is a stand-in push manager.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PhoneRecord } from '../../../phone/src/home/phone-record'
import { subscribeToPush, type PushHost } from '../../../phone/src/shell/push-subscribe'
import { pushSetupCode } from './push-setup-code'
import {
  generateRootIdentity,
  loadRootKeys,
  parseRosterRecord,
  signRoster,
  encodeRosterRecord,
  toBase64url,
  verifyRoster,
} from '../../../relay/crypto'
import { ROSTER_KEY } from '../../../relay/exchange'
import { BUCKETS } from '../../../relay/nats/templates'
import { connectRelay, getEntry, putEntry, type RelayConnect } from '../../../relay/pairing/relay-link'
import { sealPushSection } from '../../../relay/push/section'
import { openSubscription, subscriptionKey } from '../../../relay/push/subscription'
import { generateVapidKeys } from '../../../relay/push/vapid'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { phoneRecordOf } from '../../helpers/phone-record'
import { startRelayWorld, type RelayWorld, type WorldPush } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone's push subscription test: ${skip}`)

/** As the phone dials, on loopback (Debian's nats-server is older than the floor for other hosts). */
const connect: RelayConnect = (url, creds, name) => connectRelay(url, creds, name, { allowOutdatedLoopback: true })

/** A granted permission and a push manager that records the key it was asked to subscribe with. */
function grantingHost(): PushHost & { keys: string[] } {
  const keys: string[] = []
  const pushManager = {
    subscribe: ({ applicationServerKey }: { applicationServerKey: Uint8Array<ArrayBuffer> }) => {
      keys.push(toBase64url(applicationServerKey))
      return Promise.resolve({
        toJSON: () => ({
          endpoint: 'https://push.example/send/abc',
          keys: { p256dh: toBase64url(new Uint8Array(65).fill(4)), auth: toBase64url(new Uint8Array(16).fill(1)) },
        }),
      })
    },
  }
  return {
    keys,
    requestPermission: () => Promise.resolve('granted'),
    registration: () => Promise.resolve({ pushManager } as unknown as ServiceWorkerRegistration),
  }
}

describe.skipIf(skip)('turning on notifications takes the VAPID key from the newest roster it can trust', () => {
  let world: RelayWorld
  const vapid = generateVapidKeys()
  const withVapid: WorldPush = (members) =>
    sealPushSection(members, { v: 1, vapid, subject: 'mailto:test@example.org', subscriptions: [] })

  /** The relay's `roster.current` as the operator can read and write it. */
  async function publishedRoster(): Promise<Uint8Array> {
    const admin = await world.admin()
    const entry = await getEntry(admin, BUCKETS.roster, ROSTER_KEY)
    if (!entry) throw new Error('the relay has no roster')
    return entry.value
  }
  async function serveRoster(value: Uint8Array): Promise<void> {
    await putEntry(await world.admin(), BUCKETS.roster, ROSTER_KEY, value)
  }
  async function storedSubscription(): Promise<Uint8Array | undefined> {
    const phoneId = world.members.get('phone')!.keys.member.id
    return (await getEntry(await world.admin(), BUCKETS.roster, subscriptionKey(phoneId)))?.value
  }

  /** A paired phone's record: its credential is named by its member id, as pairing names it. */
  let phoneCreds: string
  const pairedPhone = (url = world.url): PhoneRecord => ({
    ...phoneRecordOf(world, url),
    creds: phoneCreds,
    natsName: world.members.get('phone')!.keys.member.id,
  })

  beforeAll(async () => {
    world = await startRelayWorld({ desktops: ['desk'], devices: ['phone'], agents: [] })
    phoneCreds = await world.mint('device', world.members.get('phone')!.keys.member.id, 600)
  }, 60_000)
  afterAll(async () => {
    await world?.close()
  })

  it('a roster without a VAPID key: nothing is subscribed (PUSH_NOT_READY)', async () => {
    const host = grantingHost()
    const record = pairedPhone()
    expect(await pushSetupCode(subscribeToPush(record, connect, host))).toBe('PUSH_NOT_READY')
    expect(host.keys).toEqual([])
    expect(await storedSubscription()).toBeUndefined()
  })

  it('a key a desktop added after the page loaded is taken from the relay, and the desktop opens the subscription', async () => {
    await world.publishRoster(2, [], withVapid)
    const host = grantingHost()
    // The record the page loaded with: its stored roster (a placeholder here) predates the VAPID key.
    await subscribeToPush(pairedPhone(), connect, host)
    expect(host.keys).toEqual([vapid.publicKey])
    const signed = parseRosterRecord(await publishedRoster())!
    const roster = await verifyRoster(signed.bytes, signed.signature, world.rootPublicKey, {
      highestSeenVersion: 0,
      now: Date.now(),
    })
    const desk = world.members.get('desk')!.keys
    const phoneId = world.members.get('phone')!.keys.member.id
    const opened = await openSubscription(desk, roster, subscriptionKey(phoneId), (await storedSubscription())!)
    expect(opened.subscription.endpoint).toBe('https://push.example/send/abc')
  })

  it('an older roster or one signed by another root, served by the operator, is passed over for the stored one', async () => {
    const current = await publishedRoster()
    const signed = parseRosterRecord(current)!
    // The phone stored version 2 (with the VAPID key) at its last dial.
    const record: PhoneRecord = {
      ...pairedPhone(),
      roster: { bytes: toBase64url(signed.bytes), signature: toBase64url(signed.signature) },
      highestRosterVersion: 2,
    }
    const otherVapid = generateVapidKeys()
    const stranger = await generateRootIdentity()
    const forged = await signRoster(await loadRootKeys(stranger.secret), {
      version: 9,
      members: world.roster.members,
      now: Date.now(),
      push: await sealPushSection(world.roster.members, {
        v: 1,
        vapid: otherVapid,
        subject: 'mailto:operator@example.org',
        subscriptions: [],
      }),
    })
    await world.publishRoster(1)
    const rolledBack = await publishedRoster()
    for (const served of [rolledBack, encodeRosterRecord(forged)]) {
      await serveRoster(served)
      const host = grantingHost()
      await subscribeToPush(record, connect, host)
      expect(host.keys).toEqual([vapid.publicKey])
    }
    await serveRoster(current)
  })

  it('a relay out of reach: PUSH_UNREACHABLE, and nothing is subscribed', async () => {
    const host = grantingHost()
    const record = pairedPhone('nats://127.0.0.1:1')
    expect(await pushSetupCode(subscribeToPush(record, connect, host))).toBe('PUSH_UNREACHABLE')
    expect(host.keys).toEqual([])
  })
})
