/**
 * Resolves after `ms`, or at once when `signal` aborts (it never rejects: callers check the signal
 * themselves). A browser-safe stand-in for node:timers/promises, which the phone cannot load.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** A timer handle in Node and in a browser alike (NodeJS.Timeout there, a number here). */
export type TimerHandle = ReturnType<typeof setTimeout>

/** Lets Node exit while `timer` waits (a desk's expiry timers must not hold a CLI open); a no-op in a browser. */
export function unrefTimer(timer: TimerHandle): void {
  // Typed as unknown: under the DOM's types the handle is a number and has no unref.
  const handle: unknown = timer
  if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function')
    handle.unref()
}
