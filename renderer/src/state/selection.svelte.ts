import type { AskList } from './ask-list.svelte'
import type { CardState } from './card.svelte'

/** How the card on screen came to be there: the person's click on its row, or anything else. */
export type ShownBy = 'click' | 'other'

/**
 * Which ask the window shows, how it got there, and which listed asks arrived since and have not been
 * shown (the list marks them). Its rules: the card on screen stays on screen when asks arrive (a click
 * or key meant for it must never reach another), except that until the person picks a card the first
 * in list order shows ("follow the top"); a card that leaves gives way to its neighbour in list order.
 */
export class Selection {
  /** The ask on screen, once one is fixed (undefined: the first in list order shows). */
  selectedId = $state<string | undefined>()
  /** The card on screen: the selected ask's, else the first in list order. */
  readonly selected: CardState | undefined = $derived.by(() => {
    const selectedId = this.selectedId
    // The list order is derived again only when the selection is not listed (a selection change never needs it).
    const card = selectedId !== undefined ? this.#list.card(selectedId) : undefined
    if (card) return card
    const first = this.#list.order[0]
    return first !== undefined ? this.#list.card(first) : undefined
  })
  /** The ask the person last opened by clicking its row (its card is armed at once). */
  #clicked: string | undefined
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- made reactive by #unseenVersion
  readonly #unseen = new Set<string>()
  #unseenVersion = $state(0)
  /** Ids of asks that arrived while another card was on screen and have not been shown yet. */
  readonly unseenIds: ReadonlySet<string> = $derived.by(
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt by $derived, never mutated
    () => (this.#unseenVersion, new Set(this.#unseen)),
  )
  /** An ask asked for (tray, notification) before it was listed: shown as soon as it is. */
  #wanted: string | undefined
  readonly #list: AskList
  readonly #onSelect: () => void

  /** `onSelect`: the person asked for a card (the window then shows the inbox). */
  constructor(list: AskList, onSelect: () => void) {
    this.#list = list
    this.#onSelect = onSelect
  }

  /** Whether the card of `askId` acts at once (the person clicked its row), rather than after arming. */
  openedByClick(askId: string): boolean {
    return this.#clicked === askId
  }

  /** Shows an ask the person asked for: `click` on its row (its card acts at once), or `other`. */
  select(askId: string, by: ShownBy): void {
    this.#show(askId, by)
    this.#onSelect()
  }

  /** Brings an ask into view (tray or notification); one not listed yet is shown once it is. */
  focus(askId: string): void {
    if (!this.#list.has(askId)) {
      this.#wanted = askId
      return
    }
    this.#wanted = undefined
    // Leave the current card so the requested one takes focus when it mounts.
    if (typeof document !== 'undefined' && document.activeElement instanceof HTMLElement) document.activeElement.blur()
    this.select(askId, 'other')
  }

  /** Moves to the previous (-1) or next (+1) ask in list order, wrapping around. */
  step(delta: -1 | 1): void {
    const order = this.#list.order
    if (order.length === 0) return
    const at = this.selected ? (this.#list.indexOf(this.selected.askId) ?? -1) : -1
    const next = order[(at + delta + order.length) % order.length]
    if (next !== undefined) this.select(next, 'other')
  }

  /** The ask on screen right now (read before the list changes, to keep it there). */
  shownId(): string | undefined {
    const selectedId = this.selectedId
    // Known without deriving the list order again when the selection is listed (the usual case in a burst).
    return selectedId !== undefined && this.#list.has(selectedId) ? selectedId : this.selected?.askId
  }

  /**
   * After asks joined the list while `shown` was on screen: the new ones get a cue, `shown` stays, unless
   * they were the rest of a bounded snapshot and the person has not picked a card yet (`touched`: the
   * pointer, focus or input on the one shown): that rest is the inbox as it was at connect, so its first
   * card in list order shows. An ask asked for before it was listed is shown now.
   */
  afterAdding(shown: string | undefined, arrived: readonly string[], restOfSnapshot: boolean, touched: boolean): void {
    if (shown !== undefined) this.#arrived(arrived)
    const untouched = shown === undefined || (!this.openedByClick(shown) && !touched)
    this.pin(restOfSnapshot && untouched ? (this.#list.order[0] ?? shown) : shown)
    const wanted = this.#wanted
    if (wanted !== undefined && this.#list.has(wanted)) this.focus(wanted)
  }

  /** Fixes the selection on a concrete ask: `preferred` if still listed, else the first in list order. */
  pin(preferred = this.selectedId): void {
    const askId = preferred !== undefined && this.#list.has(preferred) ? preferred : this.#list.order[0]
    if (askId !== this.selectedId) this.#show(askId, 'other')
  }

  /** Before `askId` leaves the list: if it is on screen, its neighbour in list order takes its place. */
  leaving(askId: string): void {
    if (this.selected?.askId === askId) {
      const order = this.#list.order
      const at = this.#list.indexOf(askId) ?? -1
      this.#show(order[at + 1] ?? order[at - 1], 'other')
    }
    this.#seen(askId)
  }

  #show(askId: string | undefined, by: ShownBy): void {
    this.#clicked = by === 'click' ? askId : undefined
    this.selectedId = askId
    if (askId !== undefined) this.#seen(askId)
  }

  #arrived(askIds: readonly string[]): void {
    for (const askId of askIds) this.#unseen.add(askId)
    if (askIds.length > 0) this.#unseenVersion++
  }

  #seen(askId: string): void {
    if (this.#unseen.delete(askId)) this.#unseenVersion++
  }
}
