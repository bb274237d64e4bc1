// The relay round trips taken apart (bench/relay.ts): each relay operation and each crypto step of an
// ask and its answer, timed alone on the same relay, so a change to the chain is judged by where the
// time goes rather than guessed. Each step is the p50 over `samples` runs, in ms.
import type { KvEntry } from '@nats-io/kv'
import { performance } from 'node:perf_hooks'
import {
  acceptAnswer,
  newReplyKey,
  openQuestion,
  randomToken,
  sealAnswer,
  sealQuestion,
  signReceipt,
} from '../relay/crypto'
import { INBOX_BUCKET, inboxKey } from '../relay/exchange'
import { createEntry, openBucket, readEntry, RenewingWatch } from '../relay/exchange/relay-kv'
import { RosterPin, ROSTER_BUCKET } from '../relay/exchange/roster-source'
import type { RelayWorld } from '../test/unit/relay/exchange/relay-world'
import { median } from './stats'

/** The steps, in the order an ask and its answer take them. */
export const RELAY_STEPS = [
  'roster read + verify',
  'reply key',
  'seal question',
  'answer watch start (consumer create)',
  'question create()',
  'create() → delivered to a running watch',
  'receipt read (none stored)',
  'open question',
  'seal answer',
  'accept answer',
  'receipt sign + create()',
] as const
export type RelayStep = (typeof RELAY_STEPS)[number]

/** Times every step `samples` times as `agentName` and `deskName` of `world`; the p50 of each. */
export async function relaySteps(
  world: RelayWorld,
  agentName: string,
  deskName: string,
  samples: number,
): Promise<Record<RelayStep, number>> {
  const agent = world.members.get(agentName)!.keys
  const desk = world.members.get(deskName)!.keys
  const agentLink = await world.link(agentName)
  const deskLink = await world.link(deskName)
  const agentInbox = await openBucket(agentLink.nc, INBOX_BUCKET)
  const deskInbox = await openBucket(deskLink.nc, INBOX_BUCKET)
  const rosterKv = await openBucket(agentLink.nc, ROSTER_BUCKET)
  const pin = new RosterPin(world.rootPublicKey)
  const times = new Map<RelayStep, number[]>(RELAY_STEPS.map((step) => [step, []]))
  const timed = async <T>(step: RelayStep, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now()
    const result = await work()
    times.get(step)!.push(performance.now() - t0)
    return result
  }
  let delivered: ((entry: KvEntry) => void) | undefined
  const deskWatch = await RenewingWatch.start(
    deskLink,
    deskInbox,
    `q.${agentName}.*`,
    (entry) => delivered?.(entry),
    AbortSignal.timeout(10_000),
  )
  try {
    for (let i = 0; i < samples; i++) {
      const askId = randomToken()
      const questionKey = inboxKey('q', agentName, askId)
      const answerKey = inboxKey('a', agentName, askId)
      const roster = await timed('roster read + verify', () => pin.fetch(rosterKv))
      const replyKey = await timed('reply key', () => newReplyKey())
      const body = new TextEncoder().encode(JSON.stringify({ v: 1, questions: [] }))
      const sealed = await timed('seal question', () =>
        sealQuestion({ agent, roster, askId, kvKey: questionKey, replyKey: replyKey.publicKey, body }),
      )
      const watch = await timed('answer watch start (consumer create)', () =>
        RenewingWatch.start(agentLink, agentInbox, answerKey, () => undefined, AbortSignal.timeout(10_000)),
      )
      watch.stop()
      // The question's own write is timed twice: alone, and until a running watch delivers it.
      const seen = new Promise<KvEntry>((resolve) => (delivered = resolve))
      const t0 = performance.now()
      await timed('question create()', () => createEntry(agentLink.nc, INBOX_BUCKET, questionKey, sealed.bytes))
      const entry = await seen
      times.get('create() → delivered to a running watch')!.push(performance.now() - t0)
      await timed('receipt read (none stored)', () => readEntry(deskInbox, inboxKey('r', agentName, askId)))
      const opened = await timed('open question', () =>
        openQuestion(entry.value, { device: desk, roster, kvKey: questionKey }),
      )
      const answer = await timed('seal answer', () =>
        sealAnswer({
          device: desk,
          replyKey: opened.header.replyKey,
          kvKey: answerKey,
          askId,
          qHash: opened.qHash,
          body: new TextEncoder().encode(JSON.stringify({ v: 1, answers: [] })),
        }),
      )
      await timed('accept answer', () =>
        acceptAnswer(answer, { replyKey: replyKey.recipient, roster, askId, kvKey: answerKey, qHash: sealed.qHash }),
      )
      const receiptKey = inboxKey('r', agentName, askId)
      await timed('receipt sign + create()', async () =>
        createEntry(
          agentLink.nc,
          INBOX_BUCKET,
          receiptKey,
          await signReceipt(agent, { askId, kvKey: receiptKey, outcome: 'withdrawn' }),
        ),
      )
    }
  } finally {
    deskWatch.stop()
    await agentLink.close()
    await deskLink.close()
  }
  return Object.fromEntries(RELAY_STEPS.map((step) => [step, median(times.get(step)!)])) as Record<RelayStep, number>
}
