/**
 * The listeners of one event. `emit` calls each in the order they were added; a listener that throws
 * is reported to `onError` and never keeps the others from being called, nor breaks the emitter.
 */
export class Listeners<Args extends unknown[]> {
  private readonly set = new Set<(...args: Args) => void>()

  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  /** Number of listeners. */
  get size(): number {
    return this.set.size
  }

  /** Adds a listener; returns the function that removes it. */
  add(listener: (...args: Args) => void): () => void {
    this.set.add(listener)
    return () => void this.set.delete(listener)
  }

  /** Calls every listener with `args`. Never throws. */
  emit(...args: Args): void {
    for (const listener of [...this.set]) {
      try {
        listener(...args)
      } catch (error) {
        this.report(error)
      }
    }
  }

  /** Removes every listener. */
  clear(): void {
    this.set.clear()
  }

  private report(error: unknown): void {
    try {
      this.onError(error)
    } catch {
      // the error reporter itself failed: nothing more can be done without breaking the emitter
    }
  }
}
