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

/** The refusal of a pairing link that is not one: what the person sees, with the code of a damaged link. */
const damaged = (): RelayPairingError =>
  new RelayPairingError('RELAY_PAIR_LINE_INVALID', 'This pairing link is damaged; scan the QR code again.')

function parsed(hash: string, now: number): PairFragment {
  try {
    return { kind: 'offer', offer: parsePairFragment(hash, now) }
  } catch (error) {
    return { kind: 'refused', error: error instanceof RelayPairingError ? error : damaged() }
  }
}

/**
 * The offer in a pairing link the person pasted (the whole `<app>#pair=…` link, or only its `#pair=…`
 * part), parsed at `now`: `none` for an empty field, `refused` with the reason for anything else that is
 * not a valid, unexpired offer. Only the fragment is read; the link's address is not visited.
 */
export function pastedPairLink(text: string, now: number = Date.now()): PairFragment {
  const trimmed = text.trim()
  if (trimmed === '') return { kind: 'none' }
  const at = trimmed.indexOf(`#${PAIR_FRAGMENT_KEY}=`)
  return at < 0 ? { kind: 'refused', error: damaged() } : parsed(trimmed.slice(at), now)
}

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
  return (taken = parsed(hash, now))
}
