// How a desk writes its answer: sealed to the ask's reply key, created on the answer key (first answer
// wins), and, when another answer was first, who won, read from the stored answer and verified.
import type { KV } from '@nats-io/kv'
import type { NatsConnection } from '@nats-io/nats-core'
import {
  isRelayCryptoError,
  sealAnswer,
  verifyAnswerOrigin,
  type MemberKeys,
  type QuestionHeader,
  type Roster,
} from '../crypto'
import { BUCKETS } from '../nats/templates'
import { answerBucketFor } from './answer-bucket'
import type { AnswerResult, DeskRefusal, RemoteAsk } from './desk-types'
import { inboxKey, parseInboxKey } from './inbox-keys'
import { createEntryRetrying } from './relay-kv'
import type { RemoteAnswerBody } from './schemas'

/** What writing an answer needs from its desk. */
export interface AnswerTarget {
  nc: NatsConnection
  device: MemberKeys
  inbox: KV
  /** The bucket for answers to password asks (answer-bucket.ts). */
  secret: KV
  /** The roster as it is once the write landed (a newer one may have arrived meanwhile). */
  roster: () => Roster
  onRefused: (refusal: DeskRefusal) => void
}

/**
 * Seals `body` (answers already checked against the answer rules, or a decision) for the pending ask `key` and creates the
 * answer key, retrying through outages until `signal` aborts. Resolves `won`, the verified winner, or
 * an alarm when the stored answer does not verify (reported through `onRefused`).
 */
export async function writeAnswer(
  target: AnswerTarget,
  key: string,
  entry: { ask: RemoteAsk; header: QuestionHeader; qHash: string },
  body: RemoteAnswerBody,
  signal: AbortSignal,
): Promise<AnswerResult> {
  // The asker's key token, not its shown name: a mirrored ask is shown as "<agent> on <desktop>".
  const answerKey = inboxKey('a', parseInboxKey(key)!.agent, entry.ask.askId)
  const bucket = answerBucketFor(entry.ask.questions)
  const bytes = await sealAnswer({
    device: target.device,
    replyKey: entry.header.replyKey,
    kvKey: answerKey,
    askId: entry.ask.askId,
    qHash: entry.qHash,
    body: new TextEncoder().encode(JSON.stringify(body)),
  })
  const written = await createEntryRetrying(
    target.nc,
    { name: bucket, kv: bucket === BUCKETS.secret ? target.secret : target.inbox },
    answerKey,
    bytes,
    signal,
  )
  if (written.created) return { won: true }
  try {
    const origin = await verifyAnswerOrigin(written.stored.value, {
      roster: target.roster(),
      askId: entry.ask.askId,
      kvKey: answerKey,
      qHash: entry.qHash,
    })
    return { won: false, winner: origin.device }
  } catch (error) {
    if (!isRelayCryptoError(error)) throw error
    target.onRefused({ key: answerKey, code: error.code, message: error.message })
    return { won: false, winner: undefined, alarm: error.code }
  }
}
