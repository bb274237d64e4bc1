import { randomUUID } from 'node:crypto'
import { canonicalAnswer, type Answer } from '../shared/answer'
import { checkAnswer } from '../shared/answer-rules'
import type { ApprovalDecision } from '../shared/approval'
import type { Ask, AskOrigin } from '../shared/ask'
import { errorMessage } from '../shared/describe-error'
import { Listeners } from '../shared/listeners'
import { hasSecret } from '../shared/question-extras'
import {
  AGENT_GONE_REASON,
  ALWAYS_NOT_REMOTE_REASON,
  answeredElsewhere,
  decidedElsewhere,
  notPending,
  REMOTE_DISMISS_REASON,
  WRONG_KIND_REASON,
  type AnswerOutcome,
  type AskOwner,
  type DecideFirst,
  type DecideOutcome,
  type NewAsk,
  type Refusal,
  type ResolvedListener,
  type Settlement,
  type SubmitFirst,
  type UndeliveredListener,
} from './ask-settlement'
import { checkDecision } from './decision-check'
import { GoneAsks } from './gone-asks'

// The registry's contract lives in ask-settlement.ts; its names are offered here too, beside the class.
export * from './ask-settlement'

interface Entry {
  ask: Ask
  wireId: string
  owner: AskOwner
  /** An owner's `submit` is in flight: a second answer is refused until it is over. */
  submitting?: boolean
  /** Set by {@link Registry.submitThrough}: where a window's answer to this local ask goes first. */
  submitFirst?: SubmitFirst
  /** Set by {@link Registry.decideThrough}: where a window's decision on this local approval goes first. */
  decideFirst?: DecideFirst
}

/**
 * The pending asks of the whole companion, oldest first. Mints `askId`s, guarantees exactly one
 * settlement per ask (the first wins; later attempts see `NOT_PENDING`), checks answers with the shared
 * answer rules before they reach the agent, and tells listeners synchronously. Listener errors are
 * reported through `warn` and never break settlement.
 */
export class Registry {
  private readonly entries = new Map<string, Entry>()
  private readonly added: Listeners<[ask: Ask]>
  private readonly resolved: Listeners<Parameters<ResolvedListener>>
  private readonly undelivered: Listeners<Parameters<UndeliveredListener>>
  private readonly originChanged: Listeners<[ask: Ask]>
  /** Asks settled as agent-gone lately, for a late answer (gone-asks.ts). */
  private readonly gone: GoneAsks

  constructor(
    private readonly now: () => number,
    private readonly warn: (message: string) => void,
    /** Longest custom answer accepted from a window (the `textChars` cap). */
    private readonly maxCustomChars = Number.POSITIVE_INFINITY,
  ) {
    this.gone = new GoneAsks(now)
    const report = (error: unknown): void => warn(`listener failed: ${errorMessage(error)}`)
    this.added = new Listeners(report)
    this.resolved = new Listeners(report)
    this.undelivered = new Listeners(report)
    this.originChanged = new Listeners(report)
  }

  /** Number of pending asks. */
  get size(): number {
    return this.entries.size
  }

  /** The pending asks, oldest first. */
  pending(): Ask[] {
    return Array.from(this.entries.values(), (entry) => entry.ask)
  }

  /** Registers a validated ask, mints its `askId` and tells the `added` listeners. */
  add(input: NewAsk): Ask {
    const askId = randomUUID()
    const title = input.title !== undefined ? { title: input.title } : {}
    const receivedAt = this.now()
    const ask: Ask =
      input.kind === 'question'
        ? {
            askId,
            kind: 'question',
            agent: input.agent,
            ...title,
            questions: input.questions,
            ...(input.askpass !== undefined ? { askpass: input.askpass } : {}),
            ...(input.origin !== undefined ? { origin: input.origin } : {}),
            receivedAt,
          }
        : {
            askId,
            kind: 'approval',
            agent: input.agent,
            ...title,
            approval: input.approval,
            ...(input.origin !== undefined ? { origin: input.origin } : {}),
            receivedAt,
          }
    this.entries.set(ask.askId, { ask, wireId: input.wireId, owner: input.owner })
    this.added.emit(ask)
    return ask
  }

  /**
   * Routes the windows' answers to the pending question ask `askId` through `submit` first (as a remote
   * ask's owner does), or no longer when `undefined`; an answer given with `answeredOn` (another desk's,
   * already taken there) never goes through it. False when no such question ask is pending.
   */
  submitThrough(askId: string, submit: SubmitFirst | undefined): boolean {
    const entry = this.entries.get(askId)
    if (entry?.ask.kind !== 'question') return false
    entry.submitFirst = submit
    return true
  }

  /**
   * Routes the windows' decisions on the pending approval `askId` through `decide` first (the relay
   * mirror's claim), or no longer when `undefined`; a decision given with `decidedOn` (another desk's,
   * already taken there) never goes through it. False when no such approval is pending.
   */
  decideThrough(askId: string, decide: DecideFirst | undefined): boolean {
    const entry = this.entries.get(askId)
    if (entry?.ask.kind !== 'approval') return false
    entry.decideFirst = decide
    return true
  }

  /**
   * Submits a person's answers to a question ask: checked against the answer rules, then settles the
   * ask as answered; `delivered` is false when the agent's socket was closing as it was sent. An answer
   * to an ask whose agent has just gone is refused `NOT_PENDING` ({@link AGENT_GONE_REASON}) and handed
   * to the `undelivered` listeners, so history keeps it. Answers to an approval are refused `INVALID_ANSWER`
   * ({@link WRONG_KIND_REASON}): the ask stays pending, only the reply was wrong. A remote ask no window
   * may answer here is refused `FORBIDDEN` with its `origin.unanswerable`. When the ask's owner has
   * `submit` (a remote ask), the result is a promise: the ask settles by what the owner resolves with.
   * `answeredOn` names the desk the answers were given on when another desk answered a local ask this
   * companion mirrors (core/relay-bridge/mirror.ts): the agent gets them, the windows see where. Without
   * it, an ask routed through {@link submitThrough} settles by what that resolves with.
   */
  answer(askId: string, answers: Answer[], answeredOn?: string): AnswerOutcome | Promise<AnswerOutcome> {
    const { entry, ask } = this.find(askId)
    if (!ask) return notPending(askId)
    if (ask.kind !== 'question') return { ok: false, code: 'INVALID_ANSWER', message: WRONG_KIND_REASON.answer }
    if (ask.origin?.unanswerable !== undefined)
      return { ok: false, code: 'FORBIDDEN', message: ask.origin.unanswerable }
    const violations = checkAnswer(ask.questions, { answers }, this.maxCustomChars)
    if (violations.length > 0) {
      return { ok: false, code: 'INVALID_ANSWER', message: violations.map((v) => v.message).join('; ') }
    }
    const canonical = answers.map(canonicalAnswer)
    if (!entry) {
      this.gone.delete(askId)
      const at = this.now()
      this.undelivered.emit(ask, canonical, at)
      return { ok: false, code: 'NOT_PENDING', message: AGENT_GONE_REASON }
    }
    const { owner } = entry
    if (owner.submit) return this.submit(entry, () => owner.submit!(entry.wireId, canonical))
    const submitFirst = answeredOn === undefined ? entry.submitFirst : undefined
    if (submitFirst) return this.submit(entry, () => submitFirst(canonical))
    const settlement: Settlement = {
      outcome: 'answered',
      answers: canonical,
      ...(answeredOn === undefined ? {} : { answeredOn }),
    }
    return { ok: true, delivered: this.settle(askId, settlement) === 'delivered' }
  }

  /**
   * Hands checked answers or a decision to whatever sends them first (a remote ask's owner, or the
   * {@link submitThrough} / {@link decideThrough} hook); one at a time per ask (a second is refused
   * `INVALID_ANSWER`: the ask stays pending). When another desk's reply won, this window's is refused
   * `NOT_PENDING` ({@link answeredElsewhere}, {@link decidedElsewhere}).
   */
  private async submit(entry: Entry, send: () => Promise<Settlement | Refusal>): Promise<AnswerOutcome> {
    const askId = entry.ask.askId
    if (entry.submitting)
      return {
        ok: false,
        code: 'INVALID_ANSWER',
        message: 'another answer to this ask is already on its way; wait for its outcome',
      }
    entry.submitting = true
    let result: Settlement | Refusal
    try {
      result = await send()
    } finally {
      entry.submitting = false
    }
    if ('ok' in result) return result
    // The ask may have settled meanwhile (a receipt or its expiry): the first settlement stands.
    const settled = this.entries.get(askId) === entry ? this.settle(askId, result) : false
    if (!settled) return notPending(askId)
    if (result.outcome === 'answered' && result.answeredOn !== undefined) return answeredElsewhere(result.answeredOn)
    if (result.outcome === 'decided' && result.answeredOn !== undefined) return decidedElsewhere(result.answeredOn)
    return { ok: true, delivered: settled === 'delivered' }
  }

  /**
   * Submits the person's decision on an approval: refused `INVALID_ANSWER` for an `always` the request
   * did not offer or a deny message over the `textChars` cap; then settles the approval as decided. A
   * decision for an approval whose agent has just gone is refused `NOT_PENDING` ({@link AGENT_GONE_REASON});
   * a decision on a question ask is refused `INVALID_ANSWER` ({@link WRONG_KIND_REASON}). `decidedOn`
   * names the desk another desk's decision on a mirrored approval was given on (the windows see where);
   * without it, an approval routed through {@link decideThrough} settles by what that resolves with
   * (then the result is a promise).
   */
  decide(askId: string, decision: ApprovalDecision, decidedOn?: string): DecideOutcome | Promise<DecideOutcome> {
    const { entry, ask } = this.find(askId)
    if (!ask) return notPending(askId)
    if (ask.kind !== 'approval') return { ok: false, code: 'INVALID_ANSWER', message: WRONG_KIND_REASON.decide }
    if (ask.origin !== undefined && decision.behavior === 'allow' && decision.always === true)
      return { ok: false, code: 'FORBIDDEN', message: ALWAYS_NOT_REMOTE_REASON }
    const checked = checkDecision(ask.approval, decision, this.maxCustomChars)
    if (!checked.ok) return checked
    if (!entry) return { ok: false, code: 'NOT_PENDING', message: AGENT_GONE_REASON }
    const decideFirst = decidedOn === undefined ? entry.decideFirst : undefined
    if (decideFirst) return this.submit(entry, () => decideFirst(checked.decision))
    const settlement: Settlement = {
      outcome: 'decided',
      decision: checked.decision,
      ...(decidedOn === undefined ? {} : { answeredOn: decidedOn }),
    }
    return { ok: true, delivered: this.settle(askId, settlement) === 'delivered' }
  }

  /** The person dismisses the whole ask; the agent gets `ASK_CANCELLED`. A remote ask is refused `FORBIDDEN`. */
  dismiss(askId: string): { ok: true } | Refusal {
    // Nothing on the relay lets a desk cancel an agent's ask: hiding it here would leave the agent waiting unseen.
    if (this.entries.get(askId)?.ask.origin !== undefined)
      return { ok: false, code: 'FORBIDDEN', message: REMOTE_DISMISS_REASON }
    return this.settle(askId, { outcome: 'cancelled' }) ? { ok: true } : notPending(askId)
  }

  /**
   * Settles a pending ask: removes it, tells its owner, then the `resolved` listeners. Returns false
   * (and does nothing) when the ask is unknown or already settled; else `'delivered'`, or
   * `'undelivered'` when the owner could not send the outcome (both truthy).
   */
  settle(askId: string, settlement: Settlement): false | 'delivered' | 'undelivered' {
    const entry = this.entries.get(askId)
    if (!entry) return false
    this.entries.delete(askId)
    const settledAt = this.now()
    const delivered = this.tellOwner(entry, settlement)
    // A secret ask is not remembered for a late answer: nothing holds it once it is settled.
    if (settlement.outcome === 'agent-gone' && !hasSecret(entry.ask)) this.gone.remember(entry.ask)
    this.resolved.emit(entry.ask, settlement, settledAt, delivered)
    return delivered ? 'delivered' : 'undelivered'
  }

  /** The pending ask `askId`, or the one whose agent has just gone (then `entry` is undefined). */
  private find(askId: string): { entry: Entry | undefined; ask: Ask | undefined } {
    const entry = this.entries.get(askId)
    return { entry, ask: entry?.ask ?? this.gone.get(askId) }
  }

  /**
   * Replaces the `origin` of the pending remote ask `askId` (the relay bridge's presence marks, and whether
   * this desk may answer it: remote passwords allowed or denied) and tells
   * the `originChanged` listeners. False (nothing done) for an ask not pending or not remote.
   */
  setOrigin(askId: string, origin: AskOrigin): boolean {
    const entry = this.entries.get(askId)
    if (entry?.ask.origin === undefined) return false
    const ask: Ask = { ...entry.ask, origin }
    entry.ask = ask
    this.originChanged.emit(ask)
    return true
  }

  /** Subscribes to origin changes of pending asks ({@link setOrigin}); returns the unsubscribe function. */
  onOriginChanged(listener: (ask: Ask) => void): () => void {
    return this.originChanged.add(listener)
  }

  /** Subscribes to late answers (their agent had gone); returns the unsubscribe function. */
  onUndelivered(listener: UndeliveredListener): () => void {
    return this.undelivered.add(listener)
  }

  /** Subscribes to new asks; returns the unsubscribe function. */
  onAdded(listener: (ask: Ask) => void): () => void {
    return this.added.add(listener)
  }

  /** Subscribes to settlements; returns the unsubscribe function. */
  onResolved(listener: ResolvedListener): () => void {
    return this.resolved.add(listener)
  }

  // An owner that throws is reported and counted as told: the settlement stands and the windows still hear of it.
  private tellOwner(entry: Entry, settlement: Settlement): boolean {
    try {
      return entry.owner.settled(entry.wireId, settlement)
    } catch (error) {
      this.warn(`listener failed: ${errorMessage(error)}`)
      return true
    }
  }
}
