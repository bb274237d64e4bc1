import { browserViewClock, type ViewClock } from './view-clock'

/** How long after the person's last input in the card on screen it may not change, in ms. */
export const QUIET_MS = 1000

/**
 * Keeps the card on screen from changing under the person: while the pointer is over it, focus is in
 * it, or less than `quietMs` has passed since their last key, click or edit in it, changes the person
 * did not ask for (a settled card leaving) wait. The card view calls {@link watch} with its element.
 */
export class CardHold {
  readonly #quietMs: number
  readonly #clock: ViewClock
  #element: HTMLElement | undefined
  #pointerInside = false
  #lastInput = Number.NEGATIVE_INFINITY
  #waiting: (() => void)[] = []
  #cancelTimer: (() => void) | undefined

  constructor(quietMs: number = QUIET_MS, clock: ViewClock = browserViewClock) {
    this.#quietMs = quietMs
    this.#clock = clock
  }

  /** Follows the card `element` (the one on screen) until the returned function is called. */
  watch(element: HTMLElement): () => void {
    this.#element = element
    // A card laid out under a resting pointer gets no pointerenter until the pointer moves.
    this.#pointerInside = element.matches(':hover')
    this.#lastInput = Number.NEGATIVE_INFINITY
    const controller = new AbortController()
    const options = { signal: controller.signal, capture: true }
    const input = (): void => {
      this.#lastInput = this.#clock.now()
    }
    element.addEventListener('pointerenter', () => (this.#pointerInside = true), options)
    element.addEventListener('pointerleave', () => ((this.#pointerInside = false), this.#check()), options)
    // focusout fires before focus lands elsewhere: look again once it has.
    element.addEventListener('focusout', () => void this.#clock.after(0, () => this.#check()), options)
    for (const type of ['keydown', 'pointerdown', 'input'] as const) element.addEventListener(type, input, options)
    return () => {
      controller.abort()
      if (this.#element === element) this.#element = undefined
      this.#check()
    }
  }

  /** True while the card on screen must not change. */
  get busy(): boolean {
    const element = this.#element
    if (!element?.isConnected) return false
    const focus = element.contains(element.ownerDocument.activeElement)
    return this.#pointerInside || focus || this.#clock.now() - this.#lastInput < this.#quietMs
  }

  /**
   * True once the person did anything with the card on screen: the pointer over it, or a key, click or
   * edit in it. Focus alone does not count: a card takes focus itself when it is shown.
   */
  get touched(): boolean {
    return this.#element?.isConnected === true && (this.#pointerInside || this.#lastInput > Number.NEGATIVE_INFINITY)
  }

  /** Runs `change` now if the card is free to change, else as soon as it is. */
  whenFree(change: () => void): void {
    this.#waiting.push(change)
    this.#check()
  }

  #check(): void {
    if (this.#waiting.length === 0) return
    if (this.busy) {
      // Input-quiet is the one condition that ends without an event: look again when it does.
      const quietLeft = this.#lastInput + this.#quietMs - this.#clock.now()
      if (quietLeft > 0 && !this.#cancelTimer) {
        this.#cancelTimer = this.#clock.after(quietLeft, () => {
          this.#cancelTimer = undefined
          this.#check()
        })
      }
      return
    }
    const waiting = this.#waiting
    this.#waiting = []
    for (const change of waiting) change()
  }
}
