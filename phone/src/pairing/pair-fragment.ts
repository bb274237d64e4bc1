// The pairing offer arrives in the URL fragment (`#pair=…`, from the desktop's QR code). It is secret,
// so it leaves the address bar and the session history at once, before the app does anything else:
// nothing later (a reload, a shared link, a screenshot of the address bar) sees it again.
import { RelayPairingError } from '../../../relay/pairing/errors'
import { parsePairFragment, PAIR_FRAGMENT_KEY } from '../../../relay/pairing/offer'
import type { PairOffer } from '../../../relay/pairing/schemas'
import { takePairHash } from './pair-hash'

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
 * The pairing offer the page was opened with: the fragment {@link takePairHash} took out of the URL
 * (taking it now if the entry has not), parsed at `now`. Idempotent: later calls return the first
 * call's result, so the entry point can take the fragment first and the pairing screen read it later.
 */
export function takePairFragment(
  location: Pick<Location, 'hash' | 'pathname' | 'search'> = globalThis.location,
  history: Pick<History, 'replaceState' | 'state'> = globalThis.history,
  now: number = Date.now(),
): PairFragment {
  if (taken !== undefined) return taken
  const hash = takePairHash(location, history)
  return (taken = hash === null ? { kind: 'none' } : parsed(hash, now))
}
