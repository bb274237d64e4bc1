// The relay bridge in the core against a real nats-server in operator mode, set up as a person would
// (`relay init`, `relay add-agent`, `relay pair` + `relay join`): a remote agent's ask enters two real
// companions' windows (v2 over WebSocket) marked remote under the roster's name, a window's answer
// reaches the agent exactly, first answer wins across the two desks, and the relay's outages leave
// local agents and the remote asks alone.
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentRelayFileSchema } from '../../../cli/relay/agent-file'
import { RELAY_SETTINGS_FILE } from '../../../core/relay-bridge/start'
import { remoteSecretRefused } from '../../../core/relay-bridge/remote-asks'
import { REMOTE_DISMISS_REASON } from '../../../core/registry'
import { openRemoteAsker, type RemoteAsker, type RelayLink } from '../../../relay/exchange'
import { INBOX_BUCKET } from '../../../relay/exchange/inbox-keys'
import { loadDeviceCreds, loadOwnMember, RELAY_FILES } from '../../../relay/home/state'
import { connectRelay, createEntry } from '../../../relay/pairing'
import type { UiServerFrame } from '../../../shared/ui'
import { startTestCompanion, type TestCompanion } from '../../helpers/companion'
import { natsServerSkipReason, startNatsServer, type RunningNatsServer } from '../../helpers/nats-server'
import { connectUi } from '../../helpers/ui-client'
import { openV2Window, type V2Window } from '../../helpers/ui-v2-window'
import { askFrame, helloAgent } from './raw-agent'
import { setUpRelayDesks, type RelayDesks } from './relay-desks'
import { addedTo, RELAY_WAIT, replyTo, settledIn, startDeskCompanions } from './relay-windows'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the relay bridge tests: ${skip}`)

const QUESTIONS = [
  { id: 'db', question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] },
  { id: 'why', question: 'Anything to add?' },
]
const ANSWERS = [
  { id: 'db', selected: ['Postgres'] },
  { id: 'why', selected: [], custom: 'ship it' },
]

type AddedFrame = Extract<UiServerFrame, { type: 'ask/added' }>

describe.skipIf(skip)('the relay bridge: remote asks in the one inbox (real nats-server, two companions)', () => {
  let root: string
  let desks: RelayDesks
  let server: RunningNatsServer
  let configPath: string
  let deskA: TestCompanion
  let deskB: TestCompanion
  let windowA: V2Window
  let windowB: V2Window
  let deskAName: string
  let relayUrl: string
  const links: RelayLink[] = []

  const agent = async (): Promise<RemoteAsker> => {
    const file = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'ci-job.json'), 'utf8')))
    const { asker, link } = await openRemoteAsker(file, { allowOutdatedLoopback: true, reconnectWaitMs: 100 })
    links.push(link)
    return asker
  }

  beforeAll(async () => {
    desks = await setUpRelayDesks('relay-bridge-', ['ci-job'])
    const { homeA, homeB } = desks
    root = desks.root
    relayUrl = desks.relayUrl
    configPath = desks.configPath
    server = desks.server
    deskAName = (await loadOwnMember(homeA, 'desktop')).member.name
    ;({ deskA, deskB, windowA, windowB } = await startDeskCompanions(homeA, homeB))
  }, 90_000)

  afterAll(async () => {
    await windowA?.close()
    await windowB?.close()
    for (const link of links) await link.close().catch(() => undefined)
    await deskA?.cleanup()
    await deskB?.cleanup()
    await server?.stop()
    await desks?.close()
  })

  it('the relay-settings file the core looks for is the one relay/home writes', () => {
    expect(RELAY_SETTINGS_FILE).toBe(RELAY_FILES.settings)
  })

  it('a remote ask shows in both desks marked remote under the roster name; the answer reaches the agent exactly', async () => {
    const v1 = await connectUi(deskA.companion)
    const asker = await agent()
    const seenA = addedTo(windowA, 'Nightly build')
    const seenB = addedTo(windowB, 'Nightly build')
    const answer = asker.ask(QUESTIONS, { title: 'Nightly build' })
    const ask = await seenA
    expect(ask).toMatchObject({
      kind: 'question',
      agent: { name: 'ci-job' },
      title: 'Nightly build',
      questions: QUESTIONS,
      origin: { kind: 'relay' },
    })
    const agentId = AgentRelayFileSchema.parse(JSON.parse(await readFile(join(root, 'ci-job.json'), 'utf8'))).agent
      .member.id
    expect(ask).toMatchObject({ origin: { kind: 'relay', agentId } })
    expect(ask).not.toHaveProperty('origin.unanswerable')
    expect(await seenB).toMatchObject({ origin: { kind: 'relay', agentId } })
    // A v1 script sees the same ask in v1's shape: no origin (it is not part of v1).
    const v1Ask = await v1.nextAsk((a) => a.title === 'Nightly build', RELAY_WAIT)
    expect(v1Ask).not.toHaveProperty('origin')
    expect(v1Ask.agent).toEqual({ name: 'ci-job' })

    const settledOnB = settledIn(windowB, (await seenB).askId)
    windowA.send({ type: 'ask/answer', askId: ask.askId, answers: ANSWERS })
    expect(await replyTo(windowA, ask.askId)).toEqual({ type: 'ask/accepted', askId: ask.askId, outcome: 'answered' })
    expect(JSON.stringify(await answer)).toBe(
      '{"answers":[{"id":"db","selected":["Postgres"]},{"id":"why","selected":[],"custom":"ship it"}]}',
    )
    // The other desk is told by the agent's receipt who answered.
    expect(await settledOnB).toMatchObject({ outcome: 'answered', answeredOn: deskAName })
    expect(deskA.companion.pending()).toEqual([])
    expect(deskB.companion.pending()).toEqual([])
    await v1.close()
  }, 60_000)

  it("two desks answer: the second desk's answer wins; the first is told answered on the second", async () => {
    const asker = await agent()
    const seenA = addedTo(windowA, 'Race')
    const seenB = addedTo(windowB, 'Race')
    void asker.ask(QUESTIONS, { title: 'Race' }).catch(() => undefined)
    const [askA, askB] = await Promise.all([seenA, seenB])
    // The agent goes offline (no receipt yet), so desk A learns of B's answer only by losing the write.
    await links.at(-1)!.close()
    windowB.send({ type: 'ask/answer', askId: askB.askId, answers: ANSWERS })
    expect(await replyTo(windowB, askB.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    const settledOnA = settledIn(windowA, askA.askId)
    windowA.send({
      type: 'ask/answer',
      askId: askA.askId,
      answers: [
        { id: 'db', selected: ['SQLite'] },
        { id: 'why', selected: [] },
      ],
    })
    expect(await settledOnA).toEqual({
      type: 'ask/settled',
      askId: askA.askId,
      outcome: 'answered',
      answeredOn: 'laptop-b',
    })
    expect(await replyTo(windowA, askA.askId)).toEqual({
      type: 'ask/rejected',
      askId: askA.askId,
      code: 'NOT_PENDING',
      reason: 'answered on laptop-b first; your answer was not sent',
    })
    expect(await deskA.companion.history(1)).toMatchObject([{ askId: askA.askId, answeredOn: 'laptop-b' }])
    expect((await deskA.companion.history(1))[0]).not.toHaveProperty('answers')
  }, 60_000)

  it('a remote secret ask is shown marked remote and refused with the reason; it cannot be dismissed', async () => {
    const asker = await agent()
    const seen = addedTo(windowA, 'Deploy key')
    const stop = new AbortController()
    const asking = asker
      .ask([{ id: 'pw', question: 'Passphrase?', secret: true } as never], { title: 'Deploy key', signal: stop.signal })
      .catch((error: unknown) => error)
    const ask = await seen
    expect(ask).toMatchObject({ origin: { kind: 'relay', unanswerable: remoteSecretRefused('ci-job') } })
    expect(ask).not.toHaveProperty('askpass')
    windowA.send({ type: 'ask/answer', askId: ask.askId, answers: [{ id: 'pw', selected: [], custom: 'hunter2' }] })
    expect(await replyTo(windowA, ask.askId)).toEqual({
      type: 'ask/rejected',
      askId: ask.askId,
      code: 'FORBIDDEN',
      reason: remoteSecretRefused('ci-job'),
    })
    windowA.send({ type: 'ask/dismiss', askId: ask.askId })
    expect(await replyTo(windowA, ask.askId)).toEqual({
      type: 'ask/rejected',
      askId: ask.askId,
      code: 'FORBIDDEN',
      reason: REMOTE_DISMISS_REASON,
    })
    // The agent withdraws it: every desk drops it.
    const gone = settledIn(windowA, ask.askId)
    stop.abort()
    expect(await gone).toMatchObject({ outcome: 'aborted' })
    expect(await asking).toMatchObject({ code: 'ASK_WITHDRAWN' })
  }, 60_000)

  it('an answer no desk can verify holds the key: the answering window is told, every window gets the alarm, the ask stays', async () => {
    const asker = await agent()
    const agentLink = links.at(-1)!
    const seen = addedTo(windowA, 'Spoiled')
    let relayAskId = ''
    void asker
      .ask(QUESTIONS, { title: 'Spoiled', onEvent: (e) => void (e.type === 'asked' && (relayAskId = e.askId)) })
      .catch(() => undefined)
    const ask = await seen
    // The agent goes away first, so it cannot ask again before desk A tries; then a paired device's
    // credential (what a thief of it could do) writes garbage where the answer goes.
    await agentLink.close()
    const creds = await loadDeviceCreds(join(root, 'desk-b'))
    const nc = await connectRelay(relayUrl, creds.creds, creds.natsName, { allowOutdatedLoopback: true })
    expect(await createEntry(nc, INBOX_BUCKET, `a.ci-job.${relayAskId}`, new TextEncoder().encode('garbage'))).toBe(
      true,
    )
    await nc.close()
    const alarmOnB = windowB.frames.next(
      (f) => f.type === 'notice/added' && f.notice.title === 'Relay alarm',
      RELAY_WAIT,
    )
    const alarmOnA = windowA.frames.next(
      (f) => f.type === 'notice/added' && f.notice.title === 'Relay alarm',
      RELAY_WAIT,
    )
    windowA.send({ type: 'ask/answer', askId: ask.askId, answers: ANSWERS })
    const refused = await replyTo(windowA, ask.askId)
    expect(refused).toMatchObject({ type: 'ask/rejected', code: 'INVALID_ANSWER' })
    expect(refused.type === 'ask/rejected' && refused.reason).toMatch(
      /^an answer this desk cannot verify took this ask's place on the relay \([A-Z_]+\); nothing of yours was taken\. The agent asks again: answer the new ask\.$/,
    )
    await alarmOnA
    expect(deskA.companion.pending().map((a) => a.askId)).toContain(ask.askId)
    // Desk B learns of it when its own window tries.
    const askOnB = deskB.companion.pending().find((a) => a.title === 'Spoiled')!
    windowB.send({ type: 'ask/answer', askId: askOnB.askId, answers: ANSWERS })
    expect(await replyTo(windowB, askOnB.askId)).toMatchObject({ type: 'ask/rejected', code: 'INVALID_ANSWER' })
    await alarmOnB
  }, 60_000)

  it('relay killed: local asks still work, the remote ask stays listed, a notice says so; restarted: the answer goes through', async () => {
    const asker = await agent()
    const seen = addedTo(windowA, 'Outage')
    const answer = asker.ask(QUESTIONS, { title: 'Outage' })
    const remote = await seen
    const unreachable = windowA.frames.next(
      (f) => f.type === 'notice/added' && f.notice.agent.name === 'Relay' && f.notice.title === 'Relay unreachable',
      RELAY_WAIT,
    )
    const exited = once(server.process, 'exit')
    server.process.kill('SIGKILL')
    await exited
    await unreachable

    const local = await helloAgent(deskA.companion)
    const localSeen = windowA.frames.next<AddedFrame>(
      (f) => f.type === 'ask/added' && f.ask.agent.name === 'test-agent',
    )
    local.send(askFrame('l1'))
    const localAsk = (await localSeen).ask
    windowA.send({ type: 'ask/answer', askId: localAsk.askId, answers: [{ id: 'q1', selected: ['SQLite'] }] })
    expect(await replyTo(windowA, localAsk.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    expect(await local.next((f) => f.type === 'answer')).toMatchObject({ id: 'l1' })
    const pendingIds = deskA.companion.pending().map((a) => a.askId)
    expect(pendingIds).toContain(remote.askId)
    expect(pendingIds).not.toContain(localAsk.askId)

    const back = windowA.frames.next((f) => f.type === 'notice/removed', RELAY_WAIT)
    server = await startNatsServer(configPath)
    await back
    windowA.send({ type: 'ask/answer', askId: remote.askId, answers: ANSWERS })
    expect(await replyTo(windowA, remote.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    expect(await answer).toEqual({ answers: ANSWERS })
  }, 90_000)

  it('a companion started while the relay is down starts at once, says so, and joins the relay once it runs', async () => {
    await windowB.close()
    await deskB.cleanup()
    const exited = once(server.process, 'exit')
    server.process.kill('SIGKILL')
    await exited
    deskB = await startTestCompanion({ home: join(root, 'desk-b') })
    windowB = await openV2Window(deskB.companion)
    await windowB.frames.next((f) => f.type === 'notice/added' && f.notice.title === 'Relay unreachable', RELAY_WAIT)
    const local = await helloAgent(deskB.companion)
    local.send(askFrame('l2'))
    await windowB.frames.next((f) => f.type === 'ask/added' && f.ask.agent.name === 'test-agent')

    server = await startNatsServer(configPath)
    await deskB.companion.relayReady
    const asker = await agent()
    const seen = addedTo(windowB, 'After the outage')
    const answer = asker.ask(QUESTIONS, { title: 'After the outage' })
    const ask = await seen
    windowB.send({ type: 'ask/answer', askId: ask.askId, answers: ANSWERS })
    expect(await replyTo(windowB, ask.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'answered' })
    expect(await answer).toEqual({ answers: ANSWERS })
  }, 90_000)
})
