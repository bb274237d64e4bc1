// An asker follows the roster for its link's life (relay/exchange/roster-follower.ts), against a real
// nats-server: a later ask reads no roster, a roster change reaches the asker before its next ask, and a
// roster the relay rolled back is refused as a read would refuse it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  RelayDesk,
  RemoteAsker,
  type DeskRefusal,
  type RelayLink,
  type RemoteAsk,
  type RemoteAskEvent,
} from '../../../../relay/exchange'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { countRequests, startRelayWorld, startWorldDesk, until, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay roster-follower tests: ${skip}`)

const QUESTIONS = [{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe.skipIf(skip)('roster follower: an asker holds the newest roster between asks (real nats-server)', () => {
  let world: RelayWorld
  let laptop: RelayDesk
  const tabletRefusals: DeskRefusal[] = []
  const desks: RelayDesk[] = []
  let link: RelayLink
  let agent: RemoteAsker

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['laptop', 'tablet'], agents: ['devbox'] })
    laptop = await startWorldDesk(world, 'laptop', desks)
    const tablet = await RelayDesk.start({
      link: await world.link('tablet'),
      device: world.members.get('tablet')!.keys,
      rootPublicKey: world.rootPublicKey,
      onRefused: (refusal) => tabletRefusals.push(refusal),
    })
    desks.push(tablet)
    link = await world.link('devbox')
    agent = new RemoteAsker({ link, agent: world.members.get('devbox')!.keys, rootPublicKey: world.rootPublicKey })
  }, 60_000)
  afterAll(async () => {
    for (const d of desks) d.close()
    await link?.close()
    await world?.close()
  })

  /** Asks once and answers from the laptop; resolves with the ask as the laptop listed it. */
  const askAndAnswer = async (): Promise<RemoteAsk> => {
    let askId: string | undefined
    const answer = agent.ask(QUESTIONS, {
      onEvent: (e: RemoteAskEvent) => void (e.type === 'asked' && (askId = e.askId)),
    })
    await until(() => laptop.pending().some((ask) => ask.askId === askId), 'the ask on the laptop')
    const listed = laptop.pending().find((ask) => ask.askId === askId)!
    expect(await laptop.answer(listed.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
    return listed
  }

  it('the first ask reads the roster; the next ones seal to the followed roster without reading it', async () => {
    const reads = countRequests(link.nc, (subject) => subject.startsWith('$JS.API.DIRECT.GET.KV_roster.'))
    const first = askAndAnswer()
    await until(() => reads.count() >= 1, 'the first ask to read the roster')
    await first
    // Taking an answer reads the newest roster (a removed device must not answer): count from here.
    const before = reads.count()
    let askId: string | undefined
    const second = agent.ask(QUESTIONS, { onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)) })
    await until(() => laptop.pending().some((ask) => ask.askId === askId), 'the second ask on the laptop')
    expect(reads.count()).toBe(before)
    const listed = laptop.pending().find((ask) => ask.askId === askId)!
    expect(await laptop.answer(listed.key, [{ id: 'go', selected: ['No'] }])).toEqual({ won: true })
    expect(await second).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
  }, 60_000)

  it('a roster published between asks reaches the asker by itself; the next ask is sealed to it', async () => {
    await world.publishRoster(2, ['tablet'])
    await until(() => agent.rosterVersion === 2, 'the asker to follow roster version 2')
    const listed = await askAndAnswer()
    // The tablet, no longer in the roster, was not sealed to: it could not open the question.
    await until(
      () => tabletRefusals.some((refusal) => refusal.key === listed.key),
      'the tablet to refuse the question sealed without it',
    )
    expect(tabletRefusals.find((refusal) => refusal.key === listed.key)?.code).toBe('QUESTION_NOT_RECIPIENT')
  }, 60_000)

  it('a roster the relay rolls back is refused at the next ask, as a read refuses it (ROSTER_ROLLBACK)', async () => {
    await world.publishRoster(1)
    // An ask begun before the watch brought the old record is sealed to version 2 (no harm: that is the
    // newest the asker has seen) and times out here; once it came, every ask is refused.
    let refusal: unknown
    for (let attempt = 0; attempt < 20 && refusal === undefined; attempt++) {
      refusal = await agent.ask(QUESTIONS, { timeoutMs: 500 }).then(
        () => undefined,
        (error: unknown) => ((error as { code?: string }).code === 'ASK_TIMEOUT' ? undefined : error),
      )
    }
    expect(refusal).toMatchObject({ code: 'ROSTER_ROLLBACK' })
    expect(agent.rosterVersion).toBe(2)
  }, 60_000)
})
