/** How the card on screen came to be there: the person's click on its row, or anything else. */
export type ShownBy = 'click' | 'other'

/**
 * Which ask the window shows and how it got there, and which listed asks arrived since and have not
 * been shown (the list marks them). Arrivals never change the selection: that is the inbox's rule,
 * this class only keeps the facts it needs.
 */
export class Selection {
  /** The ask on screen, once one is fixed (undefined: the first in list order shows). */
  selectedId = $state<string | undefined>()
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

  /** Shows `askId`; `by` says whether the person clicked its row. */
  show(askId: string | undefined, by: ShownBy): void {
    this.#clicked = by === 'click' ? askId : undefined
    this.selectedId = askId
    if (askId !== undefined) this.seen(askId)
  }

  /** Whether the card of `askId` acts at once (the person clicked its row), rather than after arming. */
  openedByClick(askId: string): boolean {
    return this.#clicked === askId
  }

  /** Marks asks that arrived while a card is on screen (a cue in the list until shown). */
  arrived(askIds: readonly string[]): void {
    for (const askId of askIds) this.#unseen.add(askId)
    if (askIds.length > 0) this.#unseenVersion++
  }

  /** The ask was shown (or left the list): no cue any more. */
  seen(askId: string): void {
    if (this.#unseen.delete(askId)) this.#unseenVersion++
  }
}
