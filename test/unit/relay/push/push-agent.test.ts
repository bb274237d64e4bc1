// An agent's pushes through a real relay and the push service stand-in: the ask wakes the phone with a
// verified notice, the answer replaces it with "Answered on <device>", and a subscription the push
// service calls gone (410) is reported, signed, in the ask's receipt, which the desk passes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  RelayDesk,
  RemoteAsker,
  type RemoteAsk,
  type RemoteAskEvent,
  type RemoteAskSettled,
} from '../../../../relay/exchange'
import { endpointHash } from '../../../../relay/push/notifier'
import { openNotice } from '../../../../relay/push/notice'
import { sealPushSection } from '../../../../relay/push/section'
import { generateVapidKeys } from '../../../../relay/push/vapid'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import {
  pushServiceSkipReason,
  startPushService,
  type PushService,
  type StandInSubscription,
} from '../../../helpers/push-service'
import { WAIT_MS } from '../../../helpers/waits'
import { nextEvent, startRelayWorld, type RelayWorld } from '../exchange/relay-world'

const skip = natsServerSkipReason() ?? pushServiceSkipReason()
if (skip) console.log(`skipping the agent push test: ${skip}`)

const QUESTIONS = [{ id: 'go', question: 'Ship the release?', options: [{ label: 'Yes' }, { label: 'No' }] }]

describe.skipIf(skip)('an agent wakes the phones through the relay', () => {
  let service: PushService
  let world: RelayWorld
  let live: StandInSubscription
  let expired: StandInSubscription
  const desks: RelayDesk[] = []

  beforeAll(async () => {
    service = await startPushService()
    const vapid = generateVapidKeys()
    live = await service.subscribe(vapid.publicKey)
    expired = await service.subscribe(vapid.publicKey)
    await service.expire(expired.clientHash)
    world = await startRelayWorld({
      devices: ['laptop', 'phone', 'old-tablet'],
      agents: ['ci-nightly'],
      push: (members, keys) =>
        sealPushSection(members, {
          v: 1,
          vapid,
          subject: 'mailto:test@example.org',
          subscriptions: [
            { device: keys.get('phone')!.keys.member.id, subscription: live },
            { device: keys.get('old-tablet')!.keys.member.id, subscription: expired },
          ],
        }),
    })
  }, 60_000)
  afterAll(async () => {
    for (const desk of desks) desk.close()
    await world?.close()
    await service?.stop()
  })

  it('ask → push verified on the phone; answer → silent replacement; 410 → in the signed receipt', async () => {
    const laptop = await RelayDesk.start({
      link: await world.link('laptop'),
      device: world.members.get('laptop')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    desks.push(laptop)
    const agent = new RemoteAsker({
      link: await world.link('ci-nightly'),
      agent: world.members.get('ci-nightly')!.keys,
      rootPublicKey: world.rootPublicKey,
    })
    const events: RemoteAskEvent[] = []
    let pushedAsk!: () => void
    const pushed = new Promise<void>((resolve) => (pushedAsk = resolve))
    const answer = agent.ask(QUESTIONS, {
      onEvent: (event) => {
        events.push(event)
        if (event.type === 'pushed' && event.kind === 'ask') pushedAsk()
      },
    })
    const ask = await nextEvent<RemoteAsk>(
      (l) => laptop.onAdded(l),
      () => true,
      WAIT_MS,
    )
    // The receipt can only report what the pushes found before it: wait for them (an ask never does).
    await pushed
    expect(events.find((event) => event.type === 'pushed')).toEqual({
      type: 'pushed',
      askId: ask.askId,
      kind: 'ask',
      accepted: 1,
      gone: 1,
    })
    const settled = nextEvent<RemoteAskSettled>(
      (l) => laptop.onSettled(l),
      (s) => s.key === ask.key,
      WAIT_MS,
    )
    expect(await laptop.answer(ask.key, [{ id: 'go', selected: ['Yes'] }])).toEqual({ won: true })
    await answer
    expect((await settled).pushGone).toEqual([
      { device: world.members.get('old-tablet')!.keys.member.id, endpoint: await endpointHash(expired.endpoint) },
    ])

    const phone = world.members.get('phone')!.keys
    let messages: string[] = []
    await expect
      .poll(async () => (messages = await service.messages(live.clientHash)).length, { timeout: WAIT_MS })
      .toBe(2)
    const [asked, answered] = await Promise.all(
      messages.map((text) => openNotice(phone, world.roster, new TextEncoder().encode(text))),
    )
    expect(asked).toMatchObject({
      verified: true,
      notice: { kind: 'ask', askId: ask.askId, kvKey: ask.key, title: 'Ship the release?' },
    })
    expect(answered).toMatchObject({
      verified: true,
      notice: { kind: 'settled', askId: ask.askId, answeredOn: 'laptop' },
    })
  })
})
