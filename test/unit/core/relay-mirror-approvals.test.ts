// Mirrored approvals against a real nats-server in operator mode and two real companions, set up as a
// person would (`relay init`, `relay pair` + `relay join`, `relay mirror on`): a local agent's
// permission prompt on the first desktop A reaches the paired device B (here its RelayDesk, as the
// phone runs one) with the request exactly as A's window has it; B decides allow once or deny (with a
// reason) and the agent gets exactly that decision; "always allow" never travels (refused before the
// write, and refused by A when a device writes one anyway: nothing is decided, the approval stays
// pending); A's window deciding first tells B "decided on A"; an approval larger than a relay entry
// stays local.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeConnect, RelayDesk, RelayLink, type RemoteAsk } from '../../../relay/exchange'
import { writeAnswer } from '../../../relay/exchange/desk-answer'
import { isRefusal, readQuestion } from '../../../relay/exchange/desk-question'
import { INBOX_BUCKET, parseInboxKey } from '../../../relay/exchange/inbox-keys'
import { openOnThisThread } from '../../../relay/exchange/question-opener'
import { openBucket, readEntry } from '../../../relay/exchange/relay-kv'
import { ROSTER_BUCKET, RosterPin } from '../../../relay/exchange/roster-source'
import { BUCKETS } from '../../../relay/nats/templates'
import { loadDeskIdentity, type DeskIdentity } from '../../../relay/home/desk-identity'
import type { ApprovalRequest } from '../../../shared/approval'
import type { Ask } from '../../../shared/ask'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { WAIT_MS } from '../../helpers/waits'
import { mirrorCommand, startMirrorDesks, type MirrorDesks } from './mirror-desks'
import { helloAgent, poll, type RawAgent } from './raw-agent'
import { addedTo, RELAY_WAIT, replyTo, settledIn } from './relay-windows'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the mirrored approval tests: ${skip}`)

const COMMAND: ApprovalRequest = {
  tool: 'Bash',
  harness: 'claude-code',
  action: { kind: 'command', command: 'rm -rf build && npm run build -- --prod', cwd: '/tmp/project' },
  always: { label: 'Bash(npm run build:*) in this project' },
  warnings: [{ code: 'RUNS_IN_BACKGROUND', message: 'the command keeps running in the background' }],
}

describe.skipIf(skip)('mirrored approvals (real nats-server, two companions, a device desk)', () => {
  let desks: MirrorDesks
  let device: DeskIdentity
  let link: RelayLink
  let desk: RelayDesk
  const agents: RawAgent[] = []

  const localAgent = async (): Promise<RawAgent> => {
    const agent = await helloAgent(desks.deskA.companion, 'claude')
    agents.push(agent)
    return agent
  }
  /** Sends an approval from `agent` and waits until window A and device B both have it. */
  const approve = async (
    agent: RawAgent,
    id: string,
    title: string,
    approval: ApprovalRequest = COMMAND,
  ): Promise<{ askA: Ask; remote: RemoteAsk }> => {
    const seenA = addedTo(desks.windowA, title)
    agent.send({ type: 'approve', id, title, approval })
    const askA = await seenA
    const remote = await listedOnDevice(title)
    return { askA, remote }
  }
  const listedOnDevice = async (title: string, not?: string): Promise<RemoteAsk> => {
    const find = (): RemoteAsk | undefined => desk.pending().find((ask) => ask.title === title && ask.key !== not)
    await poll(find).toBeDefined()
    return find()!
  }
  const settledOnDevice = (key: string) =>
    new Promise<{ winner?: string; outcome: string }>((resolve) => {
      const stop = desk.onSettled((settled) => {
        if (settled.key !== key) return
        stop()
        resolve({ outcome: settled.outcome, ...(settled.winner ? { winner: settled.winner.name } : {}) })
      })
    })

  beforeAll(async () => {
    // Large frames, so that an approval over the relay's 2 MiB entry reaches the companion at all.
    desks = await startMirrorDesks('relay-mirror-approvals-', {
      frameBytes: 8 * 1024 * 1024,
      windowQueueBytes: 64 * 1024 * 1024,
    })
    expect((await mirrorCommand('on', desks.homeA)).code).toBe(0)
    device = await loadDeskIdentity(desks.homeB, 'device')
    link = await RelayLink.open({
      url: desks.relayUrl,
      connect: nodeConnect,
      creds: device.creds,
      name: device.natsName,
      allowOutdatedLoopback: true,
    })
    desk = await RelayDesk.start({ link, device: device.device, rootPublicKey: device.rootPublicKey })
  }, 90_000)

  afterAll(async () => {
    for (const agent of agents) agent.socket.terminate()
    desk?.close()
    await link?.close().catch(() => undefined)
    await desks?.close()
  })

  it('the device decides allow once: the agent gets exactly that, and window A shows "decided on laptop-b"', async () => {
    const agent = await localAgent()
    const { askA, remote } = await approve(agent, 'p1', 'Build it')
    expect(askA).toMatchObject({ kind: 'approval', approval: COMMAND })
    expect(remote).toMatchObject({ agent: { name: `claude on ${desks.deskAName}` }, questions: [] })
    // The whole request, as A's window has it: command, cwd, warnings, and what "always" would remember.
    expect(remote.approval).toEqual(COMMAND)
    const settledOnA = settledIn(desks.windowA, askA.askId)
    expect(await desk.decide(remote.key, { behavior: 'allow' })).toEqual({ won: true })
    expect(await agent.next((f) => f.type === 'decision', RELAY_WAIT)).toEqual({
      type: 'decision',
      id: 'p1',
      decision: { behavior: 'allow' },
    })
    expect(await settledOnA).toMatchObject({
      outcome: 'decided',
      decision: { behavior: 'allow' },
      answeredOn: 'laptop-b',
    })
    expect(desks.deskA.companion.pending()).toEqual([])
  }, 60_000)

  it('the device denies with a reason: the agent gets the deny and the reason', async () => {
    const agent = await localAgent()
    const { remote } = await approve(agent, 'p2', 'Deny it')
    const decision = { behavior: 'deny' as const, message: 'not on a Friday; run the tests first' }
    expect(await desk.decide(remote.key, decision)).toEqual({ won: true })
    expect(await agent.next((f) => f.type === 'decision', RELAY_WAIT)).toEqual({ type: 'decision', id: 'p2', decision })
  }, 60_000)

  it('"always allow" never travels: the desk refuses it unwritten, and an always written anyway decides nothing', async () => {
    const agent = await localAgent()
    const { askA, remote } = await approve(agent, 'p3', 'Always?')
    await expect(desk.decide(remote.key, { behavior: 'allow', always: true })).rejects.toMatchObject({
      code: 'ALWAYS_NOT_REMOTE',
    })
    const inbox = await openBucket(link.nc, INBOX_BUCKET)
    const parts = parseInboxKey(remote.key)!
    const answerKey = `a.${parts.agent}.${parts.askId}`
    expect(await readEntry(inbox, answerKey)).toBeUndefined()

    // A device built otherwise writes an "always" anyway, sealed and signed as a real answer.
    const stored = await readEntry(inbox, remote.key)
    const pin = new RosterPin(device.rootPublicKey, {})
    const rosterBucket = await openBucket(link.nc, ROSTER_BUCKET)
    await pin.fetch(rosterBucket)
    const read = await readQuestion(
      stored!.value,
      { key: remote.key, agent: parts.agent, askId: parts.askId },
      { device: device.device, pin, rosterBucket, opener: openOnThisThread },
    )
    if (isRefusal(read)) throw new Error(read.message)
    const settledOnDevice1 = settledOnDevice(remote.key)
    const target = {
      nc: link.nc,
      device: device.device,
      inbox,
      secret: await openBucket(link.nc, BUCKETS.secret),
      roster: () => pin.current!,
      onRefused: () => undefined,
    }
    const forged = { behavior: 'allow' as const, always: true as const }
    const written = await writeAnswer(
      target,
      remote.key,
      { ask: remote, header: read.header, qHash: read.qHash },
      { v: 1, decision: forged },
      AbortSignal.timeout(RELAY_WAIT),
    )
    expect(written).toEqual({ won: true })
    // A refuses it and asks again under a new id: the old one is over on the relay, a new one listed.
    expect(await settledOnDevice1).toMatchObject({ outcome: 'reasked' })
    const again = await listedOnDevice('Always?', remote.key)
    expect(again.previousAskId).toBe(parts.askId)
    // Nothing was decided: the approval is still pending on A and the agent got no decision.
    expect(desks.deskA.companion.pending().map((ask) => ask.askId)).toContain(askA.askId)
    expect(agent.frames.filter((f) => f.type === 'decision')).toEqual([])
    expect(await desk.decide(again.key, { behavior: 'allow' })).toEqual({ won: true })
    expect(await agent.next((f) => f.type === 'decision', RELAY_WAIT)).toEqual({
      type: 'decision',
      id: 'p3',
      decision: { behavior: 'allow' },
    })
  }, 90_000)

  it('window A decides first ("always", a rule of this machine): the agent gets it, the device is told A won and its decision is refused', async () => {
    const agent = await localAgent()
    const { askA, remote } = await approve(agent, 'p4', 'Decided here')
    const onDevice = settledOnDevice(remote.key)
    desks.windowA.send({ type: 'ask/decide', askId: askA.askId, decision: { behavior: 'allow', always: true } })
    expect(await replyTo(desks.windowA, askA.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'decided' })
    expect(await agent.next((f) => f.type === 'decision', RELAY_WAIT)).toEqual({
      type: 'decision',
      id: 'p4',
      decision: { behavior: 'allow', always: true },
    })
    expect(await onDevice).toEqual({ outcome: 'delivered', winner: desks.deskAName })
    await expect(desk.decide(remote.key, { behavior: 'deny' })).rejects.toMatchObject({ code: 'ASK_NOT_PENDING' })
  }, 60_000)

  it("desk B's window lists A's approval as a remote approval without \"always\"; allow once from it reaches A's agent", async () => {
    const agent = await localAgent()
    const seenB = addedTo(desks.windowB, 'Decide on B')
    const { askA } = await approve(agent, 'p7', 'Decide on B')
    const askB = await seenB
    const { always: _always, ...withoutAlways } = COMMAND
    expect(askB).toMatchObject({
      kind: 'approval',
      agent: { name: `claude on ${desks.deskAName}` },
      origin: { kind: 'relay', agentId: desks.deskAId },
    })
    // The request exactly as A's window has it, but for "always", which only A's own windows offer.
    expect(askB.kind === 'approval' && askB.approval).toEqual(withoutAlways)
    const settledOnA = settledIn(desks.windowA, askA.askId)
    desks.windowB.send({ type: 'ask/decide', askId: askB.askId, decision: { behavior: 'allow' } })
    expect(await replyTo(desks.windowB, askB.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'decided' })
    expect(await agent.next((f) => f.type === 'decision', RELAY_WAIT)).toEqual({
      type: 'decision',
      id: 'p7',
      decision: { behavior: 'allow' },
    })
    expect(await settledOnA).toMatchObject({ outcome: 'decided', answeredOn: 'laptop-b' })
    expect(desks.deskB.companion.pending().map((ask) => ask.askId)).not.toContain(askB.askId)
  }, 60_000)

  it('B\'s window: "always" and Dismiss are refused with the approval still pending; then a deny with its reason reaches the agent', async () => {
    const agent = await localAgent()
    const seenB = addedTo(desks.windowB, 'Refuse on B')
    await approve(agent, 'p8', 'Refuse on B')
    const askB = await seenB
    desks.windowB.send({ type: 'ask/decide', askId: askB.askId, decision: { behavior: 'allow', always: true } })
    expect(await replyTo(desks.windowB, askB.askId)).toMatchObject({
      type: 'ask/rejected',
      code: 'FORBIDDEN',
      reason: expect.stringMatching(/"always allow" is decided only on the machine whose permissions it changes/),
    })
    desks.windowB.send({ type: 'ask/dismiss', askId: askB.askId })
    expect(await replyTo(desks.windowB, askB.askId)).toMatchObject({ type: 'ask/rejected', code: 'FORBIDDEN' })
    expect(desks.deskB.companion.pending().map((ask) => ask.askId)).toContain(askB.askId)
    expect(agent.frames.filter((f) => f.type === 'decision')).toEqual([])
    const decision = { behavior: 'deny' as const, message: 'use the staging box' }
    desks.windowB.send({ type: 'ask/decide', askId: askB.askId, decision })
    expect(await replyTo(desks.windowB, askB.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'decided' })
    expect(await agent.next((f) => f.type === 'decision', RELAY_WAIT)).toEqual({ type: 'decision', id: 'p8', decision })
  }, 60_000)

  it("window A decides first: B's copy settles as decided on A, and B's late decision is refused, not sent", async () => {
    const agent = await localAgent()
    const seenB = addedTo(desks.windowB, 'A first')
    const { askA } = await approve(agent, 'p9', 'A first')
    const askB = await seenB
    const settledOnB = settledIn(desks.windowB, askB.askId)
    desks.windowA.send({ type: 'ask/decide', askId: askA.askId, decision: { behavior: 'deny' } })
    expect(await replyTo(desks.windowA, askA.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'decided' })
    const settled = await settledOnB
    expect(settled).toMatchObject({ outcome: 'decided', answeredOn: desks.deskAName })
    // What A decided is sealed to A's agent: B knows only who decided.
    expect(settled).not.toHaveProperty('decision')
    desks.windowB.send({ type: 'ask/decide', askId: askB.askId, decision: { behavior: 'allow' } })
    expect(await replyTo(desks.windowB, askB.askId)).toMatchObject({ type: 'ask/rejected', code: 'NOT_PENDING' })
    expect(agent.frames.filter((f) => f.type === 'decision')).toEqual([
      { type: 'decision', id: 'p9', decision: { behavior: 'deny' } },
    ])
  }, 60_000)

  it('an approval larger than one relay entry is not mirrored: it stays local and window A decides it', async () => {
    const agent = await localAgent()
    // Three bodies of 200,000 three-byte characters: 1.8 MB of JSON, more once sealed than the 2 MiB entry.
    const big = '审'.repeat(200_000)
    const approval: ApprovalRequest = {
      tool: 'Write',
      action: { kind: 'file', path: '/tmp/project/big.txt', operation: 'write', diff: big, content: big },
      extra: big,
    }
    const seenA = addedTo(desks.windowA, 'Too big')
    agent.send({ type: 'approve', id: 'p5', title: 'Too big', approval })
    const askA = await seenA
    // A later approval of the same agent reaches the device: the big one, asked first, would be there by now.
    await approve(agent, 'p6', 'After the big one')
    expect(desk.pending().map((ask) => ask.title)).not.toContain('Too big')
    desks.windowA.send({ type: 'ask/decide', askId: askA.askId, decision: { behavior: 'deny', message: 'too big' } })
    expect(await replyTo(desks.windowA, askA.askId)).toMatchObject({ type: 'ask/accepted', outcome: 'decided' })
    expect(await agent.next((f) => f.type === 'decision' && f.id === 'p5', WAIT_MS)).toMatchObject({
      decision: { behavior: 'deny', message: 'too big' },
    })
  }, 90_000)
})
