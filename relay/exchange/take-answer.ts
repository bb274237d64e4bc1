// How the agent takes one stored answer (RELAY.md §4.4): signed by a device of the newest roster it can
// read, bound to the ask, its answer key and the question's hash, sealed to the round's reply key, and
// within the answer rules of the questions asked. Anything else is refused, never taken.
import type { KV } from '@nats-io/kv'
import { acceptAnswer, isRelayCryptoError, type AcceptedAnswer, type ReplyKey, type Roster } from '../crypto'
import { acceptAnswer as checkAgainstQuestions, type CheckedAnswer } from '../../shared/answer-rules'
import type { Question } from '../../shared/tool-input'
import type { RosterPin } from './roster-source'
import { RemoteAnswerBodySchema } from './schemas'

/** The answer body is not an answer, or breaks the answer rules of the questions asked. */
export class AnswerRulesError extends Error {}

/** True for a refusal of the answer itself (relay/crypto's, or the answer rules'), as opposed to a fault. */
export function isAnswerRefusal(error: unknown): error is Error {
  return isRelayCryptoError(error) || error instanceof AnswerRulesError
}

/** What taking an answer checks it against. */
export interface AnswerCheck {
  pin: RosterPin
  rosterKv: KV
  /** The roster the question was sealed to: used when no roster can be read now. */
  roster: Roster
  replyKey: ReplyKey['privateKey']
  askId: string
  kvKey: string
  qHash: string
  questions: readonly Question[]
  maxCustomChars: number | undefined
}

/**
 * Takes the answer `value`: resolves with the checked answer and the device that signed it, or rejects
 * with relay/crypto's refusal or an {@link AnswerRulesError}. A device removed since the ask was sealed
 * must not answer it, so the device is checked against the newest roster read now; the read and the
 * verification against the roster already held run at once, and a read that brings a different roster
 * verifies again against it.
 */
export async function takeAnswer(
  value: Uint8Array,
  check: AnswerCheck,
): Promise<{ answer: CheckedAnswer; accepted: AcceptedAnswer }> {
  const held = check.pin.current ?? check.roster
  const accept = (roster: Roster): Promise<AcceptedAnswer> =>
    acceptAnswer(value, {
      replyKey: check.replyKey,
      roster,
      askId: check.askId,
      kvKey: check.kvKey,
      qHash: check.qHash,
    })
  const [newest, early] = await Promise.all([
    check.pin.fetch(check.rosterKv).catch(() => held),
    accept(held).then(
      (accepted) => ({ accepted }),
      (error: unknown) => ({ error }),
    ),
  ])
  let accepted: AcceptedAnswer
  if (newest !== held) accepted = await accept(newest)
  else if ('error' in early) throw early.error
  else accepted = early.accepted
  return { answer: checkedAnswer(accepted.body, check.questions, check.maxCustomChars), accepted }
}

/** The answer body, parsed and checked against the asked questions (an `AnswerRulesError` otherwise). */
function checkedAnswer(
  body: Uint8Array,
  questions: readonly Question[],
  maxCustomChars = Number.POSITIVE_INFINITY,
): CheckedAnswer {
  let data: unknown
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body))
  } catch {
    data = undefined
  }
  const parsed = RemoteAnswerBodySchema.safeParse(data)
  if (!parsed.success) throw new AnswerRulesError('the answer body is not an answer; asking again')
  const check = checkAgainstQuestions(questions, { answers: parsed.data.answers }, maxCustomChars)
  if (!check.ok)
    throw new AnswerRulesError(
      `the answer breaks the answer rules (${check.violations.map((v) => v.code).join(', ')}); asking again`,
    )
  return check.answer
}
