import type { HistoryEntry } from '../../../shared/ask'

/** What a `history/get` is for: the newest page replacing the list, merged above it, or the next older page. */
type HistoryRequest = 'replace' | 'merge' | 'older'

/** How the history pages reach the companion. */
export interface HistorySource {
  /** Whether a request can be sent now (the window is connected). */
  connected(): boolean
  /** Sends `history/get` for `limit` entries, older than `before` when given. */
  request(limit: number, before?: string): void
}

/**
 * The history the window shows, page by page: the newest page on request, merged with what is loaded
 * when an ask settles while it is on screen, and older pages on "Show older". Replies come in order, so
 * each is placed as the request it answers asked.
 */
export class HistoryPages {
  /** The entries loaded, newest first (undefined until the first page arrives). */
  entries = $state.raw<HistoryEntry[] | undefined>()
  /** Older entries may follow `entries` ("Show older" asks for the next page). */
  more = $state(false)
  /** What each request in flight is for, oldest first. */
  readonly #inFlight: HistoryRequest[] = []
  readonly #source: HistorySource
  readonly #limit: number

  /** `limit`: how many entries a page asks for. */
  constructor(source: HistorySource, limit: number) {
    this.#source = source
    this.#limit = limit
  }

  /** Asks for the newest page, to replace what is loaded. */
  refresh(): void {
    this.#request('replace')
  }

  /** Asks for the newest page, to go above what is loaded (an ask settled while the history is shown). */
  update(): void {
    this.#request('merge')
  }

  /** Asks for the page older than what is loaded (when `more`, and not already asked). */
  older(): void {
    const oldest = this.entries?.at(-1)
    if (!this.more || oldest === undefined || this.#inFlight.includes('older')) return
    this.#request('older', oldest.askId)
  }

  /** A new connection: replies to requests sent on the last one will not come. */
  reconnected(): void {
    this.#inFlight.length = 0
  }

  /** A `history` page, placed as the request it answers asked for. */
  receive(entries: HistoryEntry[], more: boolean): void {
    const kind = this.#inFlight.shift() ?? 'replace'
    const shown = this.entries ?? []
    if (kind === 'older') {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never reactive state
      const known = new Set(shown.map((entry) => entry.askId))
      this.entries = [...shown, ...entries.filter((entry) => !known.has(entry.askId))]
      this.more = more
      return
    }
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never reactive state
    const fresh = new Set(entries.map((entry) => entry.askId))
    // Older pages already loaded stay below the newest one, when the two meet (nothing between is missed).
    const meets = kind === 'merge' && more && shown.some((entry) => fresh.has(entry.askId))
    const older = meets ? shown.filter((entry) => !fresh.has(entry.askId)) : []
    this.entries = [...entries, ...older]
    this.more = older.length > 0 ? this.more : more
  }

  #request(kind: HistoryRequest, before?: string): void {
    if (!this.#source.connected()) return
    this.#inFlight.push(kind)
    this.#source.request(this.#limit, before)
  }
}
