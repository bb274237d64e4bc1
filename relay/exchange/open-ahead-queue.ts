// The desk's read-ahead: questions are read and opened several at a time (an opener on a worker thread
// answers one round trip later) and still listed one at a time, in the order they were added.

/**
 * Runs up to `limit` `open` calls at once and hands their results to `list` in the order `add` was
 * called. An `open` that resolves `undefined` or throws lists nothing and holds up nothing after it.
 */
export class OpenAheadQueue<T> {
  readonly #limit: number
  #listed: Promise<void> = Promise.resolve()
  /** Opens running now (at most `limit`), and those waiting for a slot. */
  #opening = 0
  readonly #waiters: Array<() => void> = []

  constructor(limit: number) {
    this.#limit = limit
  }

  /** Opens with `open` when a slot is free, then lists the result after every earlier one. */
  add(open: () => Promise<T | undefined>, list: (opened: T) => void): void {
    const opened = this.#slot()
      .then(async (release) => {
        try {
          return await open()
        } finally {
          release()
        }
      })
      .catch(() => undefined)
    this.#listed = this.#listed
      .then(async () => {
        const result = await opened
        if (result !== undefined) list(result)
      })
      .catch(() => undefined)
  }

  /** Waits for a slot; resolves with its release (which hands it to the next waiter). */
  async #slot(): Promise<() => void> {
    if (this.#opening < this.#limit) this.#opening++
    else await new Promise<void>((resolve) => this.#waiters.push(resolve))
    return () => {
      const next = this.#waiters.shift()
      if (next) next()
      else this.#opening--
    }
  }
}
