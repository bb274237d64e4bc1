// The pairing offer arrives in the URL fragment (`#pair=…`, from the desktop's QR code). It is secret,
// so it leaves the address bar and the session history at once, before the app does anything else:
// nothing later (a reload, a shared link, a screenshot of the address bar) sees it again.
import { RelayPairingError } from '../../../relay/pairing/errors'
import { parsePairFragment, PAIR_FRAGMENT_KEY } from '../../../relay/pairing/offer'
import type { PairOffer } from '../../../relay/pairing/schemas'

/** What the page was opened with: no pairing link, a valid offer, or a link refused with its reason. */
export type PairFragment =
  { kind: 'none' } | { kind: 'offer'; offer: PairOffer } | { kind: 'refused'; error: RelayPairingError }

let taken: PairFragment | undefined

/**
 * Takes the pairing offer out of `location`: when the fragment starts with `#pair=`, first replaces
 * the current history entry with the same URL without its fragment (`history.replaceState`, so neither
 * the address bar nor Back shows it), then parses it at `now`. Idempotent: later calls return the
 * first call's result (the fragment is gone by then), so the entry point can call it first and the
 * pairing screen again.
 */
export function takePairFragment(
  location: Pick<Location, 'hash' | 'pathname' | 'search'> = globalThis.location,
  history: Pick<History, 'replaceState' | 'state'> = globalThis.history,
  now: number = Date.now(),
): PairFragment {
  if (taken !== undefined) return taken
  const hash = location.hash
  if (!hash.startsWith(`#${PAIR_FRAGMENT_KEY}=`)) return (taken = { kind: 'none' })
  history.replaceState(history.state, '', `${location.pathname}${location.search}`)
  try {
    taken = { kind: 'offer', offer: parsePairFragment(hash, now) }
  } catch (error) {
    taken = {
      kind: 'refused',
      error:
        error instanceof RelayPairingError
          ? error
          : new RelayPairingError('RELAY_PAIR_LINE_INVALID', 'This pairing link is damaged; scan the QR code again.'),
    }
  }
  return taken
}
