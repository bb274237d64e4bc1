import { browserViewClock, type ViewClock } from './view-clock'

/** Runs `run` once soon; returns a function that cancels it. */
export type FrameScheduler = (run: () => void) => () => void

/** How long a burst waits for a frame before it is applied anyway, in ms. */
export const FRAME_TIMEOUT_MS = 100

/**
 * The next animation frame of `clock`, or {@link FRAME_TIMEOUT_MS} if frames do not come first (a
 * hidden window gets no frames but must still keep its list and title count current).
 */
export function nextFrame(clock: ViewClock = browserViewClock): FrameScheduler {
  return (run) => {
    let done = false
    const cancel = (): void => {
      done = true
      cancelFrame()
      cancelTimer()
    }
    const once = (): void => {
      if (done) return
      cancel()
      run()
    }
    const cancelFrame = clock.afterPaint(once)
    const cancelTimer = clock.after(FRAME_TIMEOUT_MS, once)
    return cancel
  }
}

/** How many items a frame applies one by one before the rest of a burst waits for the frame's end. */
export const SYNC_PER_FRAME = 2

/**
 * Applies items (asks arriving as `ask/added`) in order, cheaply in bursts: the first
 * {@link SYNC_PER_FRAME} of a frame are applied at once, each alone (a lone new ask shows without
 * delay); any more wait and are applied together, in one call, when the frame ends. `flush` applies
 * what waits at once (before any frame that may refer to those items).
 */
export class BurstQueue<T> {
  readonly #apply: (items: T[]) => void
  readonly #schedule: FrameScheduler
  #waiting: T[] = []
  #appliedThisFrame = 0
  #cancel: (() => void) | undefined

  constructor(apply: (items: T[]) => void, schedule: FrameScheduler = nextFrame()) {
    this.#apply = apply
    this.#schedule = schedule
  }

  /** Items waiting for the end of the frame. */
  get waiting(): number {
    return this.#waiting.length
  }

  push(item: T): void {
    this.#cancel ??= this.#schedule(() => this.#frameEnded())
    if (this.#waiting.length === 0 && this.#appliedThisFrame < SYNC_PER_FRAME) {
      this.#appliedThisFrame++
      this.#apply([item])
      return
    }
    this.#waiting.push(item)
  }

  /** Applies every waiting item now, in one call (nothing when none waits). */
  flush(): void {
    if (this.#waiting.length === 0) return
    const items = this.#waiting
    this.#waiting = []
    this.#apply(items)
  }

  /** Drops what waits and stops the frame timer (the owner is going away). */
  dispose(): void {
    this.#waiting = []
    this.#cancel?.()
    this.#cancel = undefined
  }

  #frameEnded(): void {
    this.#cancel = undefined
    this.#appliedThisFrame = 0
    this.flush()
  }
}
