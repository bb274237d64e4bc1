// The browsers the phone app runs on: X25519 (HPKE) and Ed25519 (signatures) in WebCrypto — Safari 17 /
// iOS 17, Firefox 130, Chrome 137. Older browsers would need the P-256 suite, which is not built: the
// app says so instead of failing later with a cryptic error.

/** What `subtle` (the page's `crypto.subtle`; undefined outside a secure context) lacks for the app's keys; empty: nothing. */
export async function missingCrypto(subtle: SubtleCrypto | undefined): Promise<string[]> {
  if (subtle === undefined) return ['WebCrypto (the page must be opened over HTTPS)']
  // Both probes at once: each is a round trip to the browser's crypto thread.
  const [x25519, ed25519] = await Promise.all([
    generates(subtle, { name: 'X25519' }, ['deriveBits']),
    generates(subtle, { name: 'Ed25519' }, ['sign', 'verify']),
  ])
  return [...(x25519 ? [] : ['X25519']), ...(ed25519 ? [] : ['Ed25519'])]
}

async function generates(subtle: SubtleCrypto, algorithm: AlgorithmIdentifier, usages: KeyUsage[]): Promise<boolean> {
  try {
    await subtle.generateKey(algorithm, false, usages)
    return true
  } catch {
    return false
  }
}

/**
 * True on an iPhone or iPad whose Safari runs the app in a tab rather than from the Home Screen: there
 * Web Push exists only for apps added to the Home Screen (iOS 16.4+), so the app explains that step.
 */
export function needsHomeScreen(nav: Navigator = navigator): boolean {
  return isIos(nav) && !isStandalone(nav)
}

/**
 * True in the Home Screen app on an iPhone or iPad. There a pairing made in a Safari tab may be missing
 * (some iOS versions give the Home Screen app its own storage), which the app cannot tell from never
 * having paired, so the pairing screen says to pair again here.
 */
export function isIosHomeScreenApp(nav: Navigator = navigator): boolean {
  return isIos(nav) && isStandalone(nav)
}

// iPadOS reports itself as a Mac, told apart by its touch points.
const isIos = (nav: Navigator): boolean =>
  /iPhone|iPad|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1)
const isStandalone = (nav: Navigator): boolean => (nav as Navigator & { standalone?: boolean }).standalone === true
