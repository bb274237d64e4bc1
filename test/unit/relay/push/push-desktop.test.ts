// The desktop's side of Web Push against a real relay: it makes the VAPID key (0600) on first need, reads
// the phones' subscription records from `roster` `sub.<device>` (a device may write only its own), seals
// them into the roster's push section, leaves out what a receipt reported gone and what a removed device
// wrote, and re-signs only when the section changed.
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../../../core/private-files'
import { generateRootIdentity, loadRootKeys, signRoster, type Member, type Roster } from '../../../../relay/crypto'
import { RelayLink } from '../../../../relay/exchange'
import { nodeConnect } from '../../../../relay/exchange/node-connect'
import { openBucket } from '../../../../relay/exchange/relay-kv'
import { pushSectionUpdate } from '../../../../relay/home/push-roster'
import { RELAY_FILES } from '../../../../relay/home/state'
import { BUCKETS } from '../../../../relay/nats/templates'
import { endpointHash } from '../../../../relay/push/notifier'
import { openPushSection } from '../../../../relay/push/section'
import { sealSubscription, subscriptionKey } from '../../../../relay/push/subscription'
import { VAPID_FILE } from '../../../../relay/push/vapid'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { startRelayWorld, type RelayWorld } from '../exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the desktop push test: ${skip}`)

const subscriptionOf = (n: number) => ({
  endpoint: `https://push.example/send/${n}`,
  keys: { p256dh: Buffer.alloc(65, n).toString('base64url'), auth: Buffer.alloc(16, n).toString('base64url') },
})

describe.skipIf(skip)('the desktop seals the phones’ subscriptions into the roster', () => {
  let world: RelayWorld
  let home: string
  const links: RelayLink[] = []
  const root = generateRootIdentity().then((identity) => loadRootKeys(identity.secret))

  /** A roster of `members`, version `version`, with `push` (signed by a fresh root: the section does not care). */
  const rosterOf = async (members: Member[], version: number, push?: Roster['push']): Promise<Roster> =>
    (await signRoster(await root, { version, members, now: Date.now(), push })).roster

  beforeAll(async () => {
    world = await startRelayWorld({ desktops: ['desk'], devices: ['phone', 'tablet'], agents: ['ci-nightly'] })
    home = await mkdtemp(join(tmpdir(), 'push-desktop-'))
    await writeFileAtomic(join(home, RELAY_FILES.desktop), JSON.stringify(world.members.get('desk')!.secret))
  }, 60_000)
  afterAll(async () => {
    for (const link of links) await link.close().catch(() => undefined)
    await world?.close()
    if (home) await rm(home, { recursive: true, force: true })
  })

  it('subscription arrives → section; unchanged → no re-sign; gone or removed → dropped', async () => {
    const phone = world.members.get('phone')!.keys
    const tablet = world.members.get('tablet')!.keys
    const agent = world.members.get('ci-nightly')!.keys
    // The phone writes its record at its own key (a device's NATS name is its member id, as the desktop
    // mints it); the tablet may not write the phone's.
    const phoneLink = await RelayLink.open({
      connect: nodeConnect,
      url: world.url,
      creds: await world.mint('device', phone.member.id, 600),
      name: phone.member.id,
      allowOutdatedLoopback: true,
      reconnectWaitMs: 100,
      reachTimeoutMs: 10_000,
    })
    links.push(phoneLink)
    const phoneKv = await openBucket(phoneLink.nc, BUCKETS.roster)
    await phoneKv.put(
      subscriptionKey(phone.member.id),
      await sealSubscription(phone, world.roster, subscriptionOf(1), 1),
    )
    const tabletKv = await openBucket((await world.link('tablet')).nc, BUCKETS.roster)
    const forged = await sealSubscription(tablet, world.roster, subscriptionOf(2), 1)
    await expect(tabletKv.put(subscriptionKey(phone.member.id), forged)).rejects.toThrow(/permission|timeout/i)

    const desk = await world.link('desk')
    const first = await pushSectionUpdate(home, desk.nc, world.roster)
    expect(first).toMatchObject({ changed: true, refused: [] })
    expect((await stat(join(home, VAPID_FILE))).mode & 0o777).toBe(0o600)
    const withPush = await rosterOf(world.roster.members, 2, first.push)
    expect((await openPushSection(agent, withPush))?.subscriptions).toEqual([
      { device: phone.member.id, subscription: subscriptionOf(1) },
    ])
    // Nothing new: the roster is not re-signed.
    expect(await pushSectionUpdate(home, desk.nc, withPush)).toMatchObject({ changed: false, push: withPush.push })

    // A receipt reported the phone's endpoint gone (410): the next section leaves it out, and keeps doing so.
    const gone = [{ device: phone.member.id, endpoint: await endpointHash(subscriptionOf(1).endpoint) }]
    const afterGone = await pushSectionUpdate(home, desk.nc, withPush, gone)
    expect(afterGone.changed).toBe(true)
    const droppedRoster = await rosterOf(world.roster.members, 3, afterGone.push)
    expect((await openPushSection(agent, droppedRoster))?.subscriptions).toEqual([])
    expect((await pushSectionUpdate(home, desk.nc, droppedRoster)).changed).toBe(false)

    // The phone subscribes again (a new endpoint): back in. Then it is removed from the roster: out.
    await phoneKv.put(
      subscriptionKey(phone.member.id),
      await sealSubscription(phone, world.roster, subscriptionOf(3), 2),
    )
    const again = await pushSectionUpdate(home, desk.nc, droppedRoster)
    expect((await openPushSection(agent, await rosterOf(world.roster.members, 4, again.push)))?.subscriptions).toEqual([
      { device: phone.member.id, subscription: subscriptionOf(3) },
    ])
    const withoutPhone = world.roster.members.filter((member) => member.id !== phone.member.id)
    const removed = await pushSectionUpdate(home, desk.nc, await rosterOf(withoutPhone, 5))
    expect((await openPushSection(agent, await rosterOf(withoutPhone, 6, removed.push)))?.subscriptions).toEqual([])
  })
})
