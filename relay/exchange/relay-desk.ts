// The desk end (RELAY.md §4.3 step 3–4, §4.4): one device watching every question on the relay, opening
// those sealed to it, answering with create() on the answer key (first answer wins), and following the
// agents' receipts. It knows nothing of the companion's core: the bridge wraps its small event surface.
import type { KV, KvEntry } from '@nats-io/kv'
import { isRelayCryptoError, type MemberKeys } from '../crypto'
import type { Answer } from '../../shared/answer'
import type { ApprovalDecision } from '../../shared/approval'
import { BUCKETS } from '../nats/templates'
import { RelayExchangeError } from './errors'
import { INBOX_BUCKET, inboxKey, parseInboxKey } from './inbox-keys'
import { PRESENCE_BUCKET, PresenceTracker, type PresenceChange } from './presence'
import { OpenAheadQueue } from './open-ahead-queue'
import { openOnThisThread, type QuestionOpener } from './question-opener'
import { openBucket, readEntry, RenewingWatch, retryUntilDone } from './relay-kv'
import type { RelayLink } from './relay-link'
import { ROSTER_BUCKET, ROSTER_KEY, RosterPin } from './roster-source'
import {
  isRefusal,
  readQuestion,
  remoteAskOf,
  type QuestionReader,
  type QuestionRefusal,
  type ReadQuestion,
} from './desk-question'
import { Listeners } from '../../shared/listeners'
import { unrefTimer } from './delay'
import type {
  AnswerResult,
  DeskRefusal,
  PendingEntry,
  RelayDeskOptions,
  RemoteAsk,
  RemoteAskSettled,
} from './desk-types'
import { answerFrame, decisionFrame, writeAnswer, type AnswerTarget } from './desk-answer'
import { settlementOfReceipt } from './desk-receipt'

export type { AnswerResult, DeskRefusal, RelayDeskOptions, RemoteAsk, RemoteAskSettled } from './desk-types'

/** A stored question opened and verified, waiting for its turn to be listed. */
interface OpenedEntry {
  askId: string
  read: ReadQuestion
}

/**
 * How many questions a desk reads and opens at once ahead of the one it lists: enough to hide the round
 * trips (its receipt read; an opener on a worker thread) without flooding the relay when a desk meets a
 * backlog of pending asks.
 */
const OPEN_AHEAD = 8

/** How long `answer` keeps retrying its write through an outage by default. */
export const ANSWER_WRITE_MS = 30_000
const LONGEST_TIMER_MS = 2_147_483_647

/** One device's view of the relay's pending asks, and its way to answer them. */
export class RelayDesk {
  readonly #link: RelayLink
  readonly #device: MemberKeys
  readonly #pin: RosterPin
  readonly #now: () => number
  readonly #opener: QuestionOpener
  readonly #onRefused: (refusal: DeskRefusal) => void
  readonly #pending = new Map<string, PendingEntry>()
  /** Every key this desk saw end, with how it ended when a receipt (or the ask's expiry) said so. */
  readonly #settled = new Map<string, RemoteAskSettled>()
  // Questions are opened up to OPEN_AHEAD at a time and listed one at a time, in stream order.
  readonly #openAhead = new OpenAheadQueue<OpenedEntry>(OPEN_AHEAD)
  // A listener that throws never keeps the others from hearing, nor stops the desk (shared/listeners.ts).
  readonly #added = new Listeners<[RemoteAsk]>()
  readonly #settledListeners = new Listeners<[RemoteAskSettled]>()
  readonly #endedListeners = new Listeners<[RemoteAskSettled]>()
  readonly #presenceListeners = new Listeners<[PresenceChange]>()
  readonly #presence: PresenceTracker
  readonly #closed = new AbortController()
  readonly #watches: RenewingWatch[] = []
  #inbox!: KV
  /** Where the answers to password asks go (answer-bucket.ts); devices may write and read there. */
  #secret!: KV
  #reader!: QuestionReader

  private constructor(options: RelayDeskOptions) {
    this.#link = options.link
    this.#device = options.device
    this.#now = options.now ?? Date.now
    this.#pin = new RosterPin(options.rootPublicKey, {
      highestSeenVersion: options.highestSeenRosterVersion,
      now: this.#now,
      onAccepted: options.onRosterAccepted,
    })
    this.#opener = options.opener ?? openOnThisThread
    this.#onRefused = options.onRefused ?? (() => undefined)
    this.#presence = new PresenceTracker({
      lapseMs: options.presenceLapseMs,
      now: this.#now,
      onChange: (change) => {
        this.#presenceListeners.emit(change)
      },
    })
  }

  /**
   * Reads and verifies the roster and starts watching the roster, every receipt and every question,
   * retrying through outages until `signal` aborts (it bounds the start only; the desk then runs until
   * {@link close}). Throws relay/crypto's roster refusals, `ROSTER_MISSING`,
   * `RELAY_DENIED`. Pending asks arrive through {@link onAdded} as the watch delivers them.
   */
  static async start(
    options: RelayDeskOptions,
    signal: AbortSignal = AbortSignal.timeout(ANSWER_WRITE_MS),
  ): Promise<RelayDesk> {
    const desk = new RelayDesk(options)
    const nc = desk.#link.nc
    desk.#inbox = await openBucket(nc, INBOX_BUCKET)
    desk.#secret = await openBucket(nc, BUCKETS.secret)
    const rosterBucket = await openBucket(nc, ROSTER_BUCKET)
    const presenceBucket = await openBucket(nc, PRESENCE_BUCKET)
    desk.#reader = { device: desk.#device, pin: desk.#pin, rosterBucket, opener: desk.#opener }
    await retryUntilDone(() => desk.#pin.fetch(rosterBucket), signal)
    // The four watches start at once: each is a consumer create, a round trip the server takes a few ms
    // to answer. None depends on another having started: a question is listed only after its receipt was
    // read directly, and every receipt stored before the receipt watch starts is delivered when it does.
    const started = await Promise.allSettled([
      RenewingWatch.start(desk.#link, rosterBucket, ROSTER_KEY, (entry) => void desk.#onRoster(entry), signal),
      RenewingWatch.start(desk.#link, desk.#inbox, 'r.*.*', (entry) => void desk.#onReceipt(entry), signal),
      RenewingWatch.start(
        desk.#link,
        presenceBucket,
        '*',
        (entry) => void desk.#presence.signedContact(entry, desk.#pin.current),
        signal,
      ),
      RenewingWatch.start(desk.#link, desk.#inbox, 'q.*.*', (entry) => desk.#queueQuestion(entry), signal),
    ])
    for (const watch of started) if (watch.status === 'fulfilled') desk.#watches.push(watch.value)
    const failed = started.find((watch) => watch.status === 'rejected')
    if (failed) {
      desk.close()
      throw failed.reason
    }
    return desk
  }

  /** The asks waiting for the person, oldest first (in the order this desk opened them). */
  pending(): RemoteAsk[] {
    return [...this.#pending.values()].map((entry) => entry.ask)
  }

  /**
   * How the ask `key` ended, once this desk has seen it end (its receipt, or its expiry); `undefined`
   * while it is pending or unknown here. A `delivered` settlement names the member whose answer its
   * agent took, so a late answer here learns who won even after the ask left {@link pending}.
   */
  settlement(key: string): RemoteAskSettled | undefined {
    return this.#settled.get(key)
  }

  /**
   * Calls `listener` for every ask this desk sees end, listed or not (a receipt may come before its
   * question is opened: {@link onSettled} then stays silent, as nothing listed ends); returns the
   * unsubscribe function.
   */
  onEnded(listener: (settled: RemoteAskSettled) => void): () => void {
    return this.#endedListeners.add(listener)
  }

  /** Calls `listener` for every ask that becomes pending; returns the unsubscribe function. */
  onAdded(listener: (ask: RemoteAsk) => void): () => void {
    return this.#added.add(listener)
  }

  /** Calls `listener` when a pending ask leaves the list (receipt or expiry); returns the unsubscribe function. */
  onSettled(listener: (settled: RemoteAskSettled) => void): () => void {
    return this.#settledListeners.add(listener)
  }

  /**
   * Calls `listener` when an agent's presence lapses (`unreachableSince`: its last contact) or comes back
   * (no `unreachableSince`). A lapse settles nothing: the agent's asks stay pending and answerable.
   */
  onPresence(listener: (change: PresenceChange) => void): () => void {
    return this.#presenceListeners.add(listener)
  }

  /** When `agent` (its roster name) lapsed, or `undefined` while it is in contact. */
  unreachableSince(agent: string): number | undefined {
    return this.#presence.unreachableSince(agent)
  }

  /**
   * Answers the pending ask `key` with `answers` (checked against its questions and the asker's
   * `maxCustomChars` first: `EXCHANGE_INVALID` with the broken rules). Writes the sealed answer with create(): first answer wins. An ask with a
   * secret question is answered in the `secret` bucket (see answer-bucket.ts); whether this desk may
   * answer one at all is its caller's decision (the bridge's remote-passwords setting). Resolves `won`, or
   * who won as verified from the stored answer, or an alarm when the stored answer does not verify.
   * Throws `ASK_NOT_PENDING`, `RELAY_DENIED`, or the signal's reason when the write could not land in time.
   */
  async answer(
    key: string,
    answers: Answer[],
    signal: AbortSignal = AbortSignal.timeout(ANSWER_WRITE_MS),
  ): Promise<AnswerResult> {
    const entry = this.#pendingEntry(key)
    return writeAnswer(this.#answerTarget(), key, entry, answerFrame(entry.ask, answers), signal)
  }

  /**
   * Decides the pending mirrored approval `key` (RemoteAsk.approval) with `decision`, written as
   * {@link answer} writes answers (first answer wins; the same results). Only allow once and deny travel:
   * "always allow" is refused `ALWAYS_NOT_REMOTE` before anything is written (it would change the
   * mirroring machine's permission rules from another device); a deny reason longer than the asker's
   * `maxCustomChars`, or a decision for an ask with questions, `EXCHANGE_INVALID`. Throws as {@link answer}.
   */
  async decide(
    key: string,
    decision: ApprovalDecision,
    signal: AbortSignal = AbortSignal.timeout(ANSWER_WRITE_MS),
  ): Promise<AnswerResult> {
    const entry = this.#pendingEntry(key)
    return writeAnswer(this.#answerTarget(), key, entry, decisionFrame(entry.ask, decision), signal)
  }

  #pendingEntry(key: string): PendingEntry {
    const entry = this.#pending.get(key)
    if (!entry)
      throw new RelayExchangeError(
        'ASK_NOT_PENDING',
        'this ask is not pending on this desk (answered, withdrawn or unknown); nothing was sent',
      )
    return entry
  }

  #answerTarget(): AnswerTarget {
    return {
      nc: this.#link.nc,
      device: this.#device,
      inbox: this.#inbox,
      secret: this.#secret,
      roster: () => this.#pin.current!,
      onRefused: this.#onRefused,
    }
  }

  /** Stops watching and forgets the pending asks (the link stays open: its owner closes it). */
  close(): void {
    this.#closed.abort()
    this.#presence.close()
    for (const watch of this.#watches) watch.stop()
    for (const entry of this.#pending.values()) clearTimeout(entry.expiry)
    this.#pending.clear()
  }

  async #onRoster(entry: KvEntry): Promise<void> {
    await this.#pin.accept(entry.value).catch((error: unknown) => {
      if (isRelayCryptoError(error))
        this.#onRefused({ key: `roster.${ROSTER_KEY}`, code: error.code, message: error.message })
    })
  }

  #queueQuestion(entry: KvEntry): void {
    this.#openAhead.add(
      () => this.#openQuestion(entry),
      (read) => this.#listQuestion(entry.key, read),
    )
  }

  /** Checks, reads the receipt of and opens one stored question; `undefined` when it is not to be listed. */
  async #openQuestion(entry: KvEntry): Promise<OpenedEntry | undefined> {
    const key = entry.key
    const parts = parseInboxKey(key)
    if (parts?.kind !== 'q' || this.#pending.has(key) || this.#settled.has(key)) return undefined
    // An ask that already has a receipt is over: a desk starting late never shows it, even briefly.
    const receiptKey = inboxKey('r', parts.agent, parts.askId)
    const readReceipt = (): Promise<void> =>
      readEntry(this.#inbox, receiptKey).then(
        (receipt) => (receipt ? this.#onReceipt({ key: receiptKey, value: receipt.value }) : undefined),
        () => undefined,
      )
    const open = (): Promise<ReadQuestion | QuestionRefusal> =>
      readQuestion(entry.value, { key, agent: parts.agent, askId: parts.askId }, this.#reader)
    // A question the watch delivers live (nothing waits behind it) is almost always still open: its receipt
    // read overlaps the opening. One of a backlog (a desk starting late) is opened only once it has none,
    // so a long history of settled asks is never decrypted.
    let read: ReadQuestion | QuestionRefusal | undefined
    if (entry.delta === 0) [, read] = await Promise.all([readReceipt(), open()])
    else await readReceipt()
    if (this.#settled.has(key)) return undefined
    read ??= await open()
    if (isRefusal(read)) {
      this.#onRefused({ key, ...read })
      return undefined
    }
    // A question the agent signed is contact too (an agent of an older build never refreshes presence
    // otherwise); one that does not verify is not, or the relay could keep a cut agent looking alive.
    this.#presence.contact(parts.agent, entry.created.getTime())
    return { askId: parts.askId, read }
  }

  /** Lists an opened question as pending (unless it settled, was listed already or the desk closed meanwhile). */
  #listQuestion(key: string, { askId, read }: OpenedEntry): void {
    if (this.#closed.signal.aborted || this.#pending.has(key) || this.#settled.has(key)) return
    const { header, body, qHash } = read
    const ask = remoteAskOf(key, askId, read)
    const pending: PendingEntry = { ask, header, qHash }
    if (body.expiresAt !== undefined) {
      const left = body.expiresAt - this.#now()
      if (left <= 0) {
        this.#settle(key, { key, outcome: 'expired' })
        return
      }
      pending.expiry = setTimeout(
        () => this.#settle(key, { key, outcome: 'expired' }),
        Math.min(left, LONGEST_TIMER_MS),
      )
      unrefTimer(pending.expiry)
    }
    this.#pending.set(key, pending)
    this.#added.emit(ask)
  }

  async #onReceipt(entry: Pick<KvEntry, 'key' | 'value'>): Promise<void> {
    const parts = parseInboxKey(entry.key)
    if (parts?.kind !== 'r') return
    const questionKey = inboxKey('q', parts.agent, parts.askId)
    if (this.#settled.has(questionKey)) return
    const settled = await settlementOfReceipt(entry, parts, this.#pin.current!)
    if ('outcome' in settled) this.#settle(questionKey, settled)
    else this.#onRefused(settled)
  }

  #settle(key: string, settled: RemoteAskSettled): void {
    this.#settled.set(key, settled)
    this.#endedListeners.emit(settled)
    const entry = this.#pending.get(key)
    if (!entry) return
    clearTimeout(entry.expiry)
    this.#pending.delete(key)
    this.#settledListeners.emit(settled)
  }
}
