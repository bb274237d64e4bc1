import { browserViewClock, type ViewClock } from './view-clock'

/** How long a card shown without the person's own click on it ignores decisions, in ms, from its first frame. */
export const ARMING_MS = 600

/**
 * Whether one card's decision and send controls act yet. A card the person did not open themselves
 * (it arrived, followed a sent answer, or a notification asked for it) is armed `delayMs` after its
 * first frame: until then a click or key meant for the card that was there before does nothing.
 * A card the person clicked in the list is armed at once. One instance per mounted card.
 */
export class Arming {
  /** True once the card's decisions act. */
  armed = $state(false)
  readonly #delayMs: number
  readonly #clock: ViewClock
  #cancel: (() => void) | undefined

  /** `atOnce`: the person opened this card themselves; `delayMs` 0 also arms at once. */
  constructor(atOnce: boolean, delayMs: number = ARMING_MS, clock: ViewClock = browserViewClock) {
    this.#delayMs = delayMs
    this.#clock = clock
    this.armed = atOnce || delayMs <= 0
  }

  /** Starts counting from the card's first frame (call once it is mounted). Idempotent. */
  start(): void {
    if (this.armed || this.#cancel) return
    this.#cancel = this.#clock.afterPaint(() => {
      this.#cancel = this.#clock.after(this.#delayMs, () => {
        this.#cancel = undefined
        this.armed = true
      })
    })
  }

  /** Stops the count (the card left the screen). */
  dispose(): void {
    this.#cancel?.()
    this.#cancel = undefined
  }
}
