// How the agent takes one stored answer (RELAY.md §4.4): signed by a device of the newest roster it can
// read, bound to the ask, its answer key and the question's hash, and sealed to the round's reply key.
// Anything else is refused, never taken. What the body must say (answers within the rules, or a
// decision) is the asker's check afterwards (answer-checks.ts).
import type { KV, KvEntry } from '@nats-io/kv'
import {
  acceptAnswer,
  isRelayCryptoError,
  type AcceptedAnswer,
  type Member,
  type RelayCryptoError,
  type ReplyKey,
  type Roster,
} from '../crypto'
import { AnswerRulesError } from './answer-checks'
import type { EntryQueue } from './entry-queue'
import type { RosterPin } from './roster-source'

/** True for a refusal of the answer itself (relay/crypto's, or the answer rules'), as opposed to a fault. */
export function isAnswerRefusal(error: unknown): error is RelayCryptoError | AnswerRulesError {
  return isRelayCryptoError(error) || error instanceof AnswerRulesError
}

/** What taking an answer checks it against. */
export interface AnswerCheck {
  pin: RosterPin
  rosterKv: KV
  /** The roster the question was sealed to: used when no roster can be read now. */
  roster: Roster
  replyKey: ReplyKey['recipient']
  askId: string
  kvKey: string
  qHash: string
}

/**
 * Takes the answer `value`: resolves with the opened answer and the device that signed it, or rejects
 * with relay/crypto's refusal. A device removed since the ask was sealed must not answer it, so the
 * device is checked against the newest roster read now; the read and the verification against the
 * roster already held run at once, and a read that brings a different roster verifies again against it.
 */
export async function takeAnswer(value: Uint8Array, check: AnswerCheck): Promise<{ accepted: AcceptedAnswer }> {
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
  if (newest !== held) return { accepted: await accept(newest) }
  if ('error' in early) throw early.error
  return { accepted: early.accepted }
}

/** The first answer on a round's key: taken (and turned into what the caller gets), or the refusal that spoiled the key. */
export type FirstAnswer<T> = { answer: T; device: Member } | { refusal: RelayCryptoError | AnswerRulesError }

/**
 * Waits for the first value on the round's answer key (`answers`, de-duplicated by revision) and takes it
 * with {@link takeAnswer} and then `take` (the answer rules). The key holds one value and cannot be emptied:
 * the first decides the round, whether it verifies or not. Rejects with `signal`'s reason, or a fault.
 */
export async function firstAnswer<T>(
  answers: EntryQueue<KvEntry>,
  check: AnswerCheck,
  take: (body: Uint8Array) => T,
  signal: AbortSignal,
): Promise<FirstAnswer<T>> {
  const seen = new Set<number>()
  for (;;) {
    const entry = await answers.next(signal)
    if (seen.has(entry.revision)) continue
    seen.add(entry.revision)
    try {
      const { accepted } = await takeAnswer(entry.value, check)
      return { answer: take(accepted.body), device: accepted.device }
    } catch (error) {
      if (!isAnswerRefusal(error)) throw error
      return { refusal: error }
    }
  }
}
