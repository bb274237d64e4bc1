import { browserViewClock, type ViewClock } from './view-clock'

/** A reactive "now" shared by every waiting-time label; ticks while started. */
export class TickingClock {
  now = $state(0)
  readonly #source: ViewClock
  #cancel: (() => void) | undefined

  constructor(source: ViewClock = browserViewClock) {
    this.#source = source
    this.now = source.now()
  }

  /** Starts ticking every `intervalMs` (default 1000). Idempotent. */
  start(intervalMs = 1000): void {
    if (this.#cancel) return
    const tick = (): void => {
      this.now = this.#source.now()
      this.#cancel = this.#source.after(intervalMs, tick)
    }
    this.#cancel = this.#source.after(intervalMs, tick)
  }

  /** Stops ticking. */
  stop(): void {
    this.#cancel?.()
    this.#cancel = undefined
  }
}

/** The page's one ticking clock. */
export const clock = new TickingClock()
