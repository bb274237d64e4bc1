import type { Ask, HistoryEntry, Outcome } from '../../../shared/ask'
import type { BridgeStatus, CompanionBridge } from '../../../shared/bridge'
import type { AcceptedOutcome, UiServerFrame } from '../../../shared/ui'
import type { MessageKey } from '../i18n/messages'
import { checkForm, formReady } from '../lib/answer-form'
import { displayOrder, groupByAgent } from '../lib/group-asks'
import { DraftStore } from './drafts.svelte'

/** How an ask shown on screen stopped being pending; `gone` = it vanished while we were disconnected. */
export type Settlement = Outcome | 'gone'

/** Options of the inbox state. */
export interface InboxOptions {
  /** Where drafts are kept (sessionStorage in the app; none = memory only). */
  storage?: Storage
  /** How long a selected card settled elsewhere stays to say so, in ms (default 2500). */
  lingerMs?: number
  /** How many history entries to ask for (default 200). */
  historyLimit?: number
}

/**
 * The question window's state, fed by a `CompanionBridge`: the shown asks (pending ones, plus settled
 * ones still on screen to say so), the selection, drafts, in-flight sends and the history. Components
 * read it and call its methods; only this class talks to the bridge.
 */
export class InboxStore {
  status = $state<BridgeStatus>('connecting')
  /** Pending asks plus settled ones still on screen; immutable array, replaced on change. */
  asks = $state.raw<Ask[]>([])
  /** Asks on screen that are no longer pending, and how they ended. */
  settled = $state<Record<string, Settlement>>({})
  /** Asks whose answer or dismissal this window sent and awaits `accepted`/`rejected` for. */
  sending = $state<Record<string, true>>({})
  /** The companion's reason for refusing this window's last answer or dismissal, per ask. */
  rejections = $state<Record<string, string>>({})
  /** Asks the person tried to send with unanswered questions (their hints are shown from then on). */
  attempted = $state<Record<string, true>>({})
  /** Asks whose last send was refused because the window was not connected (nothing was sent). */
  offline = $state<Record<string, true>>({})
  selectedId = $state<string | undefined>()
  view = $state<'inbox' | 'history'>('inbox')
  history = $state.raw<HistoryEntry[] | undefined>()
  /** Last thing to announce to assistive technology (a polite live region reads it). */
  announcement = $state<{ key: MessageKey; seq: number } | undefined>()

  readonly drafts: DraftStore
  readonly groups = $derived(groupByAgent(this.asks))
  readonly order = $derived(displayOrder(this.groups))
  /** Ids of the settled asks still on screen (a plain set: rows test membership without proxy reads). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by $derived, never mutated
  readonly settledIds: ReadonlySet<string> = $derived(new Set(Object.keys(this.settled)))
  readonly pendingCount = $derived(this.asks.filter((ask) => !this.settledIds.has(ask.askId)).length)
  readonly selected = $derived(
    this.asks.find((ask) => ask.askId === this.selectedId) ??
      this.asks.find((ask) => ask.askId === this.order[0]),
  )

  readonly #bridge: CompanionBridge
  readonly #lingerMs: number
  readonly #historyLimit: number
  /** Outcomes broadcast while this window's own send was in flight (decided by accepted/rejected). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
  #resolvedWhileSending = new Map<string, Outcome>()
  #seq = 0
  #wantFocus: string | undefined

  constructor(bridge: CompanionBridge, options: InboxOptions = {}) {
    this.#bridge = bridge
    this.#lingerMs = options.lingerMs ?? 2500
    this.#historyLimit = options.historyLimit ?? 200
    this.drafts = new DraftStore(options.storage)
    bridge.onStatus((status) => (this.status = status))
    bridge.onFrame((frame) => this.#receive(frame))
    bridge.onFocusAsk?.((askId) => this.focusAsk(askId))
  }

  /**
   * Brings an ask into view (tray menu or notification click). An ask not known yet is shown as soon
   * as it arrives (the request can come before the snapshot).
   */
  focusAsk(askId: string): void {
    if (!this.asks.some((ask) => ask.askId === askId)) {
      this.#wantFocus = askId
      return
    }
    this.#wantFocus = undefined
    // Leave the current card so the requested one takes focus when it mounts.
    if (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement) document.activeElement.blur()
    this.select(askId)
  }

  /** Tells the host which ask is on screen (only hosts that care implement it). */
  reportShown(askId: string | undefined): void {
    this.#bridge.reportShown?.(askId)
  }

  /** Shows an ask. */
  select(askId: string): void {
    this.selectedId = askId
    this.view = 'inbox'
  }

  /** Moves the selection to the previous (-1) or next (+1) ask in list order, wrapping around. */
  step(delta: -1 | 1): void {
    const order = this.order
    if (order.length === 0) return
    const at = this.selected ? order.indexOf(this.selected.askId) : -1
    const next = order[(at + delta + order.length) % order.length]
    if (next !== undefined) this.select(next)
  }

  /**
   * Sends the drafted answer if every question is answered or skipped and no answer rule is broken;
   * otherwise marks the ask as attempted (hints show) and returns false.
   */
  submit(askId: string): boolean {
    const ask = this.asks.find((candidate) => candidate.askId === askId)
    if (!ask || askId in this.settled || askId in this.sending) return false
    const check = checkForm(ask.questions, this.drafts.get(askId))
    if (!formReady(check)) {
      this.attempted[askId] = true
      return false
    }
    if (this.status !== 'open') {
      this.offline[askId] = true
      return false
    }
    delete this.offline[askId]
    delete this.rejections[askId]
    this.sending[askId] = true
    this.#bridge.answer(askId, check.answers)
    return true
  }

  /** Dismisses an ask (the agent gets `ASK_CANCELLED`); the UI confirms before calling this. */
  dismiss(askId: string): void {
    if (askId in this.settled || askId in this.sending) return
    if (this.status !== 'open') {
      this.offline[askId] = true
      return
    }
    delete this.offline[askId]
    delete this.rejections[askId]
    this.sending[askId] = true
    this.#bridge.dismiss(askId)
  }

  /** Closes a card that was settled elsewhere (and forgets its draft). */
  close(askId: string): void {
    this.#remove(askId)
  }

  /** Switches to the history view and asks the companion for it. */
  showHistory(): void {
    this.view = 'history'
    this.#bridge.requestHistory(this.#historyLimit)
  }

  showInbox(): void {
    this.view = 'inbox'
  }

  #receive(frame: UiServerFrame): void {
    switch (frame.type) {
      case 'snapshot':
        return this.#snapshot(frame.pending)
      case 'question/added': {
        // The card on screen stays on screen: a new ask only joins the list (never swaps the card the
        // person may be typing into, even if its agent now sorts first).
        const shown = this.selected?.askId
        if (!this.asks.some((ask) => ask.askId === frame.ask.askId)) this.asks = [...this.asks, frame.ask]
        this.#pinSelection(shown)
        if (this.#wantFocus === frame.ask.askId) this.focusAsk(frame.ask.askId)
        return
      }
      case 'question/resolved':
        if (frame.askId in this.sending) this.#resolvedWhileSending.set(frame.askId, frame.outcome)
        else this.#settle(frame.askId, frame.outcome)
        return this.#refreshHistory()
      case 'accepted':
        return this.#accepted(frame.askId, frame.outcome)
      case 'rejected':
        return this.#rejected(frame.askId, frame.code, frame.reason)
      case 'history':
        this.history = frame.entries
        return
    }
  }

  /** Fixes the selection on a concrete ask: `preferred` if still listed, else the first in list order. */
  #pinSelection(preferred = this.selectedId): void {
    const listed = (id: string | undefined): id is string => id !== undefined && this.asks.some((ask) => ask.askId === id)
    this.selectedId = listed(preferred) ? preferred : this.order[0]
  }

  #snapshot(pending: Ask[]): void {
    const shown = this.selected?.askId
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
    const pendingIds = new Set(pending.map((ask) => ask.askId))
    // Cards already on screen that are no longer pending stay only if they hold a draft or a notice.
    const kept = this.asks.filter(
      (ask) => !pendingIds.has(ask.askId) && (ask.askId in this.settled || this.drafts.hasContent(ask.askId)),
    )
    for (const ask of kept) this.settled[ask.askId] ??= 'gone'
    this.sending = {}
    this.#resolvedWhileSending.clear()
    this.asks = [...pending, ...kept]
    this.#pinSelection(shown)
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
    this.drafts.prune(new Set(this.asks.map((ask) => ask.askId)))
  }

  #settle(askId: string, outcome: Settlement): void {
    if (!this.asks.some((ask) => ask.askId === askId)) return
    const onScreen = this.view === 'inbox' && this.selected?.askId === askId
    if (!this.drafts.hasContent(askId) && !onScreen) return this.#remove(askId)
    this.settled[askId] = outcome
    delete this.sending[askId]
    if (this.drafts.hasContent(askId)) return
    setTimeout(() => {
      if (askId in this.settled && !this.drafts.hasContent(askId)) this.#remove(askId)
    }, this.#lingerMs)
  }

  #accepted(askId: string, outcome: AcceptedOutcome): void {
    if (!(askId in this.sending)) return
    this.#resolvedWhileSending.delete(askId)
    this.#remove(askId)
    this.#announce(outcome === 'answered' ? 'announceSent' : 'announceDismissed')
  }

  #rejected(askId: string, code: string, reason: string): void {
    if (!(askId in this.sending)) return
    delete this.sending[askId]
    const outcome = this.#resolvedWhileSending.get(askId)
    this.#resolvedWhileSending.delete(askId)
    if (outcome) return this.#settle(askId, outcome)
    if (code === 'NOT_PENDING') return this.#settle(askId, 'gone')
    this.rejections[askId] = reason
  }

  #remove(askId: string): void {
    if (this.selected?.askId === askId) {
      const order = this.order
      const at = order.indexOf(askId)
      this.selectedId = order[at + 1] ?? order[at - 1]
    }
    this.asks = this.asks.filter((ask) => ask.askId !== askId)
    delete this.settled[askId]
    delete this.sending[askId]
    delete this.rejections[askId]
    delete this.attempted[askId]
    delete this.offline[askId]
    this.drafts.remove(askId)
  }

  #refreshHistory(): void {
    if (this.view === 'history') this.#bridge.requestHistory(this.#historyLimit)
  }

  #announce(key: MessageKey): void {
    this.announcement = { key, seq: ++this.#seq }
  }
}
