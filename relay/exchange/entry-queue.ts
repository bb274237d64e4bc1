/**
 * A queue one consumer awaits: values pushed by a watch callback are taken in push order. `next` rejects
 * with the signal's reason once `signal` aborts, so a wait is always bounded by its caller.
 */
export class EntryQueue<T> {
  readonly #items: T[] = []
  #wake: (() => void) | undefined

  /** Adds a value and wakes the waiting consumer. */
  push(item: T): void {
    this.#items.push(item)
    this.#wake?.()
  }

  /** The next value, waiting for one if needed, until `signal` aborts. */
  async next(signal: AbortSignal): Promise<T> {
    for (;;) {
      signal.throwIfAborted()
      const item = this.#items.shift()
      if (item !== undefined) return item
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.#wake = undefined
          signal.removeEventListener('abort', done)
          resolve()
        }
        this.#wake = done
        signal.addEventListener('abort', done, { once: true })
      })
    }
  }
}
