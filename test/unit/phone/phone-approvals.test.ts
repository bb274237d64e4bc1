// Mirrored approvals on the phone's bridge against a real nats-server's WebSocket listener: a desktop
// mirrors its local agent's permission prompt (RemoteAsker.askApproval, as core/relay-bridge/mirror.ts
// does), the phone lists it as an approval ask with the whole request, refuses "always allow" without
// writing anything, and its allow once reaches the desktop as exactly that decision; a deny on another
// desk first settles the phone's card "decided on <desk>".
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RemoteAsker } from '../../../relay/exchange'
import { RelayDesk } from '../../../relay/exchange'
import type { ApprovalRequest } from '../../../shared/approval'
import type { BridgeStatus } from '../../../shared/bridge'
import type { UiServerFrame } from '../../../shared/ui'
import { PHONE_ALWAYS_REFUSED } from '../../../phone/src/bridge/desk-frames'
import { createPhoneBridge } from '../../../phone/src/bridge/phone-bridge'
import { phoneRecordOf } from '../../helpers/phone-record'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { nodeWsConnect } from '../../helpers/node-ws-connect'
import { desktopAsker, startRelayWorld, until, type RelayWorld } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone approval tests: ${skip}`)

const APPROVAL: ApprovalRequest = {
  tool: 'Bash',
  harness: 'claude-code',
  action: { kind: 'command', command: 'git push --force origin main', cwd: '/tmp/project' },
  always: { label: 'Bash(git push:*) in this project' },
}

describe.skipIf(skip)('mirrored approvals on the phone bridge (real nats-server)', () => {
  let world: RelayWorld
  let laptop: RelayDesk
  let desktop: RemoteAsker

  beforeAll(async () => {
    world = await startRelayWorld({ desktops: ['desk'], devices: ['phone', 'laptop'], agents: [] })
    laptop = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    desktop = await desktopAsker(world, 'desk')
  }, 60_000)
  afterAll(async () => {
    laptop?.close()
    await world?.close()
  })

  const startPhone = async () => {
    const frames: UiServerFrame[] = []
    const statuses: BridgeStatus[] = []
    const bridge = createPhoneBridge(phoneRecordOf(world, world.wsUrl), {
      connect: nodeWsConnect,
      allowOutdatedLoopback: true,
      reconnectWaitMs: 100,
      retryMs: 200,
    })
    bridge.onFrame((frame) => frames.push(frame))
    bridge.onStatus((status) => statuses.push(status))
    await until(() => statuses.includes('open'), 'the phone to connect', 30_000)
    return { bridge, frames }
  }

  /** The desktop mirrors a local approval; resolves once it is on the relay, with its key and the decision's promise. */
  const desktopMirrors = async (title: string) => {
    let askId: string | undefined
    const decision = desktop.askApproval(APPROVAL, {
      title,
      mirroredFor: 'claude',
      onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)),
    })
    decision.catch(() => undefined)
    await until(() => askId !== undefined, 'the approval to be written')
    return { decision, key: `q.${world.members.get('desk')!.keys.member.id}.${askId!}` }
  }

  it('lists the approval whole, refuses "always allow" unwritten, and its allow once reaches the desktop', async () => {
    const { bridge, frames } = await startPhone()
    try {
      const { decision, key } = await desktopMirrors('Force push')
      await until(() => frames.some((f) => f.type === 'ask/added' && f.ask.askId === key), 'the approval on the phone')
      // Listed on the laptop too, so "still pending there" below can only fail by a write.
      await until(() => laptop.pending().some((ask) => ask.key === key), 'the approval on the laptop')
      expect(frames.find((f) => f.type === 'ask/added' && f.ask.askId === key)).toMatchObject({
        ask: { kind: 'approval', agent: { name: 'claude on desk' }, title: 'Force push', approval: APPROVAL },
      })
      bridge.decide(key, { behavior: 'allow', always: true })
      await until(() => frames.some((f) => f.type === 'ask/rejected' && f.askId === key), 'the refusal')
      expect(frames.find((f) => f.type === 'ask/rejected' && f.askId === key)).toEqual({
        type: 'ask/rejected',
        askId: key,
        code: 'FORBIDDEN',
        reason: PHONE_ALWAYS_REFUSED,
      })
      // Nothing was written: the ask is still pending on every desk.
      expect(laptop.pending().map((ask) => ask.key)).toContain(key)
      bridge.decide(key, { behavior: 'allow' })
      await until(() => frames.some((f) => f.type === 'ask/accepted' && f.askId === key), 'the acceptance')
      expect(frames.find((f) => f.type === 'ask/accepted' && f.askId === key)).toEqual({
        type: 'ask/accepted',
        askId: key,
        outcome: 'decided',
      })
      expect(await decision).toEqual({ behavior: 'allow' })
    } finally {
      await bridge.close()
    }
  }, 60_000)

  it('another desk denies first: the phone shows "decided on laptop" and its own decision is not sent', async () => {
    const { bridge, frames } = await startPhone()
    try {
      const { decision, key } = await desktopMirrors('Denied elsewhere')
      await until(() => laptop.pending().some((ask) => ask.key === key), 'the approval on the laptop')
      await until(() => frames.some((f) => f.type === 'ask/added' && f.ask.askId === key), 'the approval on the phone')
      const deny = { behavior: 'deny' as const, message: 'never force-push main' }
      expect(await laptop.decide(key, deny)).toEqual({ won: true })
      expect(await decision).toEqual(deny)
      await until(() => frames.some((f) => f.type === 'ask/settled' && f.askId === key), 'the settlement')
      expect(frames.find((f) => f.type === 'ask/settled' && f.askId === key)).toEqual({
        type: 'ask/settled',
        askId: key,
        outcome: 'decided',
        answeredOn: 'laptop',
      })
    } finally {
      await bridge.close()
    }
  }, 60_000)
})
