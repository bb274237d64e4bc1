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
import type { Answer } from '../../shared/answer'
import { checkAnswer } from '../../shared/answer-rules'
import type { ApprovalDecision } from '../../shared/approval'
import { BUCKETS } from '../nats/templates'
import { answerBucketFor } from './answer-bucket'
import type { AnswerResult, DeskRefusal, RemoteAsk } from './desk-types'
import { RelayExchangeError } from './errors'
import { inboxKey, parseInboxKey } from './inbox-keys'
import { createEntryRetrying } from './relay-kv'
import type { RemoteAnswerBody } from './schemas'

/**
 * The answer frame for `answers` to the pending `ask`, checked against its questions and its asker's
 * `maxCustomChars` first. Throws `EXCHANGE_INVALID` (an approval, or the broken rules listed).
 */
export function answerFrame(ask: RemoteAsk, answers: Answer[]): RemoteAnswerBody {
  if (ask.approval !== undefined)
    throw new RelayExchangeError('EXCHANGE_INVALID', 'this ask is an approval: decide it (allow once or deny)')
  const violations = checkAnswer(ask.questions, { answers }, ask.maxCustomChars)
  if (violations.length > 0) {
    throw new RelayExchangeError(
      'EXCHANGE_INVALID',
      `the answer breaks the answer rules: ${violations.map((v) => `${v.code} (${v.message})`).join('; ')}`,
    )
  }
  return { v: 1, answers }
}

/**
 * The answer frame deciding the pending mirrored approval `ask`. Only allow once and deny travel: throws
 * `ALWAYS_NOT_REMOTE` for "always allow", `EXCHANGE_INVALID` for an ask with questions or a deny reason
 * longer than the asker takes.
 */
export function decisionFrame(ask: RemoteAsk, decision: ApprovalDecision): RemoteAnswerBody {
  if (ask.approval === undefined)
    throw new RelayExchangeError('EXCHANGE_INVALID', 'this ask has questions: answer them, it takes no decision')
  if (decision.behavior === 'allow' && decision.always === true)
    throw new RelayExchangeError(
      'ALWAYS_NOT_REMOTE',
      '"always allow" is decided only on the machine whose permissions it changes; allow once or deny here',
    )
  const reason = decision.behavior === 'deny' ? (decision.message?.length ?? 0) : 0
  if (ask.maxCustomChars !== undefined && reason > ask.maxCustomChars)
    throw new RelayExchangeError(
      'EXCHANGE_INVALID',
      `the reason is ${reason} characters and the asker takes at most ${ask.maxCustomChars}; shorten it`,
    )
  return { v: 1, decision }
}

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
