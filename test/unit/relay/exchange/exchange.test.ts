import { jetstream } from '@nats-io/jetstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomToken, sealAnswer, sealQuestion, newReplyKey, type OpenedQuestion } from '../../../../relay/crypto'
import {
  openRemoteAsker,
  RelayDesk,
  RemoteAsker,
  type DeskRefusal,
  type RemoteAsk,
  type RemoteAskEvent,
  type RemoteAskSettled,
} from '../../../../relay/exchange'
import { inboxKey } from '../../../../relay/exchange/inbox-keys'
import { BUCKETS } from '../../../../relay/nats/templates'
import { isPermissionViolation, openBucket, readEntry } from '../../../../relay/exchange/relay-kv'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { nextEvent, startRelayWorld, until, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay/exchange tests: ${skip}`)

const QUESTIONS = [
  { id: 'db', question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] },
  { id: 'why', question: 'Anything to add?' },
]

describe.skipIf(skip)('relay exchange against a real nats-server (operator mode, scoped credentials)', () => {
  let world: RelayWorld
  const desks: RelayDesk[] = []

  const desk = async (name: string): Promise<RelayDesk> => {
    const member = world.members.get(name)!
    const started = await RelayDesk.start({
      link: await world.link(name),
      device: member.keys,
      rootPublicKey: world.rootPublicKey,
    })
    desks.push(started)
    return started
  }
  const asker = async (name: string): Promise<RemoteAsker> =>
    new RemoteAsker({
      link: await world.link(name),
      agent: world.members.get(name)!.keys,
      rootPublicKey: world.rootPublicKey,
    })
  const added = (d: RelayDesk, agent: string): Promise<RemoteAsk> =>
    nextEvent<RemoteAsk>(
      (l) => d.onAdded(l),
      (ask) => ask.agent.name === agent,
    )
  const settled = (d: RelayDesk, key: string): Promise<RemoteAskSettled> =>
    nextEvent<RemoteAskSettled>(
      (l) => d.onSettled(l),
      (s) => s.key === key,
    )

  beforeAll(async () => {
    world = await startRelayWorld({
      devices: ['laptop', 'phone', 'tablet'],
      agents: ['ci-nightly', 'devbox', 'forger'],
      outsiders: ['old-phone'],
    })
  }, 60_000)
  afterAll(async () => {
    for (const d of desks) d.close()
    await world?.close()
  })

  it('an agent asks, a desk answers, the agent gets the canonical answers and every desk the receipt', async () => {
    const laptop = await desk('laptop')
    const phone = await desk('phone')
    // As the CLI will: from the agent's relay file (URL, creds, stored keys, pinned root key).
    const member = world.members.get('ci-nightly')!
    const file = {
      url: world.url,
      creds: member.creds,
      agent: JSON.parse(JSON.stringify(member.secret)) as unknown,
      rootPublicKey: world.rootPublicKey,
    }
    const { asker: agent, link } = await openRemoteAsker(file, { allowOutdatedLoopback: true })
    const events: RemoteAskEvent[] = []
    const seenByLaptop = added(laptop, 'ci-nightly')
    const seenByPhone = added(phone, 'ci-nightly')
    const answer = agent.ask(QUESTIONS, { title: 'Nightly build', onEvent: (e) => events.push(e) })
    const ask = await seenByLaptop
    expect(ask).toMatchObject({
      agent: { name: 'ci-nightly', id: world.members.get('ci-nightly')!.keys.member.id },
      questions: QUESTIONS,
      title: 'Nightly build',
    })
    expect(ask.key).toBe(`q.ci-nightly.${ask.askId}`)
    expect((await seenByPhone).key).toBe(ask.key)
    const phoneSettled = settled(phone, ask.key)
    // Keys out of canonical order and an unused custom left out: the agent returns the canonical shape.
    expect(
      await laptop.answer(ask.key, [
        { selected: ['Postgres'], id: 'db' },
        { id: 'why', selected: [], custom: 'ship it' },
      ]),
    ).toEqual({ won: true })
    expect(JSON.stringify(await answer)).toBe(
      '{"answers":[{"id":"db","selected":["Postgres"]},{"id":"why","selected":[],"custom":"ship it"}]}',
    )
    expect(await phoneSettled).toEqual({
      key: ask.key,
      outcome: 'delivered',
      winner: world.members.get('laptop')!.keys.member,
    })
    await until(() => laptop.pending().length === 0 && phone.pending().length === 0, 'both pending lists to empty')
    expect(events.map((e) => e.type)).toEqual(['asked', 'answered'])
    await link.close()
  }, 30_000)

  it('a desk that starts after an ask was settled never shows it; it shows the asks still open', async () => {
    const laptop = desks[0]!
    const agent = await asker('ci-nightly')
    const seen = added(laptop, 'ci-nightly')
    const first = agent.ask(QUESTIONS)
    const done = await seen
    // The agent's receipt follows its answer; the late desk starts once it is stored.
    const receiptStored = settled(laptop, done.key)
    expect(
      await laptop.answer(done.key, [
        { id: 'db', selected: [] },
        { id: 'why', selected: [] },
      ]),
    ).toEqual({ won: true })
    await first
    await receiptStored
    const late = await desk('tablet')
    const shown: string[] = []
    const settledKeys: string[] = []
    late.onAdded((ask) => shown.push(ask.key))
    late.onSettled((s) => settledKeys.push(s.key))
    const stop = new AbortController()
    const open = added(late, 'ci-nightly')
    const second = agent.ask(QUESTIONS, { signal: stop.signal })
    const still = await open
    // Questions are taken in stream order, so the settled one was already passed over by now.
    expect(shown).toEqual([still.key])
    expect(late.pending().map((ask) => ask.key)).toEqual([still.key])
    stop.abort()
    await expect(second).rejects.toMatchObject({ code: 'ASK_WITHDRAWN' })
    expect(settledKeys).not.toContain(done.key)
  }, 30_000)

  it('three devices answer at once: exactly one wins, the others are told who, the agent takes the winner', async () => {
    const trio = [desks[0]!, desks[1]!, await desk('tablet')]
    const agent = await asker('devbox')
    const seen = trio.map((d) => added(d, 'devbox'))
    const answer = agent.ask([
      { id: 'go', question: 'Deploy?', options: [{ label: 'laptop' }, { label: 'phone' }, { label: 'tablet' }] },
    ])
    const asks = await Promise.all(seen)
    const labels = ['laptop', 'phone', 'tablet']
    const results = await Promise.all(
      trio.map((d, i) => d.answer(asks[i]!.key, [{ id: 'go', selected: [labels[i]!] }])),
    )
    const winners = results.flatMap((r, i) => (r.won ? [labels[i]!] : []))
    expect(winners).toHaveLength(1)
    const winner = world.members.get(winners[0]!)!.keys.member
    for (const r of results) if (!r.won) expect(r).toEqual({ won: false, winner })
    expect(await answer).toEqual({ answers: [{ id: 'go', selected: [winners[0]] }] })
  }, 30_000)

  it('a password question: three devices answer at once in the secret bucket, one wins, the others read who; inbox holds none', async () => {
    const trio = desks.slice(0, 3)
    const agent = await asker('devbox')
    const seen = trio.map((d) => added(d, 'devbox'))
    const answer = agent.ask([{ id: 'pw', question: 'Passphrase?', secret: true } as never])
    const asks = await Promise.all(seen)
    const labels = ['laptop', 'phone', 'tablet']
    const results = await Promise.all(
      trio.map((d, i) => d.answer(asks[i]!.key, [{ id: 'pw', selected: [], custom: `pw-of-${labels[i]}` }])),
    )
    const winners = results.flatMap((r, i) => (r.won ? [labels[i]!] : []))
    expect(winners).toHaveLength(1)
    const winner = world.members.get(winners[0]!)!.keys.member
    for (const r of results) if (!r.won) expect(r).toEqual({ won: false, winner })
    expect(await answer).toEqual({ answers: [{ id: 'pw', selected: [], custom: `pw-of-${winners[0]}` }] })
    const link = await world.link('laptop')
    const answerKey = asks[0]!.key.replace(/^q\./, 'a.')
    expect(await readEntry(await openBucket(link.nc, BUCKETS.inbox), answerKey)).toBeUndefined()
    const stored = await readEntry(await openBucket(link.nc, BUCKETS.secret), answerKey)
    expect(Buffer.from(stored!.value).includes(`pw-of-${winners[0]}`)).toBe(false)
  }, 30_000)

  it('an answer from a removed device is refused; the agent asks again and the right device wins', async () => {
    const laptop = desks[0]!
    const outsider = await world.link('old-phone')
    const outsiderKeys = world.members.get('old-phone')!.keys
    const agent = await asker('ci-nightly')
    const events: RemoteAskEvent[] = []
    const first = added(laptop, 'ci-nightly')
    const answer = agent.ask(QUESTIONS, { onEvent: (e) => events.push(e) })
    const ask = await first
    const reasked = settled(laptop, ask.key)
    const second = added(laptop, 'ci-nightly')
    // The removed device still holds a relay credential and reads the question's plaintext header.
    const stored = await readEntry(await openBucket(outsider.nc, 'inbox'), ask.key)
    const content = JSON.parse(new TextDecoder().decode(stored!.value.subarray(0, stored!.value.byteLength - 64))) as {
      header: string
    }
    const header = JSON.parse(content.header) as OpenedQuestion['header']
    const answerKey = inboxKey('a', 'ci-nightly', ask.askId)
    const forged = await sealAnswer({
      device: outsiderKeys,
      replyKey: header.replyKey,
      kvKey: answerKey,
      askId: ask.askId,
      qHash: 'A'.repeat(43),
      body: new TextEncoder().encode('{"v":1,"answers":[]}'),
    })
    await jetstream(outsider.nc, { checkAPI: false }).publish(`$KV.inbox.${answerKey}`, forged, {
      expect: { lastSubjectSequence: 0 },
    })
    const settledFirst = await reasked
    const next = await second
    expect(settledFirst).toEqual({ key: ask.key, outcome: 'reasked', next: next.askId })
    expect(next.previousAskId).toBe(ask.askId)
    expect(
      await laptop.answer(next.key, [
        { id: 'db', selected: ['SQLite'] },
        { id: 'why', selected: [] },
      ]),
    ).toEqual({ won: true })
    expect(await answer).toEqual({
      answers: [
        { id: 'db', selected: ['SQLite'] },
        { id: 'why', selected: [] },
      ],
    })
    expect(events.map((e) => (e.type === 'answer-refused' ? `${e.type}:${e.code}` : e.type))).toEqual([
      'asked',
      'answer-refused:NOT_A_MEMBER',
      'asked',
      'answered',
    ])
  }, 30_000)

  it('a desk that finds an unverifiable answer on the key raises the alarm instead of naming a winner', async () => {
    const laptop = desks[0]!
    const forger = world.members.get('forger')!
    const forgerLink = await world.link('forger')
    const outsider = await world.link('old-phone')
    // A hand-written question (no RemoteAsker, so nobody asks again), answered first by the removed device.
    const askId = randomToken()
    const key = inboxKey('q', 'forger', askId)
    const replyKey = await newReplyKey()
    const sealed = await sealQuestion({
      agent: forger.keys,
      roster: world.roster,
      askId,
      kvKey: key,
      replyKey: replyKey.publicKey,
      body: new TextEncoder().encode(JSON.stringify({ v: 1, questions: QUESTIONS })),
    })
    const seen = added(laptop, 'forger')
    await jetstream(forgerLink.nc, { checkAPI: false }).publish(`$KV.inbox.${key}`, sealed.bytes, {
      expect: { lastSubjectSequence: 0 },
    })
    await seen
    const answerKey = inboxKey('a', 'forger', askId)
    const garbage = await sealAnswer({
      device: world.members.get('old-phone')!.keys,
      replyKey: replyKey.publicKey,
      kvKey: answerKey,
      askId,
      qHash: sealed.qHash,
      body: new TextEncoder().encode('{}'),
    })
    await jetstream(outsider.nc, { checkAPI: false }).publish(`$KV.inbox.${answerKey}`, garbage, {
      expect: { lastSubjectSequence: 0 },
    })
    expect(
      await laptop.answer(key, [
        { id: 'db', selected: [] },
        { id: 'why', selected: [] },
      ]),
    ).toEqual({ won: false, winner: undefined, alarm: 'NOT_A_MEMBER' })
  }, 30_000)

  it("a question signed by one agent but written under another agent's credential is refused, not shown", async () => {
    const refusals: DeskRefusal[] = []
    const phone = world.members.get('phone')!
    const watcher = await RelayDesk.start({
      link: await world.link('phone'),
      device: phone.keys,
      rootPublicKey: world.rootPublicKey,
      onRefused: (r) => refusals.push(r),
    })
    desks.push(watcher)
    const shown: string[] = []
    watcher.onAdded((ask) => shown.push(ask.key))
    // The "forger" credential writes a question signed with devbox's keys: the name must come from the key.
    const forgerLink = await world.link('forger')
    const askId = randomToken()
    const key = inboxKey('q', 'forger', askId)
    const replyKey = await newReplyKey()
    const body = new TextEncoder().encode(JSON.stringify({ v: 1, questions: QUESTIONS }))
    const sealed = await sealQuestion({
      agent: world.members.get('devbox')!.keys,
      roster: world.roster,
      askId,
      kvKey: key,
      replyKey: replyKey.publicKey,
      body,
    })
    await jetstream(forgerLink.nc, { checkAPI: false }).publish(`$KV.inbox.${key}`, sealed.bytes, {
      expect: { lastSubjectSequence: 0 },
    })
    await until(() => refusals.some((r) => r.key === key), 'the refusal')
    expect(refusals.find((r) => r.key === key)).toEqual({
      key,
      code: 'EXCHANGE_INVALID',
      message: 'the question is signed by agent "devbox" but stored under "forger"; ignoring it',
    })
    expect(shown).not.toContain(key)
  }, 30_000)

  it('an agent cannot pass its ask off as a local ask mirrored by a desktop: refused, not shown', async () => {
    const refusals: DeskRefusal[] = []
    const tablet = world.members.get('tablet')!
    const watcher = await RelayDesk.start({
      link: await world.link('tablet'),
      device: tablet.keys,
      rootPublicKey: world.rootPublicKey,
      onRefused: (r) => refusals.push(r),
    })
    desks.push(watcher)
    const shown: string[] = []
    watcher.onAdded((ask) => shown.push(ask.key))
    const stop = new AbortController()
    let askId = ''
    const asking = (await asker('forger'))
      .ask(QUESTIONS, {
        mirroredFor: 'claude',
        signal: stop.signal,
        onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)),
      })
      .catch(() => undefined)
    await until(() => askId !== '' && refusals.some((r) => r.key === inboxKey('q', 'forger', askId)), 'the refusal')
    expect(refusals.find((r) => r.key === inboxKey('q', 'forger', askId))).toEqual({
      key: inboxKey('q', 'forger', askId),
      code: 'EXCHANGE_INVALID',
      message: 'the question from "forger" is marked mirrored wrongly for its role; ignoring it',
    })
    expect(shown).not.toContain(inboxKey('q', 'forger', askId))
    stop.abort()
    await asking
  }, 30_000)

  it('withdrawing an ask (AbortSignal) takes it off every desk and answers nothing', async () => {
    const laptop = desks[0]!
    const agent = await asker('devbox')
    const controller = new AbortController()
    const seen = added(laptop, 'devbox')
    const answer = agent.ask(QUESTIONS, { signal: controller.signal })
    const ask = await seen
    const gone = settled(laptop, ask.key)
    controller.abort()
    await expect(answer).rejects.toMatchObject({ code: 'ASK_WITHDRAWN' })
    expect(await gone).toEqual({ key: ask.key, outcome: 'withdrawn' })
    await expect(
      laptop.answer(ask.key, [
        { id: 'db', selected: [] },
        { id: 'why', selected: [] },
      ]),
    ).rejects.toMatchObject({ code: 'ASK_NOT_PENDING' })
  }, 30_000)

  it('a desk listener that throws keeps neither the other listeners nor the desk from hearing an ask', async () => {
    const laptop = desks[0]!
    const stopBroken = laptop.onAdded(() => {
      throw new Error('a broken listener')
    })
    const agent = await asker('devbox')
    const controller = new AbortController()
    const seen = added(laptop, 'devbox')
    const answer = agent.ask(QUESTIONS, { signal: controller.signal })
    const ask = await seen
    expect(laptop.pending().map((pending) => pending.key)).toContain(ask.key)
    stopBroken()
    controller.abort()
    await expect(answer).rejects.toMatchObject({ code: 'ASK_WITHDRAWN' })
  }, 30_000)

  it('an agent that times out marks the ask expired (ASK_TIMEOUT while the relay is up)', async () => {
    const laptop = desks[0]!
    const agent = await asker('devbox')
    const seen = added(laptop, 'devbox')
    const answer = agent.ask(QUESTIONS, { timeoutMs: 1_500 })
    const ask = await seen
    expect(ask.expiresAt).toBeGreaterThan(Date.now() - 1_500)
    const gone = settled(laptop, ask.key)
    await expect(answer).rejects.toMatchObject({ code: 'ASK_TIMEOUT' })
    expect((await gone).outcome).toBe('expired')
  }, 30_000)

  it('the signal given to RelayDesk.start bounds only the start: the desk keeps watching afterwards', async () => {
    const starting = new AbortController()
    const member = world.members.get('phone')!
    const late = await RelayDesk.start(
      { link: await world.link('phone'), device: member.keys, rootPublicKey: world.rootPublicKey },
      starting.signal,
    )
    desks.push(late)
    starting.abort()
    const agent = await asker('devbox')
    const seen = added(late, 'devbox')
    const answer = agent.ask(QUESTIONS)
    const ask = await seen
    expect(
      await late.answer(ask.key, [
        { id: 'db', selected: ['Postgres'] },
        { id: 'why', selected: [] },
      ]),
    ).toEqual({ won: true })
    expect(await answer).toEqual({
      answers: [
        { id: 'db', selected: ['Postgres'] },
        { id: 'why', selected: [] },
      ],
    })
  }, 30_000)

  it("an agent's credential cannot read another agent's answers", async () => {
    const devbox = await world.link('devbox')
    const inbox = await openBucket(devbox.nc, 'inbox')
    const error = await readEntry(inbox, inboxKey('a', 'ci-nightly', randomToken())).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isPermissionViolation(error)).toBe(true)
  }, 30_000)
})
