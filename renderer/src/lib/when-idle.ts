/**
 * Runs `work` when the page is idle (within `timeoutMs` at the latest), or after a short timer where
 * there is no `requestIdleCallback`. Returns a function that cancels it.
 */
export function whenIdle(work: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => work(), { timeout: timeoutMs })
    return () => cancelIdleCallback(handle)
  }
  const timer = setTimeout(work, 50)
  return () => clearTimeout(timer)
}
