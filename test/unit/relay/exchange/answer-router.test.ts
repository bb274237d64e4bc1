// One answer watch per asker and bucket (relay/exchange/answer-router.ts), against a real nats-server:
// asks on one link share it, each gets its own answer, and the watch replays no old answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RemoteAsker, type RemoteAsk, type RemoteAskEvent } from '../../../../relay/exchange'
import type { RelayLink, RelayDesk } from '../../../../relay/exchange'
import type { KvEntry } from '@nats-io/kv'
import { randomToken } from '../../../../relay/crypto'
import { AnswerRouter } from '../../../../relay/exchange/answer-router'
import { INBOX_BUCKET, inboxKey } from '../../../../relay/exchange/inbox-keys'
import { openBucket } from '../../../../relay/exchange/relay-kv'
import { natsServerSkipReason } from '../../../helpers/nats-server'
import { countRequests, startRelayWorld, startWorldDesk, until, type RelayWorld } from './relay-world'

const skip = natsServerSkipReason()
if (skip) console.log(`skipping relay answer-router tests: ${skip}`)

const question = (id: string) => [
  { id, question: `Go ahead with ${id}?`, options: [{ label: 'Yes' }, { label: 'No' }] },
]

describe.skipIf(skip)('answer router: one answer watch per asker (real nats-server)', () => {
  let world: RelayWorld
  let laptop: RelayDesk
  const desks: RelayDesk[] = []

  beforeAll(async () => {
    world = await startRelayWorld({ devices: ['laptop'], agents: ['devbox'] })
    laptop = await startWorldDesk(world, 'laptop', desks)
  }, 60_000)
  afterAll(async () => {
    for (const d of desks) d.close()
    await world?.close()
  })

  const askerOn = (link: RelayLink): RemoteAsker =>
    new RemoteAsker({ link, agent: world.members.get('devbox')!.keys, rootPublicKey: world.rootPublicKey })
  const listed = async (askId: () => string | undefined): Promise<RemoteAsk> => {
    await until(() => laptop.pending().some((ask) => ask.askId === askId()), 'the ask on the desk')
    return laptop.pending().find((ask) => ask.askId === askId())!
  }

  it('asks on one link share one watch, and each takes its own answer even when answered in reverse order', async () => {
    const link = await world.link('devbox')
    const creates = countRequests(
      link.nc,
      (subject) => subject.startsWith('$JS.API.CONSUMER.CREATE.KV_inbox.') && subject.includes('.$KV.inbox.a.devbox.'),
    )
    const agent = askerOn(link)
    const ids: Record<string, string> = {}
    const onEvent = (name: string) => (event: RemoteAskEvent) =>
      void (event.type === 'asked' && (ids[name] = event.askId))
    const first = agent.ask(question('first'), { onEvent: onEvent('first') })
    const firstAsk = await listed(() => ids.first)
    const second = agent.ask(question('second'), { onEvent: onEvent('second') })
    const secondAsk = await listed(() => ids.second)
    expect(creates.count()).toBe(1)
    // The later ask answered first: neither answer reaches the other ask.
    expect(await laptop.answer(secondAsk.key, [{ id: 'second', selected: ['No'] }])).toEqual({ won: true })
    expect(await second).toEqual({ answers: [{ id: 'second', selected: ['No'] }] })
    expect(await laptop.answer(firstAsk.key, [{ id: 'first', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await first).toEqual({ answers: [{ id: 'first', selected: ['Yes'] }] })
    // A third ask after both settled reuses the watch too.
    const third = agent.ask(question('third'), { onEvent: onEvent('third') })
    const thirdAsk = await listed(() => ids.third)
    expect(await laptop.answer(thirdAsk.key, [{ id: 'third', selected: ['Yes'] }])).toEqual({ won: true })
    expect(await third).toEqual({ answers: [{ id: 'third', selected: ['Yes'] }] })
    expect(creates.count()).toBe(1)
    await link.close()
  }, 60_000)

  it('a watch starts without the answers already stored (they stay in the bucket for days): the first value it routes is a new one', async () => {
    const admin = await world.admin()
    const link = await world.link('devbox')
    try {
      const askId = randomToken()
      const adminInbox = await openBucket(admin, INBOX_BUCKET)
      const key = inboxKey('a', 'devbox', askId)
      const old = await adminInbox.put(key, new TextEncoder().encode('stored before the watch'))
      const router = new AnswerRouter(link, await openBucket(link.nc, INBOX_BUCKET), 'devbox')
      const routed: KvEntry[] = []
      const stop = await router.listen(askId, (entry) => routed.push(entry), AbortSignal.timeout(15_000))
      const fresh = await adminInbox.put(key, new TextEncoder().encode('stored after'))
      await until(() => routed.length > 0, 'the new value to be routed')
      expect(routed[0]!.revision).toBe(fresh)
      expect(routed.map((entry) => entry.revision)).not.toContain(old)
      stop()
      router.close()
    } finally {
      await link.close()
      await admin.close()
    }
  }, 60_000)
})
