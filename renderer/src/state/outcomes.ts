import type { Outcome } from '../../../shared/ask'
import type { AcceptedOutcome } from '../../../shared/ui'
import type { MessageKey } from '../i18n/messages'
import type { AskList } from './ask-list.svelte'
import type { CardState, Settlement } from './card.svelte'
import type { CardHold } from './card-hold'
import type { Selection } from './selection.svelte'
import type { ViewClock } from './view-clock'

/** What the rules of a card's ending need from the window. */
export interface OutcomeRules {
  /** How long a settled card on screen stays to say how it ended, in ms. */
  lingerMs: number
  clock: ViewClock
  /** Keeps the card on screen while the person is on it. */
  hold: CardHold
  /** Whether `card` is the one the person sees now (the inbox view shows it). */
  onScreen(card: CardState): boolean
}

/**
 * How a card ends. This window's send accepted: the card goes at once (and the live region says what
 * happened). Refused: the card says why and stays pending, unless the ask ended meanwhile. Settled
 * elsewhere: a card with a draft stays, read-only, until *Close*; one on screen says how it ended for
 * `lingerMs`, then goes once the person is off it (never from under them); any other goes at once.
 */
export class CardOutcomes {
  readonly #list: AskList
  readonly #selection: Selection
  readonly #rules: OutcomeRules

  constructor(list: AskList, selection: Selection, rules: OutcomeRules) {
    this.#list = list
    this.#selection = selection
    this.#rules = rules
  }

  /** The ask was settled (`ask/settled`), by this window's send or elsewhere (`answeredOn`: another desk). */
  resolved(askId: string, outcome: Outcome, answeredOn?: string): void {
    const card = this.#list.madeCard(askId)
    if (card && answeredOn !== undefined) card.answeredOn = answeredOn
    // Our own send in flight: `ask/accepted` or `ask/rejected` decides, and says whose settlement this was.
    if (card?.sending) card.outcomeWhileSending = outcome
    else this.#settle(askId, outcome)
  }

  /** This window's send was accepted; returns what to announce (nothing when it was not ours). */
  accepted(askId: string, outcome: AcceptedOutcome, undelivered: boolean): MessageKey | undefined {
    const card = this.#list.madeCard(askId)
    if (!card?.sending) return undefined
    this.remove(askId)
    if (undelivered) return 'announceUndelivered'
    if (outcome === 'decided') return 'announceDecided'
    if (outcome === 'answered') return 'announceSent'
    return 'announceDismissed'
  }

  /** This window's send was refused; returns what to announce, if anything. */
  rejected(askId: string, code: string, reason: string): MessageKey | undefined {
    const card = this.#list.madeCard(askId)
    if (!card?.sending) return undefined
    const ended = card.sendRefused(code, reason)
    if (ended) this.#settle(askId, ended)
    // The agent left while our answer was on its way: the companion keeps it in history as undelivered.
    return ended === 'agent-gone' ? 'announceUndelivered' : undefined
  }

  /** Forgets an ask (card, draft, send state); its neighbour shows if it was on screen. */
  remove(askId: string): void {
    this.#selection.leaving(askId)
    this.#list.remove(askId)
  }

  #settle(askId: string, outcome: Settlement): void {
    const card = this.#list.card(askId)
    if (!card) return
    const { lingerMs, clock, hold, onScreen } = this.#rules
    if (!card.hasDraft && !onScreen(card)) return this.remove(askId)
    this.#list.settle(card, outcome)
    if (card.hasDraft) return
    const leave = (): void => {
      if (this.#list.madeCard(askId) === card && !card.hasDraft) this.remove(askId)
    }
    clock.after(lingerMs, () => (this.#selection.selected === card ? hold.whenFree(leave) : leave()))
  }
}
