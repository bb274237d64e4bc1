// The first thing the entry does: a pairing link's fragment (`#pair=…`, secret) leaves the address bar
// and the session history. Only the raw fragment is kept here, unparsed: this module loads no schema,
// so a paired phone's first screen never evaluates the pairing code (pair-fragment.ts parses it, in the
// pairing screen's chunk).
import { PAIR_FRAGMENT_KEY } from '../../../relay/pairing/pair-fragment-key'

let taken: { hash: string | null } | undefined

/**
 * Takes a pairing fragment out of `location`: when the fragment starts with `#pair=`, replaces the
 * current history entry with the same URL without its fragment (`history.replaceState`, so neither the
 * address bar nor Back shows it) and returns the fragment as it was; null when the page was not opened
 * with one. Idempotent: later calls return the first call's result (the fragment is gone by then).
 */
export function takePairHash(
  location: Pick<Location, 'hash' | 'pathname' | 'search'> = globalThis.location,
  history: Pick<History, 'replaceState' | 'state'> = globalThis.history,
): string | null {
  if (taken !== undefined) return taken.hash
  const hash = location.hash
  if (!hash.startsWith(`#${PAIR_FRAGMENT_KEY}=`)) return (taken = { hash: null }).hash
  history.replaceState(history.state, '', `${location.pathname}${location.search}`)
  return (taken = { hash }).hash
}
