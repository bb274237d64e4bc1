// "Mirror local asks" against a real nats-server in operator mode and two real companions, set up as a
// person would (`relay init`, `relay pair` + `relay join`, `relay mirror on`): a local agent's question on
// the first desktop A is answerable on the paired desk B under "<agent> on <A>", the first answer settles
// it on both, a secret ask and anything asked with mirroring off never reach the relay, and A never lists
// its own mirrored ask twice.
import type { NatsConnection } from '@nats-io/nats-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIRROR_STATUS } from '../../../cli/relay/mirror-command'
import { INBOX_BUCKET, parseInboxKey } from '../../../relay/exchange/inbox-keys'
import { openBucket, readEntry } from '../../../relay/exchange/relay-kv'
import { nodeConnect, RelayLink, RemoteAsker } from '../../../relay/exchange'
import { loadDeskIdentity } from '../../../relay/home/desk-identity'
import { connectRelay, createEntry } from '../../../relay/pairing'
import type { Ask } from '../../../shared/ask'
import type { TestCompanion } from '../../helpers/companion'
import { natsServerSkipReason } from '../../helpers/nats-server'
import type { V2Window } from '../../helpers/ui-v2-window'
import { mirrorCommand, startMirrorDesks, type MirrorDesks } from './mirror-desks'
import { addedTo, RELAY_WAIT, replyTo, settledIn } from './relay-windows'
import { askFrame, helloAgent, poll, type RawAgent } from './raw-agent'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the mirror tests: ${skip}`)

const QUESTION = {
  id: 'q1',
  question: 'Which database?',
  options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
}

describe.skipIf(skip)('mirroring local asks to the other desks (real nats-server, two companions)', () => {
  let desks: MirrorDesks
  let homeA: string
  let deskA: TestCompanion
  let deskB: TestCompanion
  let windowA: V2Window
  let windowB: V2Window
  let deskAName: string
  let deskAId: string
  let relay: NatsConnection
  let relayUrl: string
  const agents: RawAgent[] = []

  const localAgent = async (name = 'claude'): Promise<RawAgent> => {
    const agent = await helloAgent(deskA.companion, name)
    agents.push(agent)
    return agent
  }
  const mirror = (action: string, home = homeA): Promise<{ code: number; out: string }> => mirrorCommand(action, home)
  let marks = 0
  /**
   * The questions desk A has written to the relay under its own name. Read with a watch, as desks read
   * the bucket (listing keys needs a consumer-info right no desk has); a fresh marker written last, under
   * a key too short to be an ask (desks ignore it), says the watch has delivered everything before it.
   */
  const mirroredKeys = async (): Promise<string[]> => {
    const kv = await openBucket(relay, INBOX_BUCKET)
    const mark = `q.${deskAId}.mark${++marks}`
    expect(await createEntry(relay, INBOX_BUCKET, mark, new TextEncoder().encode('mark'))).toBe(true)
    const watch = await kv.watch({ key: `q.${deskAId}.*` })
    const keys: string[] = []
    for await (const entry of watch) {
      if (entry.key === mark) break
      if (entry.operation === 'PUT' && parseInboxKey(entry.key) !== undefined) keys.push(entry.key)
    }
    watch.stop()
    return keys
  }

  beforeAll(async () => {
    desks = await startMirrorDesks('relay-mirror-')
    ;({ homeA, deskA, deskB, windowA, windowB, deskAName, deskAId, relayUrl } = desks)
    const identity = await loadDeskIdentity(homeA, 'desktop')
    relay = await connectRelay(relayUrl, identity.creds, identity.natsName, { allowOutdatedLoopback: true })
  }, 90_000)

  afterAll(async () => {
    for (const agent of agents) agent.socket.terminate()
    await relay?.close().catch(() => undefined)
    await desks?.close()
  })

  it('is off by default; only the first desktop can turn it on', async () => {
    expect(await mirror('status')).toEqual({ code: 0, out: `${MIRROR_STATUS.off}\n` })
    const onDevice = await mirror('on', desks.homeB)
    expect(onDevice.code).toBe(1)
    expect(onDevice.out).toBe(
      'Error: RELAY_MIRROR_NEEDS_DESKTOP: Only the first desktop (where `ask-user relay init` ran) can mirror its local asks; a paired device answers them.\n',
    )
    expect((await mirror('sideways')).code).toBe(2)
  })

  let offAgent: RawAgent
  let offAsk: Ask
  it('mirror off: a local ask is listed here and nothing is written to the relay', async () => {
    offAgent = await localAgent()
    const seen = addedTo(windowA, 'Not mirrored')
    offAgent.send(askFrame('off1', { title: 'Not mirrored' }))
    offAsk = await seen
    expect(await mirroredKeys()).toEqual([])
    // It stays pending: the next test shows it never reaches the relay, even once mirroring is on.
  })

  it('mirror on: the ask shows on desk B as "<agent> on <A>"; B answers; the agent gets that exact answer and A shows "answered on B"', async () => {
    expect(await mirror('on')).toEqual({
      code: 0,
      out: `${MIRROR_STATUS.on}\nA running companion applies this from the next local ask on.\n`,
    })
    expect((await mirror('status')).out).toBe(`${MIRROR_STATUS.on}\n`)
    const agent = await localAgent()
    const seenA = addedTo(windowA, 'Mirrored')
    const seenB = addedTo(windowB, 'Mirrored')
    agent.send(askFrame('m1', { title: 'Mirrored' }))
    const [askA, askB] = await Promise.all([seenA, seenB])
    expect(askA).toMatchObject({ agent: { name: 'claude' } })
    expect(askA).not.toHaveProperty('origin')
    expect(askB).toMatchObject({
      kind: 'question',
      agent: { name: `claude on ${deskAName}` },
      questions: [QUESTION],
      origin: { kind: 'relay', agentId: deskAId },
    })
    expect(askB).not.toHaveProperty('origin.unanswerable')
    // Only this ask is on the relay: the one asked while mirroring was off never went there.
    expect(await mirroredKeys()).toHaveLength(1)
    expect(deskB.companion.pending().map((ask) => ask.title)).toEqual(['Mirrored'])

    const settledOnA = settledIn(windowA, askA.askId)
    const answers = [{ id: 'q1', selected: [], custom: 'SQLite, with WAL' }]
    windowB.send({ type: 'ask/answer', askId: askB.askId, answers })
    expect(await replyTo(windowB, askB.askId)).toEqual({ type: 'ask/accepted', askId: askB.askId, outcome: 'answered' })
    expect(await agent.next((f) => f.type === 'answer', RELAY_WAIT)).toMatchObject({ id: 'm1', answers })
    expect(await settledOnA).toMatchObject({ outcome: 'answered', answeredOn: 'laptop-b' })
    // Desk A never listed its own mirrored ask a second time as a remote ask.
    expect(windowA.frames.frames.filter((f) => f.type === 'ask/added' && f.ask.title === 'Mirrored')).toHaveLength(1)
    windowA.send({ type: 'ask/answer', askId: offAsk.askId, answers: [{ id: 'q1', selected: ['SQLite'] }] })
    expect(await replyTo(windowA, offAsk.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    expect(await offAgent.next((f) => f.type === 'answer', RELAY_WAIT)).toMatchObject({ id: 'off1' })
    expect(deskA.companion.pending()).toEqual([])
    expect(deskB.companion.pending()).toEqual([])
  }, 60_000)

  it("A's window answers first: it claims the ask on the relay, the agent gets A's answer, desk B sees it answered on A and its later answer is refused", async () => {
    const agent = await localAgent()
    const seenA = addedTo(windowA, 'Answered here')
    const seenB = addedTo(windowB, 'Answered here')
    agent.send(askFrame('m2', { title: 'Answered here' }))
    const [askA, askB] = await Promise.all([seenA, seenB])
    const settledOnB = settledIn(windowB, askB.askId)
    windowA.send({
      type: 'ask/answer',
      askId: askA.askId,
      answers: [{ id: 'q1', selected: ['Postgres (Recommended)'] }],
    })
    expect(await replyTo(windowA, askA.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    expect(await agent.next((f) => f.type === 'answer', RELAY_WAIT)).toMatchObject({
      id: 'm2',
      answers: [{ id: 'q1', selected: ['Postgres (Recommended)'] }],
    })
    expect(await settledOnB).toMatchObject({ outcome: 'answered', answeredOn: deskAName })
    windowB.send({ type: 'ask/answer', askId: askB.askId, answers: [{ id: 'q1', selected: ['SQLite'] }] })
    expect(await replyTo(windowB, askB.askId)).toMatchObject({ type: 'ask/rejected', code: 'NOT_PENDING' })
    expect(deskB.companion.pending()).toEqual([])
  }, 60_000)

  it('the local agent leaves: its mirrored ask is withdrawn on desk B', async () => {
    const agent = await localAgent()
    const seenB = addedTo(windowB, 'Agent leaves')
    agent.send(askFrame('m3', { title: 'Agent leaves' }))
    const askB = await seenB
    const settledOnB = settledIn(windowB, askB.askId)
    agent.socket.close()
    expect(await settledOnB).toMatchObject({ outcome: 'aborted' })
  }, 60_000)

  it("a question of the desktop's that no running mirror asked (left by a crash) is withdrawn on every desk", async () => {
    // What a desktop companion killed mid-ask leaves behind: its question, and no receipt.
    const identity = await loadDeskIdentity(homeA, 'desktop')
    const link = await RelayLink.open({
      url: relayUrl,
      connect: nodeConnect,
      creds: identity.creds,
      name: identity.natsName,
      allowOutdatedLoopback: true,
    })
    const crashed = new RemoteAsker({
      link,
      agent: identity.device,
      rootPublicKey: identity.rootPublicKey,
      keyToken: identity.natsName,
    })
    let askId = ''
    void crashed
      .ask([QUESTION], { mirroredFor: 'ghost', onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)) })
      .catch(() => undefined)
    const inbox = await openBucket(relay, INBOX_BUCKET)
    await poll(async () => askId !== '' && (await readEntry(inbox, `r.${deskAId}.${askId}`)) !== undefined).toBe(true)
    await link.close()
    await poll(() => deskB.companion.pending().map((ask) => ask.agent.name)).not.toContain(`ghost on ${deskAName}`)
  }, 60_000)

  it('a secret ask is never written to the relay, with mirroring on', async () => {
    const agent = await localAgent()
    const secretSeen = addedTo(windowA, 'Passphrase')
    agent.send({
      type: 'ask',
      id: 's1',
      title: 'Passphrase',
      questions: [{ id: 'pw', question: 'Key passphrase?', secret: true }],
    })
    await secretSeen
    const before = await mirroredKeys()
    // A later ask from the same agent reaches desk B: the secret one, asked first, would be there by now.
    const later = addedTo(windowB, 'After the secret')
    agent.send(askFrame('m4', { title: 'After the secret' }))
    await later
    const after = await mirroredKeys()
    expect(after.filter((key) => !before.includes(key))).toHaveLength(1)
    expect(deskB.companion.pending().map((ask) => ask.title)).not.toContain('Passphrase')
  }, 60_000)
})
