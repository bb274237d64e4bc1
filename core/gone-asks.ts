// The asks whose agent has just left, remembered a short while for a late answer: a window's answer
// crossing the disconnect is kept in history as undelivered instead of being refused as unknown.
import type { Ask } from '../shared/ask'

/**
 * Asks whose agent left are remembered for a late answer for at most this many, and this long
 * (milliseconds): a window's answer crossing the disconnect arrives within a round trip, and each kept
 * ask holds its questions (up to a frame's worth).
 */
const GONE_KEPT = 32
const GONE_KEPT_MS = 30_000

/** The recently gone asks, oldest first, bounded by count and age on the registry's clock. */
export class GoneAsks {
  readonly #asks = new Map<string, { ask: Ask; at: number }>()

  constructor(private readonly now: () => number) {}

  /** Remembers `ask`, whose agent has just gone. */
  remember(ask: Ask): void {
    this.#asks.set(ask.askId, { ask, at: this.now() })
    if (this.#asks.size > GONE_KEPT) this.#asks.delete(this.#asks.keys().next().value as string)
    this.#forgetOld()
  }

  /** The gone ask `askId` while it is still remembered. */
  get(askId: string): Ask | undefined {
    this.#forgetOld()
    return this.#asks.get(askId)?.ask
  }

  /** Forgets `askId` (its late answer was handled). */
  delete(askId: string): void {
    this.#asks.delete(askId)
  }

  #forgetOld(): void {
    const oldest = this.now() - GONE_KEPT_MS
    for (const [askId, { at }] of this.#asks) {
      if (at >= oldest) break
      this.#asks.delete(askId)
    }
  }
}
