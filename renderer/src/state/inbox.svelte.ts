import type { ApprovalDecision } from '../../../shared/approval'
import type { Ask, HistoryEntry, InboxNotice } from '../../../shared/ask'
import type { BridgeStatus, CompanionBridge, PageAccessState } from '../../../shared/bridge'
import type { ConnectInfo } from '../../../shared/connect'
import type { RelayChange, RelayChangeResult } from '../../../shared/ipc'
import type { RelayState } from '../../../shared/relay-state'
import type { UiServerFrame } from '../../../shared/ui'
import type { MessageKey } from '../i18n/messages'
import type { CheckedAnswers } from '../lib/answer-form'
import { DraftStorage } from '../lib/draft-storage'
import type { InboxLayout } from '../lib/inbox-layout'
import { Arming } from './arming.svelte'
import { AskList } from './ask-list.svelte'
import { BurstQueue, nextFrame } from './burst-queue'
import type { CardState } from './card.svelte'
import { CardHold } from './card-hold'
import { HistoryPages } from './history.svelte'
import { inboxSettings, type InboxOptions, type InboxSettings } from './inbox-options'
import { CardOutcomes } from './outcomes'
import { Selection, type ShownBy } from './selection.svelte'

/**
 * The question window's state, fed by a `CompanionBridge`: the asks on screen and their cards
 * (`AskList`), which one is shown (`Selection`), how cards end (`CardOutcomes`), the connection status,
 * the notices and the history (`HistoryPages`). It applies the companion's frames in one place
 * (`#apply`) and sends what the person does. Components read it and call its methods, and never see the
 * bridge (`main.ts` hands it to this store and to `links`, which opens links, and to nothing else).
 */
export class InboxStore {
  readonly #bridge: CompanionBridge
  readonly #list: AskList
  readonly #selection: Selection
  readonly #history: HistoryPages
  readonly #outcomes: CardOutcomes

  status = $state<BridgeStatus>('connecting')
  /** The served page's sign-in (always `none` in the desktop window). */
  access = $state<PageAccessState>({ kind: 'none' })
  view = $state<'inbox' | 'history' | 'connect' | 'relay'>('inbox')
  /** The relay's state for the "Relay" view; undefined when the companion has no relay configured. */
  relay = $state.raw<RelayState | undefined>()
  /** How agents on this machine reach this companion (from the snapshot), for "Connect an agent". */
  connect = $state.raw<ConnectInfo | undefined>()
  /** Agents' notices (nothing to answer), oldest first; not counted as pending. */
  notices = $state.raw<InboxNotice[]>([])
  /** Last thing to announce to assistive technology (a polite live region reads it). */
  announcement = $state<{ key: MessageKey; seq: number } | undefined>()
  /** Pending asks plus settled ones still on screen, in arrival order; a new array on every change. */
  readonly asks: Ask[] = $derived.by(() => this.#list.asks)
  /** The ask ids in the order the list shows them. */
  readonly order: string[] = $derived.by(() => this.#list.order)
  /** The list as rows with offsets, for the windowed list. */
  readonly layout: InboxLayout = $derived.by(() => this.#list.layout)
  /** Ids of the settled asks still on screen. */
  readonly settledIds: ReadonlySet<string> = $derived.by(() => this.#list.settledIds)
  readonly pendingCount: number = $derived.by(() => this.#list.pendingCount)
  /** The card on screen: the selected ask's, else the first in list order. */
  readonly selected: CardState | undefined = $derived.by(() => this.#selection.selected)
  /** The ask on screen, once fixed (undefined until then: the first in list order shows). */
  readonly selectedId: string | undefined = $derived.by(() => this.#selection.selectedId)
  /** Asks that arrived while another card was on screen and were not shown yet (a cue in the list). */
  readonly unseenIds: ReadonlySet<string> = $derived.by(() => this.#selection.unseenIds)
  /** The history entries loaded, newest first (undefined until the first page arrives). */
  readonly history: HistoryEntry[] | undefined = $derived.by(() => this.#history.entries)
  /** Older history entries may follow what `history` holds ("Show older" asks for the next page). */
  readonly historyMore: boolean = $derived.by(() => this.#history.more)
  /** Keeps the card on screen while the person is on it (the card view lets it watch its element). */
  readonly hold: CardHold

  /** `ask/added` frames of a burst (thousands after a bounded snapshot), applied once per frame. */
  readonly #added: BurstQueue<Ask>
  readonly #settings: InboxSettings
  #seq = 0
  /** From a bounded snapshot: asks received up to then that arrive as `ask/added` are its rest, not new. */
  #restUntil: number | undefined

  constructor(bridge: CompanionBridge, options: InboxOptions = {}) {
    this.#bridge = bridge
    const settings = (this.#settings = inboxSettings(options))
    this.hold = new CardHold(settings.quietMs, settings.clock)
    this.#list = new AskList(new DraftStorage(settings.storage))
    this.#selection = new Selection(this.#list, () => (this.view = 'inbox'))
    this.#outcomes = new CardOutcomes(this.#list, this.#selection, {
      lingerMs: settings.lingerMs,
      clock: settings.clock,
      hold: this.hold,
      onScreen: (card) => this.view === 'inbox' && this.selected === card,
    })
    const history = { connected: () => this.status === 'open', request: bridge.requestHistory.bind(bridge) }
    this.#history = new HistoryPages(history, settings.historyLimit)
    this.#added = new BurstQueue<Ask>((asks) => this.#addAll(asks), nextFrame(settings.clock))
    bridge.onStatus((status) => (this.status = status))
    bridge.onAccess?.((access) => (this.access = access))
    bridge.onFrame((frame) => this.#apply(frame))
    bridge.onFocusAsk?.((askId) => this.focusAsk(askId))
  }

  /** The card of an ask on screen, if any. */
  card(askId: string): CardState | undefined {
    return this.#list.card(askId)
  }

  /**
   * Brings an ask into view (tray menu or notification click). An ask not known yet is shown as soon
   * as it arrives (the request can come before the snapshot).
   */
  focusAsk(askId: string): void {
    this.#added.flush()
    this.#selection.focus(askId)
  }

  /**
   * The arming of the card of `askId`, for the card view to start once mounted: armed at once when
   * the person clicked its row, else `armingMs` after its first frame.
   */
  armingFor(askId: string): Arming {
    return new Arming(this.#selection.openedByClick(askId), this.#settings.armingMs, this.#settings.clock)
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
    this.#selection.select(askId, by)
  }

  /** Moves the selection to the previous (-1) or next (+1) ask in list order, wrapping around. */
  step(delta: -1 | 1): void {
    this.#selection.step(delta)
  }

  /**
   * Sends an answer the card's form already checked (`CardState.attemptSend`). Returns false when
   * nothing was sent: the ask is gone, settled or already sending, or the window is disconnected (the
   * card then says so).
   */
  answer(askId: string, answers: CheckedAnswers): boolean {
    return this.#send(askId, () => this.#bridge.answer(askId, answers))
  }

  /** Sends the person's decision on an approval; false when nothing was sent (as {@link answer}). */
  decide(askId: string, decision: ApprovalDecision): boolean {
    return this.#send(askId, () => this.#bridge.decide(askId, decision))
  }

  /** Dismisses an ask (the agent gets `ASK_CANCELLED`); the UI confirms before calling this. */
  dismiss(askId: string): void {
    this.#send(askId, () => this.#bridge.dismiss(askId))
  }

  /**
   * Dismisses exactly `askIds` (one agent's "dismiss all", as its confirmation listed them), each with
   * its own `ask/dismiss`: an ask that arrived after the confirmation opened is not among them and
   * stays; one already settled or gone is skipped.
   */
  dismissAll(askIds: readonly string[]): void {
    for (const askId of askIds) this.dismiss(askId)
  }

  /** Clears a notice (from every window, once the companion confirms with `notice/removed`). */
  clearNotice(noticeId: string): void {
    if (this.status === 'open') this.#bridge.dismissNotice(noticeId)
  }

  /** Clears the notices on screen now (each confirmed by its `notice/removed`; later ones stay). */
  clearAllNotices(): void {
    for (const notice of this.notices) this.clearNotice(notice.noticeId)
  }

  /**
   * Opens what a notice is about: the oldest pending ask of the agent that sent it (the one it waits
   * on longest), else the history, where what that agent asked has gone.
   */
  openNotice(notice: InboxNotice): void {
    const askId = this.#list.oldestPendingOf(notice.agent)
    // Like a notification's click: the card arms before it acts (the click was on the notice, not on it).
    if (askId !== undefined) this.focusAsk(askId)
    else this.showHistory()
  }

  /** Closes a card that was settled elsewhere (and forgets its draft). */
  close(askId: string): void {
    this.#outcomes.remove(askId)
  }

  /** Switches to the history view and asks the companion for it. */
  showHistory(): void {
    this.view = 'history'
    this.#history.refresh()
  }

  /** Asks for the page of history older than what is on screen (when `historyMore`). */
  showOlderHistory(): void {
    this.#history.older()
  }

  showInbox(): void {
    this.view = 'inbox'
  }

  /** Switches to the "Relay" view (shown only with a relay configured). */
  showRelay(): void {
    this.view = 'relay'
  }

  /**
   * How the Relay view changes the relay, or undefined where it cannot (the served page: only the
   * desktop window's bridge has `changeRelay`). The view then follows the next `relay/state`.
   */
  get relayChanger(): ((change: RelayChange) => Promise<RelayChangeResult>) | undefined {
    const bridge = this.#bridge
    return bridge.changeRelay ? (change) => bridge.changeRelay!(change) : undefined
  }

  /** Switches to "Connect an agent". */
  showConnect(): void {
    this.view = 'connect'
  }

  /** Applies one frame from the companion. */
  #apply(frame: UiServerFrame): void {
    if (frame.type === 'ask/added') return this.#added.push(frame.ask)
    // Every other frame may refer to an ask of the burst: the burst goes first, in order.
    this.#added.flush()
    switch (frame.type) {
      case 'snapshot':
        if (frame.connect) this.connect = frame.connect
        this.notices = frame.notices ?? []
        // A companion with a relay sends `relay/state` right after its snapshot; one without sends none.
        this.relay = undefined
        this.#history.reconnected()
        if (this.view === 'history') this.#history.refresh()
        this.#restUntil = frame.restUntil
        return this.#snapshot(frame.pending)
      case 'notice/added':
        this.notices = [...this.notices, frame.notice]
        return
      case 'notice/removed':
        this.notices = this.notices.filter((notice) => notice.noticeId !== frame.noticeId)
        return
      case 'ask/origin':
        return this.#list.setOrigin(frame.askId, frame.origin)
      case 'ask/settled':
        this.#outcomes.resolved(frame.askId, frame.outcome, frame.answeredOn)
        if (this.view === 'history') this.#history.update()
        return
      case 'ask/accepted':
        return this.#announce(this.#outcomes.accepted(frame.askId, frame.outcome, frame.undelivered === true))
      case 'ask/rejected':
        return this.#announce(this.#outcomes.rejected(frame.askId, frame.code, frame.reason))
      case 'history':
        return this.#history.receive(frame.entries, frame.more ?? false)
      case 'relay/state':
        this.relay = frame.state
        return
    }
  }

  /** Sends on the card of `askId` unless nothing may be sent (gone, locked or offline): then false. */
  #send(askId: string, send: () => void): boolean {
    const card = this.#list.card(askId)
    if (!card || card.locked || !card.startSend(this.status === 'open')) return false
    send()
    return true
  }

  /** New asks join the list; the card on screen stays (`Selection.afterAdding` has the rule). */
  #addAll(asks: readonly Ask[]): void {
    const shown = this.#selection.shownId()
    const { arrived, restOfSnapshot } = this.#list.add(asks, this.#restUntil)
    this.#selection.afterAdding(shown, arrived, restOfSnapshot, this.hold.touched)
  }

  #snapshot(pending: Ask[]): void {
    const shown = this.selected?.askId
    this.#list.replace(pending)
    this.#selection.pin(shown)
  }

  #announce(key: MessageKey | undefined): void {
    if (key) this.announcement = { key, seq: ++this.#seq }
  }
}
