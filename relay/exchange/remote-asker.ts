// The agent end of one remote ask (RELAY.md §4.3, §4.4): seal the question to every answering member of
// the verified roster, listen for this ask's answer (one watch per link: answer-router.ts), write the
// question with create(), take the first answer in stream order that verifies, and tell the devices the
// outcome with a receipt.
import type { KV, KvEntry } from '@nats-io/kv'
import { randomToken, signReceipt, type MemberKeys, type Receipt } from '../crypto'
import type { CheckedAnswer } from '../../shared/answer-rules'
import { approvalSummary, type ApprovalDecision, type ApprovalRequest } from '../../shared/approval'
import { checkedAnswer, checkedDecision } from './answer-checks'
import { prepareRound, refuseOversizedQuestion, type AskRound, type AskSubject, type PreparedRound } from './ask-round'
import { AskPushes } from '../push/ask-pushes'
import type { Question } from '../../shared/tool-input'
import { BUCKETS } from '../nats/templates'
import { answerBucketFor } from './answer-bucket'
import { EntryQueue } from './entry-queue'
import { RelayExchangeError } from './errors'
import { INBOX_BUCKET, inboxKey } from './inbox-keys'
import { AnswerRouter } from './answer-router'
import { createEntryRetrying, openBucket } from './relay-kv'
import { PresenceBeacon } from './presence'
import type { RelayLink } from './relay-link'
import { RosterFollower } from './roster-follower'
import { RosterPin } from './roster-source'
import { firstAnswer } from './take-answer'
import { MAX_REASKS, RECEIPT_WRITE_MS, type RemoteAskerOptions, type RemoteAskOptions } from './remote-ask-types'

export {
  MAX_REASKS,
  RECEIPT_WRITE_MS,
  type RemoteAskerOptions,
  type RemoteAskEvent,
  type RemoteAskOptions,
} from './remote-ask-types'

type RoundOutcome<T> = { answered: true; answer: T } | { answered: false }

/** Turns a verified answer body into what the caller gets, or throws {@link AnswerRulesError}. */
type TakeAnswer<T> = (body: Uint8Array) => T

/**
 * Asks through the relay as one agent. Never answers for the person: `ask` resolves only with answers a
 * device of the root-signed roster signed for this exact ask, checked against the answer rules.
 */
export class RemoteAsker {
  readonly #link: RelayLink
  readonly #agent: MemberKeys
  readonly #pin: RosterPin
  readonly #rosterFollower: RosterFollower
  readonly #now: () => number
  readonly #token: string
  readonly #presence: PresenceBeacon
  readonly #pushes: AskPushes
  #buckets: Promise<{ inbox: KV; roster: KV; secret: KV }> | undefined
  /** One shared answer watch per bucket, for as long as this asker lives (answer-router.ts). */
  readonly #answerRouters = new Map<KV, AnswerRouter>()

  constructor(options: RemoteAskerOptions) {
    this.#link = options.link
    this.#agent = options.agent
    this.#now = options.now ?? Date.now
    this.#token = options.keyToken ?? options.agent.member.name
    this.#presence = new PresenceBeacon(options.link, options.agent, this.#token, options.presenceRefreshMs, this.#now)
    this.#pushes = new AskPushes(options.agent, this.#now)
    this.#pin = new RosterPin(options.rootPublicKey, {
      highestSeenVersion: options.highestSeenRosterVersion,
      now: this.#now,
    })
    this.#rosterFollower = new RosterFollower(options.link, this.#pin)
  }

  /** The highest roster version accepted so far (to keep across runs against rollback). */
  get rosterVersion(): number | undefined {
    return this.#pin.current?.version
  }

  /**
   * Asks `questions` (validated where they entered) and resolves with the person's checked answers, the
   * same shape the local client returns. Keeps waiting through relay outages. Rejects with
   * `ASK_WITHDRAWN` (signal), `ASK_TIMEOUT` / `RELAY_LOST` (timeout while the relay was up / down),
   * `ANSWER_KEY_SPOILED`, `RELAY_DENIED`, `ROSTER_MISSING`, or relay/crypto's roster refusals
   * (`ROSTER_EXPIRED`, `ROSTER_ROLLBACK`, `ROSTER_SIGNATURE`, `NO_RECIPIENTS`).
   */
  async ask(questions: readonly Question[], options: RemoteAskOptions = {}): Promise<CheckedAnswer> {
    return this.#askRounds({ questions }, options, (body) => checkedAnswer(body, questions, options.maxCustomChars))
  }

  /**
   * Asks for a decision on `approval` (a mirrored permission prompt; only a desktop asks one, with
   * `mirroredFor`) and resolves with the person's decision: allow once or deny (with the reason they
   * gave). An "always allow" answer is refused (`answer-refused` with `ALWAYS_NOT_REMOTE`) and the
   * approval asked again, as for any answer that breaks the rules: nothing is decided by it. Rejects as
   * {@link ask} does, and with `ENTRY_TOO_LARGE` when the sealed approval does not fit one relay entry.
   */
  async askApproval(approval: ApprovalRequest, options: RemoteAskOptions = {}): Promise<ApprovalDecision> {
    return this.#askRounds({ approval }, options, (body) => checkedDecision(body, options.maxCustomChars))
  }

  async #askRounds<T>(subject: AskSubject, options: RemoteAskOptions, take: TakeAnswer<T>): Promise<T> {
    const stop = new AbortController()
    const withdraw = (): void =>
      stop.abort(new RelayExchangeError('ASK_WITHDRAWN', 'the ask was withdrawn before anyone answered'))
    if (options.signal?.aborted) withdraw()
    options.signal?.addEventListener('abort', withdraw, { once: true })
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => stop.abort(this.#timeoutError(options.timeoutMs!)),
            Math.min(options.timeoutMs, 2_147_483_647),
          )
    const expiresAt = options.timeoutMs === undefined ? undefined : this.#now() + options.timeoutMs
    // Desks mark the ask "agent unreachable" when these refreshes stop; the ask stays answerable.
    const releasePresence = this.#presence.hold()
    try {
      let askId = options.askId ?? randomToken()
      let previousAskId: string | undefined
      for (let round = 0; round <= MAX_REASKS; round++) {
        const outcome = await this.#askOnce(
          {
            askId,
            previousAskId,
            subject,
            title: options.title,
            mirroredFor: options.mirroredFor,
            maxCustomChars: options.maxCustomChars,
            expiresAt,
          },
          stop.signal,
          options.onEvent,
          take,
        )
        if (outcome.answered) return outcome.answer
        const next = randomToken()
        await this.#writeReceipt(askId, { outcome: 'reasked', next }, options.onEvent)
        previousAskId = askId
        askId = next
      }
      throw new RelayExchangeError(
        'ANSWER_KEY_SPOILED',
        `answers that could not be verified took the answer key ${MAX_REASKS + 1} times; check the devices in the roster`,
      )
    } finally {
      releasePresence()
      if (timer) clearTimeout(timer)
      options.signal?.removeEventListener('abort', withdraw)
    }
  }

  /**
   * Withdraws a question of this asker's that nobody waits for any more (its asker ended without a
   * receipt: a crash): writes its `withdrawn` receipt, so every desk drops it. Best effort, like every receipt.
   */
  async withdrawStale(askId: string): Promise<void> {
    await this.#writeReceipt(askId, { outcome: 'withdrawn' }, undefined)
  }

  #timeoutError(timeoutMs: number): RelayExchangeError {
    const after = `${Math.round(timeoutMs / 100) / 10} s`
    return this.#link.up
      ? new RelayExchangeError('ASK_TIMEOUT', `nobody answered within ${after}; the ask was marked expired`)
      : new RelayExchangeError(
          'RELAY_LOST',
          `the relay was lost and still unreachable after ${after}; the question stays on the relay until it expires`,
        )
  }

  #openBuckets(): Promise<{ inbox: KV; roster: KV; secret: KV }> {
    this.#buckets ??= Promise.all([
      openBucket(this.#link.nc, INBOX_BUCKET),
      openBucket(this.#link.nc, BUCKETS.roster),
      openBucket(this.#link.nc, BUCKETS.secret),
    ]).then(([inbox, roster, secret]) => ({ inbox, roster, secret }))
    return this.#buckets
  }

  async #askOnce<T>(
    ask: AskRound,
    signal: AbortSignal,
    onEvent: RemoteAskOptions['onEvent'],
    take: TakeAnswer<T>,
  ): Promise<RoundOutcome<T>> {
    const { inbox, roster: rosterKv, secret } = await this.#openBuckets()
    const questions = 'questions' in ask.subject ? ask.subject.questions : []
    // A password's answer waits in the short-lived `secret` bucket, never in `inbox` (answer-bucket.ts).
    const answerBucket = answerBucketFor(questions) === BUCKETS.secret ? secret : inbox
    const name = this.#token
    const questionKey = inboxKey('q', name, ask.askId)
    const answerKey = inboxKey('a', name, ask.askId)
    const answers = new EntryQueue<KvEntry>()
    let stopListening: (() => void) | undefined
    try {
      // The ask listens for its answer while the roster is read and the question sealed: neither waits
      // for the other, and both are done before the write (RELAY.md §4.3: the watch must be there before
      // the question is, so no answer can come before it). A failure of either stops the other.
      const stopStart = new AbortController()
      const startSignal = AbortSignal.any([signal, stopStart.signal])
      const listening = this.#answerRouter(answerBucket).listen(ask.askId, (entry) => answers.push(entry), startSignal)
      listening.catch((error: unknown) => stopStart.abort(error))
      let prepared: PreparedRound
      try {
        prepared = await prepareRound(
          ask,
          {
            agent: this.#agent,
            token: this.#token,
            newestRoster: (rosterSignal) => this.#rosterFollower.newest(rosterKv, rosterSignal),
          },
          startSignal,
        )
      } catch (error) {
        stopStart.abort(error)
        await listening.then(
          (stop) => stop(),
          () => undefined,
        )
        throw error
      }
      stopListening = await listening
      const { roster, replyKey, sealed } = prepared
      refuseOversizedQuestion(sealed.bytes.byteLength, this.#link.nc.info?.max_payload)
      const written = await createEntryRetrying(
        this.#link.nc,
        { name: INBOX_BUCKET, kv: inbox },
        questionKey,
        sealed.bytes,
        signal,
      )
      if (!written.created)
        throw new RelayExchangeError(
          'EXCHANGE_INVALID',
          'another question already holds this ask id; asking under a fresh one',
        )
      onEvent?.({ type: 'asked', askId: ask.askId, ...(ask.previousAskId ? { previousAskId: ask.previousAskId } : {}) })
      // The question's own words, cut short: sealed to each phone, shown only once the phone verified the sender.
      const title =
        'approval' in ask.subject ? approvalSummary(ask.subject.approval) : (questions[0]?.question ?? ask.title ?? '')
      this.#pushes.asked(roster, { askId: ask.askId, kvKey: questionKey, title }, onEvent)
      const first = await firstAnswer(
        answers,
        {
          pin: this.#pin,
          rosterKv,
          roster,
          replyKey: replyKey.recipient,
          askId: ask.askId,
          kvKey: answerKey,
          qHash: sealed.qHash,
        },
        take,
        signal,
      )
      if ('refusal' in first) {
        const { code, message } = first.refusal
        onEvent?.({ type: 'answer-refused', askId: ask.askId, code, message })
        // The key holds one value and cannot be emptied: nothing valid can follow on it. Ask again.
        return { answered: false }
      }
      onEvent?.({ type: 'answered', askId: ask.askId, device: first.device })
      // The agent has its answer now; the receipt telling the devices follows without holding it up,
      // and the link is not closed before it lands (or gives up after RECEIPT_WRITE_MS).
      this.#link.keepUntilLanded(
        this.#writeReceipt(ask.askId, { outcome: 'delivered', winner: first.device.id }, onEvent),
      )
      return { answered: true, answer: first.answer }
    } catch (error) {
      if (signal.aborted) {
        const reason: unknown = signal.reason
        const outcome =
          reason instanceof RelayExchangeError && reason.code === 'ASK_WITHDRAWN' ? 'withdrawn' : 'expired'
        // Tell the devices; but a caller whose relay is down is not kept waiting for it (desks drop an
        // expired ask by its expiresAt, and the write keeps trying in the background for a while).
        const receipt = this.#writeReceipt(ask.askId, { outcome }, onEvent)
        if (this.#link.up) await receipt
        throw reason
      }
      throw error
    } finally {
      stopListening?.()
    }
  }

  /** The answer router of `bucket` (`inbox`, or `secret` for passwords), made at its first ask. */
  #answerRouter(bucket: KV): AnswerRouter {
    let router = this.#answerRouters.get(bucket)
    if (!router) {
      router = new AnswerRouter(this.#link, bucket, this.#token)
      this.#answerRouters.set(bucket, router)
    }
    return router
  }

  /** Writes the receipt of `askId`, retrying for at most {@link RECEIPT_WRITE_MS}; reports when it could not. */
  async #writeReceipt(
    askId: string,
    result: Pick<Receipt, 'outcome' | 'winner' | 'next'>,
    onEvent: RemoteAskOptions['onEvent'],
  ): Promise<void> {
    const key = inboxKey('r', this.#token, askId)
    const pushGone = this.#pushes.ended(askId, this.#pin.current, result, onEvent)
    try {
      const { inbox } = await this.#openBuckets()
      const bytes = await signReceipt(this.#agent, { askId, kvKey: key, ...result, ...(pushGone ? { pushGone } : {}) })
      await createEntryRetrying(
        this.#link.nc,
        { name: INBOX_BUCKET, kv: inbox },
        key,
        bytes,
        AbortSignal.timeout(RECEIPT_WRITE_MS),
      )
    } catch {
      onEvent?.({ type: 'receipt-unwritten', askId, outcome: result.outcome })
    }
  }
}
