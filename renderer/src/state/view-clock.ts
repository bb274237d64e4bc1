/**
 * The time source of the window's state: the linger of a settled card, arming, the card hold, the end
 * of a burst's frame and the waiting-time labels all read it, never the globals, so tests drive them
 * with a clock of their own or with fake timers.
 */
export interface ViewClock {
  /** Milliseconds since some fixed point (only differences are used, except by the waiting-time labels). */
  now(): number
  /** Runs `run` at the next frame (once the card is laid out and about to be painted); returns a cancel. */
  afterPaint(run: () => void): () => void
  /** Runs `run` after `ms`; returns a cancel. */
  after(ms: number, run: () => void): () => void
}

/**
 * The browser's clock, its globals read at each call (so fake timers installed later still apply).
 * Where there is no `requestAnimationFrame` (no layout), the next task stands for the frame.
 */
export const browserViewClock: ViewClock = {
  now: () => Date.now(),
  afterPaint(run) {
    if (typeof requestAnimationFrame !== 'function') return browserViewClock.after(0, run)
    const frame = requestAnimationFrame(() => run())
    return () => cancelAnimationFrame(frame)
  },
  after(ms, run) {
    const timer = setTimeout(run, ms)
    return () => clearTimeout(timer)
  },
}
