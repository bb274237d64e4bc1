// The browser's moments for a fresh dial (RELAY.md §3.2): the network came back, or the page became
// visible again (a phone waking keeps a dead socket for ~35 s; a fresh dial takes ~5 s).

/**
 * Calls `redial` on the window's `online` and on `visibilitychange` to visible; returns the
 * unsubscribe function. The `wake` option of createPhoneBridge in the browser.
 */
export function browserWake(redial: () => void): () => void {
  const onVisibility = (): void => {
    if (document.visibilityState === 'visible') redial()
  }
  window.addEventListener('online', redial)
  document.addEventListener('visibilitychange', onVisibility)
  return () => {
    window.removeEventListener('online', redial)
    document.removeEventListener('visibilitychange', onVisibility)
  }
}
