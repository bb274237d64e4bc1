import { untrack } from 'svelte'
import type { ApprovalDecision } from '../../../shared/approval'
import type { Ask, HistoryEntry, InboxNotice, Outcome } from '../../../shared/ask'
import type { BridgeStatus, CompanionBridge, PageAccessState } from '../../../shared/bridge'
import type { ConnectInfo } from '../../../shared/connect'
import type { AcceptedOutcome, UiServerFrame } from '../../../shared/ui'
import type { MessageKey } from '../i18n/messages'
import type { CheckedAnswers } from '../lib/answer-form'
import { DraftStorage } from '../lib/draft-storage'
import { displayOrder, groupByAgent } from '../lib/group-asks'
import { buildLayout, type InboxLayout } from '../lib/inbox-layout'
import { releaseMarkdown } from '../lib/markdown-cache'
import { ARMING_MS, Arming, browserViewClock, type ViewClock } from './arming.svelte'
import { BurstQueue } from './burst-queue'
import { CardState, type Settlement } from './card.svelte'
import { CardHold, QUIET_MS } from './card-hold'
import { Selection, type ShownBy } from './selection.svelte'

/** An ask on screen, and its card state once anything needs it (most asks of a big inbox never do). */
interface Entry {
  ask: Ask
  card: CardState | undefined
}

/** The ids of the settled cards (a plain set: rows test membership without proxy reads). */
function settledOf(entries: Iterable<Entry>): Set<string> {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by $derived, never mutated
  const ids = new Set<string>()
  for (const entry of entries) if (entry.card?.settlement) ids.add(entry.ask.askId)
  return ids
}

/** Options of the inbox state. */
export interface InboxOptions {
  /** Where drafts are kept (sessionStorage in the app; none = memory only). */
  storage?: Storage
  /** How long a selected card settled elsewhere stays to say so, in ms (default 2500). */
  lingerMs?: number
  /** How many history entries to ask for (default 200). */
  historyLimit?: number
  /** How long a card the person did not open themselves ignores decisions, in ms (default `ARMING_MS`, 600). */
  armingMs?: number
  /** How long after the last input in the card on screen it may not change, in ms (default `QUIET_MS`, 1000). */
  quietMs?: number
  /** The frame and timer source of arming and holding (default: the browser's). */
  clock?: ViewClock
}

/**
 * The question window's state, fed by a `CompanionBridge`: one entry per ask on screen (pending
 * ones, plus settled ones still on screen to say so), each with its `CardState` once the ask is
 * shown, answered or settled (a 10,000-ask inbox makes a few, not 10,000), the selection, the
 * connection status and the history. Components read it and call its methods; only this class talks to the bridge.
 */
export class InboxStore {
  status = $state<BridgeStatus>('connecting')
  /** The served page's sign-in (always `none` in the desktop window). */
  access = $state<PageAccessState>({ kind: 'none' })
  view = $state<'inbox' | 'history' | 'connect'>('inbox')
  /** How agents on this machine reach this companion (from the snapshot), for "Connect an agent". */
  connect = $state.raw<ConnectInfo | undefined>()
  history = $state.raw<HistoryEntry[] | undefined>()
  /** Older history entries may follow what `history` holds ("Show older" asks for the next page). */
  historyMore = $state(false)
  /** Agents' notices (nothing to answer), oldest first; not counted as pending. */
  notices = $state.raw<InboxNotice[]>([])
  /** Last thing to announce to assistive technology (a polite live region reads it). */
  announcement = $state<{ key: MessageKey; seq: number } | undefined>()

  /**
   * One entry per ask on screen, in arrival order (a snapshot's pending asks first). A plain map: every
   * change to its membership bumps `#version` once (a snapshot of 10,000 asks is one change), and the
   * list-wide values below are derived from it again only then, never on a change of selection.
   */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- made reactive by #version, changed in batches
  readonly #cards = new Map<string, Entry>()
  #version = $state(0)
  #settledVersion = $state(0)
  /** Pending asks plus settled ones still on screen; a new array on every change. */
  readonly asks: Ask[] = $derived.by(() => (this.#version, Array.from(this.#cards.values(), (entry) => entry.ask)))
  readonly groups = $derived(groupByAgent(this.asks))
  readonly order = $derived(displayOrder(this.groups))
  /** Each ask's index in `order`, so moving to the next or previous ask is O(1). */
  readonly #orderIndex: ReadonlyMap<string, number> = $derived(
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by $derived, never mutated
    new Map(this.order.map((askId, index) => [askId, index])),
  )
  /** The list as rows with offsets, for the windowed list (`lib/inbox-layout.ts`). */
  readonly layout: InboxLayout = $derived(buildLayout(this.groups))
  /** Ids of the settled asks still on screen (a plain set: rows test membership without proxy reads). */
  readonly settledIds: ReadonlySet<string> = $derived.by(
    // Only this store settles cards, and it bumps #settledVersion when it does: the cards' own
    // `settlement` is read untracked (10,000 dependencies fewer for every change of the list).
    () => (this.#version, this.#settledVersion, untrack(() => settledOf(this.#cards.values()))),
  )
  readonly pendingCount = $derived.by(() => (this.#version, this.#cards.size - this.settledIds.size))
  readonly #selection = new Selection()
  /** The card on screen: the selected ask's, else the first in list order. */
  readonly selected: CardState | undefined = $derived.by(() => {
    void this.#version
    const selectedId = this.#selection.selectedId
    return (
      (selectedId !== undefined ? this.#card(selectedId) : undefined) ??
      (this.order[0] !== undefined ? this.#card(this.order[0]) : undefined)
    )
  })
  /** Asks that arrived while another card was on screen and were not shown yet (a cue in the list). */
  get unseenIds(): ReadonlySet<string> {
    return this.#selection.unseenIds
  }
  /** Keeps the card on screen while the person is on it (the card view lets it watch its element). */
  readonly hold: CardHold
  /** `question/added` frames of a burst (thousands after a bounded snapshot), applied once per frame. */
  readonly #added = new BurstQueue<Ask>((asks) => this.#addAll(asks))

  readonly #bridge: CompanionBridge
  readonly #drafts: DraftStorage
  readonly #lingerMs: number
  readonly #historyLimit: number
  /**
   * What each `history/get` in flight is for, oldest first (replies come in order): the newest page
   * replacing the list, the newest page merged above what is loaded, or the next older page.
   */
  readonly #historyRequests: Array<'replace' | 'merge' | 'older'> = []
  readonly #armingMs: number
  readonly #clock: ViewClock
  #seq = 0
  /** From a bounded snapshot: asks received up to then that arrive as `question/added` are its rest, not new. */
  #restUntil: number | undefined
  #wantFocus: string | undefined

  constructor(bridge: CompanionBridge, options: InboxOptions = {}) {
    this.#bridge = bridge
    this.#lingerMs = options.lingerMs ?? 2500
    this.#historyLimit = options.historyLimit ?? 200
    this.#armingMs = options.armingMs ?? ARMING_MS
    this.#clock = options.clock ?? browserViewClock
    this.hold = new CardHold(options.quietMs ?? QUIET_MS, this.#clock)
    this.#drafts = new DraftStorage(options.storage)
    bridge.onStatus((status) => (this.status = status))
    bridge.onAccess?.((access) => (this.access = access))
    bridge.onFrame((frame) => this.#receive(frame))
    bridge.onFocusAsk?.((askId) => this.focusAsk(askId))
  }

  /** The card of an ask on screen, if any. */
  card(askId: string): CardState | undefined {
    void this.#version
    return this.#card(askId)
  }

  /** The card state of a listed ask, made the first time it is needed (drafts load from storage then). */
  #card(askId: string): CardState | undefined {
    const entry = this.#cards.get(askId)
    if (!entry) return undefined
    return (entry.card ??= new CardState(entry.ask, this.#drafts))
  }

  /**
   * Brings an ask into view (tray menu or notification click). An ask not known yet is shown as soon
   * as it arrives (the request can come before the snapshot).
   */
  focusAsk(askId: string): void {
    this.#added.flush()
    if (!this.#cards.has(askId)) {
      this.#wantFocus = askId
      return
    }
    this.#wantFocus = undefined
    // Leave the current card so the requested one takes focus when it mounts.
    if (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement) document.activeElement.blur()
    this.select(askId, 'other')
  }

  /** The ask on screen, once fixed (undefined until then: the first in list order shows). */
  get selectedId(): string | undefined {
    return this.#selection.selectedId
  }

  /**
   * The arming of the card of `askId`, for the card view to start once mounted: armed at once when
   * the person clicked its row, else `armingMs` after its first frame.
   */
  armingFor(askId: string): Arming {
    return new Arming(this.#selection.openedByClick(askId), this.#armingMs, this.#clock)
  }

  /** Tells the host which ask is on screen (only hosts that care implement it). */
  reportShown(askId: string | undefined): void {
    this.#bridge.reportShown?.(askId)
  }

  /**
   * Shows an ask the person asked for: `click` on its row (its card acts at once), or `other` (a key,
   * a notification or the tray: its card arms first).
   */
  select(askId: string, by: ShownBy = 'other'): void {
    this.#selection.show(askId, by)
    this.view = 'inbox'
  }

  /** Moves the selection to the previous (-1) or next (+1) ask in list order, wrapping around. */
  step(delta: -1 | 1): void {
    const order = this.order
    if (order.length === 0) return
    const at = this.selected ? (this.#orderIndex.get(this.selected.askId) ?? -1) : -1
    const next = order[(at + delta + order.length) % order.length]
    if (next !== undefined) this.select(next)
  }

  /**
   * Sends an answer the card's form already checked (`CardState.attemptSend`). Returns false when
   * nothing was sent: the ask is gone, settled or already sending, or the window is disconnected (the
   * card then says so).
   */
  answer(askId: string, answers: CheckedAnswers): boolean {
    const card = this.#card(askId)
    if (!card || card.locked || !this.#startSending(card)) return false
    this.#bridge.answer(askId, answers)
    return true
  }

  /** Sends the person's decision on an approval; false when nothing was sent (as {@link answer}). */
  decide(askId: string, decision: ApprovalDecision): boolean {
    const card = this.#card(askId)
    if (!card || card.locked || !this.#startSending(card)) return false
    this.#bridge.decide(askId, decision)
    return true
  }

  /** Dismisses an ask (the agent gets `ASK_CANCELLED`); the UI confirms before calling this. */
  dismiss(askId: string): void {
    const card = this.#card(askId)
    if (!card || card.locked) return
    if (this.#startSending(card)) this.#bridge.dismiss(askId)
  }

  /** Clears a notice (from every window, once the companion confirms with `notice/removed`). */
  clearNotice(noticeId: string): void {
    if (this.status === 'open') this.#bridge.dismissNotice(noticeId)
  }

  /** Closes a card that was settled elsewhere (and forgets its draft). */
  close(askId: string): void {
    this.#remove(askId)
  }

  /** Switches to the history view and asks the companion for it. */
  showHistory(): void {
    this.view = 'history'
    this.#requestHistory('replace')
  }

  /** Asks for the page of history older than what is on screen (when `historyMore`). */
  showOlderHistory(): void {
    const oldest = this.history?.at(-1)
    if (!this.historyMore || oldest === undefined || this.#historyRequests.includes('older')) return
    this.#requestHistory('older', oldest.askId)
  }

  #requestHistory(kind: 'replace' | 'merge' | 'older', before?: string): void {
    if (this.status !== 'open') return
    this.#historyRequests.push(kind)
    this.#bridge.requestHistory(this.#historyLimit, before)
  }

  /** A `history` page, placed as the request it answers asked for. */
  #historyPage(entries: HistoryEntry[], more: boolean): void {
    const kind = this.#historyRequests.shift() ?? 'replace'
    const shown = this.history ?? []
    if (kind === 'older') {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never reactive state
      const known = new Set(shown.map((entry) => entry.askId))
      this.history = [...shown, ...entries.filter((entry) => !known.has(entry.askId))]
      this.historyMore = more
      return
    }
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never reactive state
    const fresh = new Set(entries.map((entry) => entry.askId))
    // Older pages already loaded stay below the newest one, when the two meet (nothing between is missed).
    const meets = kind === 'merge' && more && shown.some((entry) => fresh.has(entry.askId))
    const older = meets ? shown.filter((entry) => !fresh.has(entry.askId)) : []
    this.history = [...entries, ...older]
    this.historyMore = older.length > 0 ? this.historyMore : more
  }

  showInbox(): void {
    this.view = 'inbox'
  }

  /** Switches to "Connect an agent". */
  showConnect(): void {
    this.view = 'connect'
  }

  /** Marks a card as sending, or as offline (false: nothing may be sent while disconnected). */
  #startSending(card: CardState): boolean {
    if (this.status !== 'open') {
      card.offline = true
      return false
    }
    card.offline = false
    card.rejection = undefined
    card.sending = true
    return true
  }

  #receive(frame: UiServerFrame): void {
    if (frame.type === 'ask/added') return this.#added.push(frame.ask)
    // Every other frame may refer to an ask of the burst: the burst goes first, in order.
    this.#added.flush()
    switch (frame.type) {
      case 'snapshot':
        if (frame.connect) this.connect = frame.connect
        this.notices = frame.notices ?? []
        // A new connection: replies to requests sent on the last one will not come.
        this.#historyRequests.length = 0
        if (this.view === 'history') this.#requestHistory('replace')
        this.#restUntil = frame.restUntil
        return this.#snapshot(frame.pending)
      case 'notice/added':
        this.notices = [...this.notices, frame.notice]
        return
      case 'notice/removed':
        this.notices = this.notices.filter((notice) => notice.noticeId !== frame.noticeId)
        return
      case 'ask/settled': {
        const card = this.#cards.get(frame.askId)?.card
        // Our own send in flight: `ask/accepted` or `ask/rejected` decides, and says whose settlement this was.
        if (card?.sending) card.outcomeWhileSending = frame.outcome
        else this.#settle(frame.askId, frame.outcome)
        return this.#refreshHistory()
      }
      case 'ask/accepted':
        return this.#accepted(frame.askId, frame.outcome, frame.undelivered === true)
      case 'ask/rejected':
        return this.#rejected(frame.askId, frame.code, frame.reason)
      case 'history':
        return this.#historyPage(frame.entries, frame.more ?? false)
    }
  }

  /** New asks join the list, as one change however many there are. */
  #addAll(asks: readonly Ask[]): void {
    // The card on screen stays on screen: a new ask only joins the list, with a cue, even if its agent
    // now sorts first (a click or key meant for the card on screen must never reach another). Known
    // without deriving the list order again when the selection is a listed ask (the usual case in a burst).
    const selectedId = this.selectedId
    const shown = selectedId !== undefined && this.#cards.has(selectedId) ? selectedId : this.selected?.askId
    const arrived: string[] = []
    let rest = false
    for (const ask of asks) {
      const entry = this.#cards.get(ask.askId)
      const ofSnapshot = this.#restUntil !== undefined && ask.receivedAt <= this.#restUntil
      rest ||= ofSnapshot
      if (!entry) {
        this.#cards.set(ask.askId, { ask, card: undefined })
        if (shown !== undefined && !ofSnapshot) arrived.push(ask.askId)
      }
      // Kept as gone by a snapshot that did not carry it, with a draft: it was only in the rest of a
      // bounded snapshot (docs/protocol.md §9). Pending after all: answerable again, draft and all.
      else if (entry.card?.settlement === 'gone') entry.card.settlement = undefined
    }
    this.#version++
    this.#selection.arrived(arrived)
    // The rest of a bounded snapshot is the inbox as it was at connect: until the person picks a card
    // (a click, or the pointer, focus or input on the one shown), the first card in list order shows.
    const untouched = shown === undefined || (!this.#selection.openedByClick(shown) && !this.hold.touched)
    this.#pinSelection(rest && untouched ? (this.order[0] ?? shown) : shown)
    const wanted = this.#wantFocus
    if (wanted !== undefined && this.#cards.has(wanted)) this.focusAsk(wanted)
  }

  /** Fixes the selection on a concrete ask: `preferred` if still listed, else the first in list order. */
  #pinSelection(preferred = this.selectedId): void {
    const askId = preferred !== undefined && this.#cards.has(preferred) ? preferred : this.order[0]
    if (askId !== this.selectedId) this.#selection.show(askId, 'other')
  }

  #snapshot(pending: Ask[]): void {
    const shown = this.selected?.askId
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
    const pendingIds = new Set(pending.map((ask) => ask.askId))
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local copy, never rendered
    const previous = new Map(this.#cards)
    // Cards already on screen that are no longer pending stay only if they hold a draft or a notice
    // (a draft may also be in storage only, from before a reload: its card is made to show it).
    const kept: Entry[] = []
    for (const entry of previous.values()) {
      if (pendingIds.has(entry.ask.askId)) continue
      releaseMarkdown(entry.ask.askId)
      if (!entry.card && !this.#drafts.has(entry.ask.askId)) continue
      const card = (entry.card ??= new CardState(entry.ask, this.#drafts))
      if (!card.settlement && !card.hasDraft) continue
      card.settlement ??= 'gone'
      kept.push(entry)
    }
    // Rebuilt in order: the snapshot's pending asks first, then the kept cards.
    this.#cards.clear()
    for (const ask of pending) this.#cards.set(ask.askId, previous.get(ask.askId) ?? { ask, card: undefined })
    for (const entry of kept) this.#cards.set(entry.ask.askId, entry)
    this.#version++
    for (const { card } of this.#cards.values()) {
      if (!card) continue
      card.sending = false
      card.outcomeWhileSending = undefined
    }
    this.#pinSelection(shown)
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
    this.#drafts.prune(new Set(this.#cards.keys()))
  }

  #settle(askId: string, outcome: Settlement): void {
    const card = this.#card(askId)
    if (!card) return
    const onScreen = this.view === 'inbox' && this.selected === card
    if (!card.hasDraft && !onScreen) return this.#remove(askId)
    card.settlement = outcome
    this.#settledVersion++
    card.sending = false
    if (card.hasDraft) return
    // It says how it ended for `lingerMs`, then leaves once the person is off it (never from under them).
    const leave = (): void => {
      if (this.#cards.get(askId)?.card === card && !card.hasDraft) this.#remove(askId)
    }
    setTimeout(() => (this.selected === card ? this.hold.whenFree(leave) : leave()), this.#lingerMs)
  }

  #accepted(askId: string, outcome: AcceptedOutcome, undelivered: boolean): void {
    const card = this.#cards.get(askId)?.card
    if (!card?.sending) return
    this.#remove(askId)
    if (undelivered) return this.#announce('announceUndelivered')
    if (outcome === 'decided') return this.#announce('announceDecided')
    if (outcome === 'answered') return this.#announce('announceSent')
    this.#announce('announceDismissed')
  }

  #rejected(askId: string, code: string, reason: string): void {
    const card = this.#cards.get(askId)?.card
    if (!card?.sending) return
    card.sending = false
    const outcome: Outcome | undefined = card.outcomeWhileSending
    card.outcomeWhileSending = undefined
    // The agent left while our answer was on its way: the companion keeps it in history as undelivered.
    if (outcome === 'agent-gone') this.#announce('announceUndelivered')
    if (outcome) return this.#settle(askId, outcome)
    if (code === 'NOT_PENDING') return this.#settle(askId, 'gone')
    card.rejection = reason
  }

  /** Forgets an ask: its card (draft, notices, send state) and its stored draft. */
  #remove(askId: string): void {
    if (this.selected?.askId === askId) {
      const order = this.order
      const at = this.#orderIndex.get(askId) ?? -1
      this.#selection.show(order[at + 1] ?? order[at - 1], 'other')
    }
    this.#selection.seen(askId)
    this.#drafts.remove(askId)
    if (this.#cards.delete(askId)) this.#version++
    releaseMarkdown(askId)
  }

  #refreshHistory(): void {
    if (this.view === 'history') this.#requestHistory('merge')
  }

  #announce(key: MessageKey): void {
    this.announcement = { key, seq: ++this.#seq }
  }
}
