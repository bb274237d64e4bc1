// Presence: a desk's clock per agent, signed presence values (only an agent of the roster, for its own key,
// at about the time stored, counts), and the lapse through a real relay with the agent's link cut, while the
// relay's operator writes forged values.
import { jetstream } from '@nats-io/jetstream'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { signPresence, type MemberKeys } from '../../../../relay/crypto'
import { utf8 } from '../../../../relay/crypto/encoding'
import { PRESENCE_BUCKET } from '../../../../relay/exchange/presence'
import {
  PresenceTracker,
  RelayDesk,
  RemoteAsker,
  type PresenceChange,
  type RemoteAsk,
} from '../../../../relay/exchange'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { startCuttableProxy, type CuttableProxy } from './cuttable-proxy'
import { makeInbox, makeMember, NOW } from '../crypto-fixtures'
import { nextEvent, startRelayWorld, until, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay presence tests: ${skip}`)

const QUESTIONS = [{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe('PresenceTracker (a desk’s clock per agent)', () => {
  afterEach(() => void vi.useRealTimers())

  it('marks an agent unreachable since its last contact once the lapse passes, and clears it at the next contact', () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const changes: PresenceChange[] = []
    const tracker = new PresenceTracker({ lapseMs: 90_000, onChange: (c) => changes.push(c) })
    tracker.contact('devbox', 1_000_000)
    vi.advanceTimersByTime(30_000)
    tracker.contact('devbox', 1_030_000)
    vi.advanceTimersByTime(89_999)
    expect(changes).toEqual([])
    vi.advanceTimersByTime(1)
    expect(changes).toEqual([{ agent: 'devbox', unreachableSince: 1_030_000 }])
    expect(tracker.unreachableSince('devbox')).toBe(1_030_000)
    // Three minutes cut off: still the one mark, the since unchanged.
    vi.advanceTimersByTime(90_000)
    expect(changes).toHaveLength(1)
    tracker.contact('devbox', Date.now())
    expect(changes.at(-1)).toEqual({ agent: 'devbox' })
    expect(tracker.unreachableSince('devbox')).toBeUndefined()
    tracker.close()
  })

  it('a contact already older than the lapse (a desk starting late) marks at once; a time from a fast clock counts as now', () => {
    vi.useFakeTimers({ now: 5_000_000 })
    const changes: PresenceChange[] = []
    const tracker = new PresenceTracker({ lapseMs: 90_000, onChange: (c) => changes.push(c) })
    tracker.contact('ci', 5_000_000 - 120_000)
    expect(changes).toEqual([{ agent: 'ci', unreachableSince: 5_000_000 - 120_000 }])
    tracker.contact('fast', 5_000_000 + 60_000)
    vi.advanceTimersByTime(89_999)
    expect(tracker.unreachableSince('fast')).toBeUndefined()
    vi.advanceTimersByTime(1)
    expect(tracker.unreachableSince('fast')).toBe(5_000_000)
    tracker.close()
  })
})

describe('signed presence values (PresenceTracker.signedContact)', () => {
  it('counts only a value signed by the agent of the roster for its own key, at about the stored time', async () => {
    const { agent, devices, roster } = await makeInbox(2)
    const [desktop, phone] = devices as [MemberKeys, MemberKeys]
    const other = await makeMember('other-agent', 'agent')
    const key = agent.member.name
    const changes: PresenceChange[] = []
    const tracker = new PresenceTracker({ lapseMs: 90_000, now: () => NOW, onChange: (c) => changes.push(c) })
    const entry = (value: Uint8Array, created = NOW) => ({ key, value, created: new Date(created) })
    // A genuine value stored two minutes ago: the agent is marked unreachable since then, at once.
    const old = NOW - 120_000
    await tracker.signedContact(entry(await signPresence(agent, { key, at: old }), old), roster)
    expect(changes).toEqual([{ agent: key, unreachableSince: old }])

    // Each of these, stored now, would clear the mark if it counted.
    const listedOther = { ...roster, members: [...roster.members, other.member] }
    const forged: Array<[string, Uint8Array, typeof roster]> = [
      ['unsigned, as before', utf8(JSON.stringify({ v: 1 })), roster],
      ['signed by an agent the roster does not list', await signPresence(other, { key, at: NOW }), roster],
      ["another listed agent's, for this key", await signPresence(other, { key, at: NOW }), listedOther],
      ["the agent's, for another key", await signPresence(agent, { key: 'other-agent', at: NOW }), roster],
      ['signed by a device, not an asker', await signPresence(phone, { key, at: NOW }), roster],
      ["the desktop's, for the agent's key", await signPresence(desktop, { key, at: NOW }), roster],
      ["the agent's old value put back by the relay", await signPresence(agent, { key, at: old }), roster],
    ]
    for (const [what, value, against] of forged) {
      await tracker.signedContact(entry(value), against)
      expect({ what, changes, since: tracker.unreachableSince(key) }).toEqual({
        what,
        changes: [{ agent: key, unreachableSince: old }],
        since: old,
      })
    }
    // Without a verified roster nothing counts; a fresh genuine value does.
    await tracker.signedContact(entry(await signPresence(agent, { key, at: NOW })), undefined)
    expect(tracker.unreachableSince(key)).toBe(old)
    await tracker.signedContact(entry(await signPresence(agent, { key, at: NOW - 5_000 })), roster)
    expect(changes.at(-1)).toEqual({ agent: key })
    expect(tracker.unreachableSince(key)).toBeUndefined()
    // The desktop's own presence, for the local asks it mirrors (its key is its member id), counts too.
    const desktopKey = desktop.member.id
    await tracker.signedContact(
      { key: desktopKey, value: await signPresence(desktop, { key: desktopKey, at: old }), created: new Date(old) },
      roster,
    )
    expect(tracker.unreachableSince(desktopKey)).toBe(old)
    tracker.close()
  })
})

describe.skipIf(skip)('presence through the relay (real nats-server, the agent’s link cut)', () => {
  let world: RelayWorld
  let proxy: CuttableProxy
  let desk: RelayDesk | undefined
  // Scaled down: the agent refreshes every 250 ms and a desk marks it after 3 s without contact, as the
  // product does every 30 s and after 90 s (the bucket's max_age); 12 refreshes per lapse leave room
  // for a loaded machine.
  const REFRESH_MS = 250
  const LAPSE_MS = 3_000

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['laptop'], agents: ['devbox', 'ci'] })
    proxy = await startCuttableProxy(world.port)
  }, 60_000)
  afterAll(async () => {
    desk?.close()
    await proxy?.close()
    await world?.close()
  })

  it('a cut of twice the lapse (3 minutes against 90 s, scaled down) marks the ask "agent unreachable", keeps it answerable, and the answer reaches the agent once the link returns', async () => {
    const refused: string[] = []
    desk = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
      presenceLapseMs: LAPSE_MS,
      onRefused: (refusal) => refused.push(refusal.key),
    })
    const agentLink = await world.link('devbox', proxy.url)
    const agent = new RemoteAsker({
      link: agentLink,
      agent: world.members.get('devbox')!.keys,
      rootPublicKey: world.rootPublicKey,
      presenceRefreshMs: REFRESH_MS,
    })
    const seen = nextEvent<RemoteAsk>((l) => desk!.onAdded(l))
    const answer = agent.ask(QUESTIONS)
    const ask = await seen
    // Refreshes keep it reachable well past one lapse while the link is up.
    const upSince = Date.now()
    await until(() => Date.now() - upSince > 1.5 * LAPSE_MS, 'a lapse and a half with the link up')
    expect(desk.unreachableSince('devbox')).toBeUndefined()

    const lapsed = nextEvent<PresenceChange>(
      (l) => desk!.onPresence(l),
      (c) => c.agent === 'devbox' && c.unreachableSince !== undefined,
    )
    const cutAt = Date.now()
    proxy.cut()
    const mark = await lapsed
    // Its last contact: a refresh shortly before the cut (it was reachable just then).
    expect(mark.unreachableSince).toBeGreaterThan(cutAt - LAPSE_MS)
    expect(mark.unreachableSince).toBeLessThanOrEqual(cutAt + 1_000)
    await until(() => Date.now() - cutAt > 2 * LAPSE_MS, 'the cut to last twice the lapse')
    // Nothing settled it: still pending, still marked.
    expect(desk.pending().map((pending) => pending.key)).toEqual([ask.key])
    expect(desk.unreachableSince('devbox')).toBe(mark.unreachableSince)

    // The relay's operator writes values at the cut agent's key: unsigned, and signed by another agent.
    // None brings it back. Then a genuine value of "ci" (values are handled in order) shows they were seen.
    const admin = jetstream(await world.admin(), { checkAPI: false })
    const put = (key: string, value: Uint8Array) => admin.publish(`$KV.${PRESENCE_BUCKET}.${key}`, value)
    const ci = world.members.get('ci')!.keys
    const ciSeen = nextEvent<PresenceChange>(
      (l) => desk!.onPresence(l),
      (c) => c.agent === 'ci' && c.unreachableSince !== undefined,
    )
    // "ci" says it is there once, then lapses.
    await put('ci', await signPresence(ci, { key: 'ci', at: Date.now() }))
    await ciSeen
    const changesAfterForgery: PresenceChange[] = []
    const off = desk.onPresence((c) => changesAfterForgery.push(c))
    await put('devbox', utf8(JSON.stringify({ v: 1 })))
    await put('devbox', await signPresence(ci, { key: 'devbox', at: Date.now() }))
    // A "question" the operator writes at the cut agent's key is refused, and counts as no contact either.
    const forgedQuestion = `q.devbox.${'F'.repeat(22)}`
    await admin.publish(`$KV.inbox.${forgedQuestion}`, utf8('not a question'))
    await until(() => refused.includes(forgedQuestion), 'the forged question refused')
    const ciBack = nextEvent<PresenceChange>(
      (l) => desk!.onPresence(l),
      (c) => c.agent === 'ci' && c.unreachableSince === undefined,
    )
    await put('ci', await signPresence(ci, { key: 'ci', at: Date.now() }))
    await ciBack
    off()
    expect(changesAfterForgery).toEqual([{ agent: 'ci' }])
    expect(desk.unreachableSince('devbox')).toBe(mark.unreachableSince)

    const back = nextEvent<PresenceChange>(
      (l) => desk!.onPresence(l),
      (c) => c.agent === 'devbox' && c.unreachableSince === undefined,
    )
    proxy.restore()
    expect(await back).toEqual({ agent: 'devbox' })
    expect(await desk.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
  }, 60_000)
})
