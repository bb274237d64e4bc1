import { randomUUID } from 'node:crypto'
import { canonicalAnswer, type Answer } from '../shared/answer'
import { checkAnswer } from '../shared/answer-rules'
import type { AgentInfo, Ask } from '../shared/ask'
import type { AskQuestion } from '../shared/question-extras'
import { errorMessage } from '../shared/describe-error'

/** How an ask ended, with what its owner needs to tell the agent. */
export type Settlement =
  | { outcome: 'answered'; answers: Answer[] }
  | { outcome: 'cancelled' }
  | { outcome: 'aborted'; by: 'agent' | 'shutdown' }
  | { outcome: 'agent-gone' }

/** The agent side of an ask: told exactly once how it ended. */
export interface AskOwner {
  settled(wireId: string, settlement: Settlement): void
}

/** Why a window's answer or dismissal was refused. */
export type Refusal = { ok: false; code: 'NOT_PENDING' | 'INVALID_ANSWER'; reason: string }

/** A listener for settled asks (history, windows, the Electron tray). */
export type ResolvedListener = (ask: Ask, settlement: Settlement, settledAt: number) => void

interface Entry {
  ask: Ask
  wireId: string
  owner: AskOwner
}

/** What an agent connection hands over to register an ask. */
export interface NewAsk {
  agent: AgentInfo
  title?: string
  questions: AskQuestion[]
  wireId: string
  owner: AskOwner
}

/**
 * The pending asks of the whole companion, oldest first. Mints `askId`s, guarantees exactly one
 * settlement per ask (the first wins; later attempts see `NOT_PENDING`), checks answers with the shared
 * answer rules before they reach the agent, and tells listeners synchronously. Listener errors are
 * reported through `warn` and never break settlement.
 */
export class Registry {
  private readonly entries = new Map<string, Entry>()
  private readonly added = new Set<(ask: Ask) => void>()
  private readonly resolved = new Set<ResolvedListener>()

  constructor(
    private readonly now: () => number,
    private readonly warn: (message: string) => void,
    /** Longest custom answer accepted from a window (the `textChars` cap). */
    private readonly maxCustomChars = Number.POSITIVE_INFINITY,
  ) {}

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
    const ask: Ask = { askId: randomUUID(), agent: input.agent, questions: input.questions, receivedAt: this.now() }
    if (input.title !== undefined) ask.title = input.title
    this.entries.set(ask.askId, { ask, wireId: input.wireId, owner: input.owner })
    for (const listener of this.added) this.call(() => listener(ask))
    return ask
  }

  /** Submits a person's answer: checked against the answer rules, then settles the ask as answered. */
  answer(askId: string, answers: Answer[]): { ok: true } | Refusal {
    const entry = this.entries.get(askId)
    if (!entry) return notPending(askId)
    const violations = checkAnswer(entry.ask.questions, { answers }, this.maxCustomChars)
    if (violations.length > 0) {
      return { ok: false, code: 'INVALID_ANSWER', reason: violations.map((v) => v.message).join('; ') }
    }
    this.settle(askId, { outcome: 'answered', answers: answers.map(canonicalAnswer) })
    return { ok: true }
  }

  /** The person dismisses the whole ask; the agent gets `ASK_CANCELLED`. */
  dismiss(askId: string): { ok: true } | Refusal {
    return this.settle(askId, { outcome: 'cancelled' }) ? { ok: true } : notPending(askId)
  }

  /**
   * Settles a pending ask: removes it, tells its owner, then the `resolved` listeners. Returns false
   * (and does nothing) when the ask is unknown or already settled.
   */
  settle(askId: string, settlement: Settlement): boolean {
    const entry = this.entries.get(askId)
    if (!entry) return false
    this.entries.delete(askId)
    const settledAt = this.now()
    this.call(() => entry.owner.settled(entry.wireId, settlement))
    for (const listener of this.resolved) this.call(() => listener(entry.ask, settlement, settledAt))
    return true
  }

  /** Subscribes to new asks; returns the unsubscribe function. */
  onAdded(listener: (ask: Ask) => void): () => void {
    this.added.add(listener)
    return () => this.added.delete(listener)
  }

  /** Subscribes to settlements; returns the unsubscribe function. */
  onResolved(listener: ResolvedListener): () => void {
    this.resolved.add(listener)
    return () => this.resolved.delete(listener)
  }

  private call(fn: () => void): void {
    try {
      fn()
    } catch (error) {
      this.warn(`listener failed: ${errorMessage(error)}`)
    }
  }
}

function notPending(askId: string): Refusal {
  return { ok: false, code: 'NOT_PENDING', reason: `ask ${askId} is not pending (already settled or unknown)` }
}
