// What the round trip's shortcuts must not weaken (docs/performance.md, "The relay"): a roster record met
// again is not verified twice, yet expiry and rollback are still refused and a changed record is verified
// in full; a device removed while an ask waits cannot answer it once the agent reads the new roster; the
// agent's receipt, written after its answer went back, still lands before its link closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  encodeRosterRecord,
  generateMemberIdentity,
  generateRootIdentity,
  loadRootKeys,
  signRoster,
  type Roster,
} from '../../../../relay/crypto'
import type { RelayDesk } from '../../../../relay/exchange'
import { RemoteAsker, type RemoteAsk, type RemoteAskEvent } from '../../../../relay/exchange'
import { inboxKey } from '../../../../relay/exchange/inbox-keys'
import { openBucket, readEntry } from '../../../../relay/exchange/relay-kv'
import { RosterPin } from '../../../../relay/exchange/roster-source'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { nextEvent, startRelayWorld, startWorldDesk, type RelayWorld } from './relay-world'

const QUESTIONS = [{ id: 'go', question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe('RosterPin: the same record met again', () => {
  async function signed(version: number, now: number): Promise<{ record: Uint8Array; rootPublicKey: string }> {
    const device = await generateMemberIdentity('laptop', 'device')
    const root = await generateRootIdentity()
    const roster = await signRoster(await loadRootKeys(root.secret), { version, members: [device.member], now })
    return { record: encodeRosterRecord(roster), rootPublicKey: root.publicKey }
  }

  it('is the roster accepted before, told once, and still refused once it has expired', async () => {
    let now = Date.now()
    const { record, rootPublicKey } = await signed(3, now)
    const accepted: Roster[] = []
    const pin = new RosterPin(rootPublicKey, { now: () => now, onAccepted: (roster) => accepted.push(roster) })
    const first = await pin.accept(record)
    expect(await pin.accept(record.slice())).toBe(first)
    expect(accepted).toEqual([first])
    now = first.expiresAt
    await expect(pin.accept(record)).rejects.toMatchObject({
      code: 'ROSTER_EXPIRED',
      message: 'ROSTER_EXPIRED: the roster has expired; start the desktop companion so it renews the roster',
    })
  })

  it('verifies a changed record in full: one flipped bit is refused, and the record before it still stands', async () => {
    const { record, rootPublicKey } = await signed(2, Date.now())
    const pin = new RosterPin(rootPublicKey)
    const first = await pin.accept(record)
    const text = new TextDecoder().decode(record)
    // A different signature character: the same length, the same roster bytes, a signature that fails.
    const at = text.indexOf('"signature":"') + 13
    const flipped = new TextEncoder().encode(`${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`)
    await expect(pin.accept(flipped)).rejects.toMatchObject({ code: 'ROSTER_SIGNATURE' })
    expect(pin.current).toBe(first)
    expect(await pin.accept(record)).toBe(first)
  })
})

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the round-trip shortcut tests against nats-server: ${skip}`)

describe.skipIf(skip)('round-trip shortcuts against a real nats-server', () => {
  let world: RelayWorld
  const desks: RelayDesk[] = []
  const desk = (name: string): Promise<RelayDesk> => startWorldDesk(world, name, desks)
  const added = (d: RelayDesk): Promise<RemoteAsk> => nextEvent<RemoteAsk>((l) => d.onAdded(l))

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['laptop', 'phone'], agents: ['devbox'] })
  }, 60_000)
  afterAll(async () => {
    for (const d of desks) d.close()
    await world?.close()
  })

  it('a device removed while an ask waits is refused once the agent reads the new roster; the re-ask goes to the devices left', async () => {
    const laptop = await desk('laptop')
    const phone = await desk('phone')
    const agent = new RemoteAsker({
      link: await world.link('devbox'),
      agent: world.members.get('devbox')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    const events: RemoteAskEvent[] = []
    const onPhone = added(phone)
    const onLaptop = added(laptop)
    // The agent has read (and holds) roster 1 with both devices when the question is written.
    const answer = agent.ask(QUESTIONS, { onEvent: (e) => events.push(e) })
    const ask = await onPhone
    await onLaptop
    expect(agent.rosterVersion).toBe(1)
    await world.publishRoster(2, ['phone'])
    const reasked = added(laptop)
    // The phone still has the question and its credential: its answer takes the key, and is refused.
    expect(await phone.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    const next = await reasked
    expect(next.previousAskId).toBe(ask.askId)
    expect(agent.rosterVersion).toBe(2)
    expect(await laptop.answer(next.key, [{ id: 'go', selected: ['No'] }])).toEqual({ won: true })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
    expect(events.map((e) => (e.type === 'answer-refused' ? `${e.type}:${e.code}` : e.type))).toEqual([
      'asked',
      'answer-refused:NOT_A_MEMBER',
      'asked',
      'answered',
    ])
    await world.publishRoster(3)
  }, 60_000)

  it('the receipt the agent writes after its answer went back is stored by the time its link has closed', async () => {
    const laptop = desks[0] ?? (await desk('laptop'))
    const link = await world.link('devbox')
    const agent = new RemoteAsker({
      link,
      agent: world.members.get('devbox')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    const seen = added(laptop)
    const answer = agent.ask(QUESTIONS)
    const ask = await seen
    expect(await laptop.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
    await link.close()
    const reader = await world.link('laptop')
    const receipt = await readEntry(await openBucket(reader.nc, 'inbox'), inboxKey('r', 'devbox', ask.askId))
    expect(receipt).toBeDefined()
  }, 60_000)
})
