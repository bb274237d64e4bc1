// A ViewClock the test drives: frames run on `frame()`, timers on `advance(ms)`; nothing runs by itself.
import type { ViewClock } from '../../renderer/src/state/view-clock'
import { tick } from 'svelte'

export class ManualClock implements ViewClock {
  #now = 0
  #frames: (() => void)[] = []
  #timers: { at: number; run: () => void }[] = []

  now(): number {
    return this.#now
  }
  afterPaint(run: () => void): () => void {
    this.#frames.push(run)
    return () => void (this.#frames = this.#frames.filter((queued) => queued !== run))
  }
  after(ms: number, run: () => void): () => void {
    const timer = { at: this.#now + ms, run }
    this.#timers.push(timer)
    return () => void (this.#timers = this.#timers.filter((queued) => queued !== timer))
  }

  /** Runs the callbacks waiting for the next frame (the card has been painted), then lets Svelte update. */
  async frame(): Promise<void> {
    const frames = this.#frames
    this.#frames = []
    for (const run of frames) run()
    await tick()
  }

  /** Moves time on by `ms`, running every timer due by then in order, then lets Svelte update. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms
    for (;;) {
      const due = this.#timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.#timers = this.#timers.filter((timer) => timer !== due)
      this.#now = due.at
      due.run()
    }
    this.#now = until
    await tick()
  }
}
