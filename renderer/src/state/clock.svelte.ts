/** A reactive "now" shared by every waiting-time label; ticks once a second while started. */
export class Clock {
  now = $state(Date.now())
  #timer: ReturnType<typeof setInterval> | undefined

  /** Starts ticking every `intervalMs` (default 1000). Idempotent. */
  start(intervalMs = 1000): void {
    this.#timer ??= setInterval(() => (this.now = Date.now()), intervalMs)
  }

  /** Stops ticking. */
  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }
}

/** The page's one clock. */
export const clock = new Clock()
