// One round of a remote ask before its write (RELAY.md §4.3): the newest roster read and verified, a
// fresh reply key, and the question sealed to the roster's answering members under its KV key.
import { newReplyKey, sealQuestion, type MemberKeys, type ReplyKey, type Roster, type SealedQuestion } from '../crypto'
import type { ApprovalRequest } from '../../shared/approval'
import type { Question } from '../../shared/tool-input'
import { RelayExchangeError } from './errors'
import { inboxKey } from './inbox-keys'
import { RemoteQuestionBodySchema } from './schemas'

/** What one remote ask asks: questions, or (a desktop mirroring a permission prompt) one approval. */
export type AskSubject = { questions: readonly Question[] } | { approval: ApprovalRequest }

/** One round of an ask: a question written under `askId` (a re-ask names the round before it). */
export interface AskRound {
  askId: string
  previousAskId: string | undefined
  subject: AskSubject
  title: string | undefined
  mirroredFor: string | undefined
  maxCustomChars: number | undefined
  expiresAt: number | undefined
}

/** What a round has once it may write: the roster it sealed to, its reply key, the sealed question. */
export interface PreparedRound {
  roster: Roster
  replyKey: ReplyKey
  sealed: SealedQuestion
}

/** Who asks: the agent's keys, the token its keys go under, and where the newest roster comes from. */
export interface RoundAsker {
  agent: MemberKeys
  token: string
  /** The newest roster (retrying until `signal` aborts), or the roster refusals. */
  newestRoster: (signal: AbortSignal) => Promise<Roster>
}

/**
 * Takes the newest roster (read, or followed: roster-follower.ts) while a fresh reply key is made, then seals
 * the round's question to the roster's answering members, bound to its key and the reply key. Throws
 * the roster refusals, `NO_RECIPIENTS`, or the signal's reason.
 */
export async function prepareRound(ask: AskRound, asker: RoundAsker, signal: AbortSignal): Promise<PreparedRound> {
  const [roster, replyKey] = await Promise.all([
    asker.newestRoster(signal),
    // Held in memory for this round only: once the ask settles nothing refers to it, and the answer
    // sealed to it (kept at most 10 minutes for a password) cannot be opened by anyone again.
    newReplyKey(),
  ])
  const body = RemoteQuestionBodySchema.parse({
    v: 1,
    ...('questions' in ask.subject ? { questions: ask.subject.questions } : { approval: ask.subject.approval }),
    title: ask.title,
    previousAskId: ask.previousAskId,
    expiresAt: ask.expiresAt,
    mirroredFor: ask.mirroredFor,
    maxCustomChars: ask.maxCustomChars,
  })
  const sealed = await sealQuestion({
    agent: asker.agent,
    roster,
    askId: ask.askId,
    kvKey: inboxKey('q', asker.token, ask.askId),
    replyKey: replyKey.publicKey,
    body: new TextEncoder().encode(JSON.stringify(body)),
  })
  return { roster, replyKey, sealed }
}

/**
 * Room left in one relay entry besides the sealed question: the message's subject and the KV headers
 * the server adds to a put.
 */
const ENTRY_HEADROOM_BYTES = 1_024

/**
 * Refuses (`ENTRY_TOO_LARGE`) a sealed question of `bytes` larger than the relay takes in one entry
 * (`maxPayload`: the server's `max_payload` as announced on connect), before anything is written: the
 * server would refuse the put anyway.
 */
export function refuseOversizedQuestion(bytes: number, maxPayload: number | undefined): void {
  if (maxPayload === undefined || bytes + ENTRY_HEADROOM_BYTES <= maxPayload) return
  throw new RelayExchangeError(
    'ENTRY_TOO_LARGE',
    `the sealed ask is ${bytes} bytes and the relay takes at most ${maxPayload - ENTRY_HEADROOM_BYTES} in one entry; it was not sent`,
  )
}
