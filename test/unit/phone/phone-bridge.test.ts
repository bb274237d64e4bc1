// The phone's bridge against a real nats-server's WebSocket listener: a real agent asks (RemoteAsker),
// the phone lists it as UI v2 frames and answers it; a race lost to another desk says who won; the
// relay restarting and a fresh dial on wake both end in a new snapshot and a working inbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RelayDesk, RemoteAsker } from '../../../relay/exchange'
import type { BridgeStatus } from '../../../shared/bridge'
import type { UiServerFrame } from '../../../shared/ui'
import { createPhoneBridge } from '../../../phone/src/bridge/phone-bridge'
import type { PhoneRecord } from '../../../phone/src/home/phone-record'
import { phoneRecordOf } from '../../helpers/phone-record'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { nodeWsConnect } from '../../helpers/node-ws-connect'
import { startRelayWorld, until, type RelayWorld } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
const QUESTIONS = [{ id: 'go', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe.skipIf(skip)('the phone bridge over the relay WebSocket (real nats-server)', () => {
  let world: RelayWorld
  let laptop: RelayDesk

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['phone', 'laptop'], agents: ['ci-nightly'] })
    laptop = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
  }, 60_000)
  afterAll(async () => {
    laptop?.close()
    await world?.close()
  })

  const phoneRecord = (): PhoneRecord => phoneRecordOf(world, world.wsUrl)

  const startPhone = (
    wake?: (redial: () => void) => () => void,
    saveRecord?: (record: PhoneRecord) => Promise<void>,
  ) => {
    const frames: UiServerFrame[] = []
    const statuses: BridgeStatus[] = []
    const bridge = createPhoneBridge(phoneRecord(), {
      connect: nodeWsConnect,
      allowOutdatedLoopback: true,
      reconnectWaitMs: 100,
      retryMs: 200,
      ...(wake ? { wake } : {}),
      ...(saveRecord ? { saveRecord } : {}),
    })
    bridge.onFrame((frame) => frames.push(frame))
    bridge.onStatus((status) => statuses.push(status))
    return { bridge, frames, statuses }
  }

  const agentAsks = async () => {
    const asker = new RemoteAsker({
      link: await world.link('ci-nightly'),
      agent: world.members.get('ci-nightly')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    let askId: string | undefined
    const answer = asker.ask(QUESTIONS, { onEvent: (e) => void (e.type === 'asked' && (askId = e.askId)) })
    await until(() => askId !== undefined, 'the question to be written')
    return { answer, key: `q.ci-nightly.${askId!}` }
  }

  it("lists a real agent's ask as ask/added and answers it: ask/accepted, then the agent has the answer", async () => {
    const { bridge, frames, statuses } = startPhone()
    try {
      await until(() => statuses.includes('open'), 'the phone to connect', 30_000)
      expect(statuses[0]).toBe('connecting')
      await until(() => frames.some((f) => f.type === 'snapshot'), 'a snapshot')
      const { answer, key } = await agentAsks()
      await until(() => frames.some((f) => f.type === 'ask/added' && f.ask.askId === key), 'the ask on the phone')
      const added = frames.find((f) => f.type === 'ask/added' && f.ask.askId === key)
      expect(added).toMatchObject({
        type: 'ask/added',
        ask: {
          askId: key,
          kind: 'question',
          agent: { name: 'ci-nightly' },
          questions: QUESTIONS,
          origin: { kind: 'relay', agentId: world.members.get('ci-nightly')!.keys.member.id },
        },
      })
      bridge.answer(key, [{ id: 'go', selected: ['Yes'] }])
      await until(() => frames.some((f) => f.type === 'ask/accepted' && f.askId === key), 'the answer accepted')
      expect(frames.find((f) => f.type === 'ask/accepted' && f.askId === key)).toEqual({
        type: 'ask/accepted',
        askId: key,
        outcome: 'answered',
      })
      expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
      // The agent's receipt names the phone: settled without "answered on".
      await until(() => frames.some((f) => f.type === 'ask/settled' && f.askId === key), 'the receipt')
      expect(frames.find((f) => f.type === 'ask/settled' && f.askId === key)).toEqual({
        type: 'ask/settled',
        askId: key,
        outcome: 'answered',
      })
    } finally {
      await bridge.close()
    }
  }, 60_000)

  it('a race lost to the laptop settles the ask "answered on laptop" and never accepts the phone\'s answer', async () => {
    const { bridge, frames, statuses } = startPhone()
    try {
      await until(() => statuses.includes('open'), 'the phone to connect', 30_000)
      const { answer, key } = await agentAsks()
      await until(() => frames.some((f) => f.type === 'ask/added' && f.ask.askId === key), 'the ask on the phone')
      await until(() => laptop.pending().some((ask) => ask.key === key), 'the ask on the laptop')
      expect(await laptop.answer(key, [{ id: 'go', selected: ['No'] }])).toEqual({ won: true })
      bridge.answer(key, [{ id: 'go', selected: ['Yes'] }])
      await until(
        () => frames.some((f) => f.type === 'ask/settled' && f.askId === key && f.answeredOn === 'laptop'),
        'the lost race to show',
      )
      expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['No'] }] })
      expect(frames.some((f) => f.type === 'ask/accepted' && f.askId === key)).toBe(false)
    } finally {
      await bridge.close()
    }
  }, 60_000)

  it('refuses to decide or dismiss a remote ask (FORBIDDEN) and an unknown ask (NOT_PENDING)', async () => {
    const { bridge, frames, statuses } = startPhone()
    try {
      await until(() => statuses.includes('open'), 'the phone to connect', 30_000)
      bridge.dismiss('q.ci-nightly.none')
      bridge.answer('q.ci-nightly.none', [{ id: 'go', selected: ['Yes'] }])
      await until(() => frames.filter((f) => f.type === 'ask/rejected').length === 2, 'two refusals')
      expect(frames.filter((f) => f.type === 'ask/rejected').map((f) => f.type === 'ask/rejected' && f.code)).toEqual([
        'FORBIDDEN',
        'NOT_PENDING',
      ])
    } finally {
      await bridge.close()
    }
  }, 60_000)

  it('a wake dials a fresh connection (new snapshot); a relay restart shows unreachable, then open, and asks still arrive', async () => {
    let redial: (() => void) | undefined
    const { bridge, frames, statuses } = startPhone((fn) => {
      redial = fn
      return () => (redial = undefined)
    })
    try {
      await until(() => statuses.includes('open'), 'the phone to connect', 30_000)
      const snapshots = (): number => frames.filter((f) => f.type === 'snapshot').length
      const before = snapshots()
      redial!()
      await until(() => snapshots() > before, 'a snapshot after the fresh dial', 30_000)
      expect(statuses.slice(-2)).toEqual(['connecting', 'open'])

      const beforeRestart = snapshots()
      await world.killAndRestart()
      await until(() => statuses.includes('unreachable'), 'the status to say unreachable', 30_000)
      await until(() => statuses.at(-1) === 'open', 'the status to say open again', 30_000)
      await until(() => snapshots() > beforeRestart, 'a snapshot after the reconnect', 30_000)
      const { answer, key } = await agentAsks()
      await until(() => frames.some((f) => f.type === 'ask/added' && f.ask.askId === key), 'the ask after the restart')
      bridge.answer(key, [{ id: 'go', selected: ['Yes'] }])
      expect(await answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
    } finally {
      await bridge.close()
    }
  }, 120_000)

  it('stores a newer root-signed roster from the relay (bytes and highestRosterVersion) through saveRecord, and holds it as its record', async () => {
    const saved: PhoneRecord[] = []
    const { bridge, statuses } = startPhone(undefined, async (record) => void saved.push(record))
    try {
      await until(() => statuses.includes('open'), 'the phone to connect', 30_000)
      expect(saved).toEqual([])
      const opened = bridge.record()
      await world.publishRoster(2)
      await until(() => saved.length > 0, 'the record to be saved')
      expect(saved.at(-1)).toMatchObject({ highestRosterVersion: 2, natsName: 'phone' })
      // What the notifications button subscribes with: the newer record, not the one the page opened with.
      expect(bridge.record()).toBe(saved.at(-1))
      expect(bridge.record()).not.toBe(opened)
      expect(saved.at(-1)!.roster.bytes).not.toBe('AA')
      expect(saved.at(-1)!.roster.signature).toMatch(/^[A-Za-z0-9_-]{86}$/)
    } finally {
      await bridge.close()
    }
  }, 60_000)
})
