// What the phone's desk refuses to show from the relay becomes a "Relay alarm" notice on the phone, as
// the renderer shows notices on the desktop: against a real nats-server, an agent's credential writes a
// question signed by another agent (a forgery the relay could pass on). The alarm is raised once per
// entry (a fresh dial meets the same entry again), every snapshot carries it, and clearing it removes it.
import { jetstream } from '@nats-io/jetstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPhoneBridge } from '../../../phone/src/bridge/phone-bridge'
import { newReplyKey, randomToken, sealQuestion } from '../../../relay/crypto'
import { inboxKey } from '../../../relay/exchange/inbox-keys'
import type { InboxNotice } from '../../../shared/ask'
import type { UiServerFrame } from '../../../shared/ui'
import { natsServerSkipReason } from '../../helpers/nats-server'
import { nodeWsConnect } from '../../helpers/node-ws-connect'
import { phoneRecordOf } from '../../helpers/phone-record'
import { startRelayWorld, until, type RelayWorld } from '../relay/exchange/relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping the phone's relay alarm notices: ${skip}`)
const QUESTIONS = [{ id: 'go', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe.skipIf(skip)("the phone's relay alarms as notices (real nats-server)", () => {
  let world: RelayWorld

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['phone'], agents: ['devbox', 'forger'] })
  }, 60_000)
  afterAll(async () => {
    await world?.close()
  })

  /** Writes, with the forger's credential, a question signed by devbox; returns its key. */
  const forgeQuestion = async (): Promise<string> => {
    const askId = randomToken()
    const key = inboxKey('q', 'forger', askId)
    const sealed = await sealQuestion({
      agent: world.members.get('devbox')!.keys,
      roster: world.roster,
      askId,
      kvKey: key,
      replyKey: (await newReplyKey()).publicKey,
      body: new TextEncoder().encode(JSON.stringify({ v: 1, questions: QUESTIONS })),
    })
    const link = await world.link('forger')
    await jetstream(link.nc, { checkAPI: false }).publish(`$KV.inbox.${key}`, sealed.bytes, {
      expect: { lastSubjectSequence: 0 },
    })
    return key
  }

  it('raises one "Relay alarm" notice for a forged question, keeps it in snapshots, and clears it', async () => {
    const key = await forgeQuestion()
    const frames: UiServerFrame[] = []
    let redial!: () => void
    const bridge = createPhoneBridge(phoneRecordOf(world, world.wsUrl), {
      connect: nodeWsConnect,
      allowOutdatedLoopback: true,
      retryMs: 200,
      wake: (again) => ((redial = again), () => undefined),
      now: () => 1_700_000_000_000,
    })
    try {
      bridge.onFrame((frame) => frames.push(frame))
      const added = (): InboxNotice[] =>
        frames.flatMap((frame) => (frame.type === 'notice/added' ? [frame.notice] : []))
      const snapshots = () => frames.filter((frame) => frame.type === 'snapshot')
      await until(() => added().length > 0 && snapshots().length > 0, 'the alarm and a snapshot')
      const alarm = added()[0]!
      expect(alarm).toEqual({
        noticeId: expect.any(String),
        agent: { name: 'Relay' },
        title: 'Relay alarm',
        notice: {
          kind: 'info',
          text: `Alarm: the relay held something this desk refused to show (${key}, EXCHANGE_INVALID): the question is signed by agent "devbox" but stored under "forger"; ignoring it`,
        },
        receivedAt: 1_700_000_000_000,
      })
      // A fresh dial reads the same forged entry again: its snapshot keeps the alarm (a snapshot replaces
      // the window's notices) and raises no second one. The desk reads in stream order, so once a newer
      // forgery's alarm is in, the old entry has been met again.
      const before = snapshots().length
      redial()
      await until(() => snapshots().length > before, 'the snapshot of the fresh dial')
      expect(snapshots().at(-1)).toMatchObject({ pending: [], notices: [alarm] })
      const second = await forgeQuestion()
      await until(() => added().some((notice) => notice.notice.text.includes(second)), 'the second alarm')
      expect(added().map((notice) => notice.notice.text.includes(key))).toEqual([true, false])

      bridge.dismissNotice(alarm.noticeId)
      expect(frames.at(-1)).toEqual({ type: 'notice/removed', noticeId: alarm.noticeId })
      redial()
      const cleared = snapshots().length
      await until(() => snapshots().length > cleared, 'the snapshot after clearing')
      expect(snapshots().at(-1)).toMatchObject({ notices: [added()[1]] })
    } finally {
      await bridge.close()
    }
  })
})
