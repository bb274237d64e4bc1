// The roster as both ends read it from the relay: the record at `roster.current`, verified against the
// pinned root key, never older than the highest version this end has seen and never expired.
import type { KV } from '@nats-io/kv'
import { parseRosterRecord, refuseStaleRoster, verifyRoster, type Roster, type SignedRoster } from '../crypto'
import { BUCKETS } from '../nats/templates'
import { RelayExchangeError } from './errors'
import { readEntry, sameBytes } from './relay-kv'

/** The bucket the roster is published in. */
export const ROSTER_BUCKET = BUCKETS.roster
/** The roster bucket's one key. */
export const ROSTER_KEY = 'current'

/** Parses a published roster record; `ROSTER_MISSING` when it is not one. */
export function decodeRosterRecord(value: Uint8Array): SignedRoster {
  const signed = parseRosterRecord(value)
  if (signed === undefined)
    throw new RelayExchangeError(
      'ROSTER_MISSING',
      'the roster on the relay is not a roster record; start the desktop companion so it publishes the roster again',
    )
  return signed
}

/**
 * Verifies rosters for one end: pinned root key, highest version seen (kept here), expiry at `now()`.
 * Throws relay/crypto's `ROSTER_SIGNATURE`, `ROSTER_ROLLBACK`, `ROSTER_EXPIRED`, `ROSTER_INVALID`.
 */
export class RosterPin {
  readonly #rootPublicKey: string
  readonly #now: () => number
  #highest: number
  #current: Roster | undefined
  /** The stored record `#current` was verified from: the same bytes again need no second signature check. */
  #currentRecord: Uint8Array | undefined
  readonly #onAccepted: ((roster: Roster, signed: SignedRoster) => void) | undefined

  /** `onAccepted` hears every roster accepted, with its signed bytes (a phone stores the newest it saw). */
  constructor(
    rootPublicKey: string,
    options: {
      highestSeenVersion?: number | undefined
      now?: () => number
      onAccepted?: ((roster: Roster, signed: SignedRoster) => void) | undefined
    } = {},
  ) {
    this.#rootPublicKey = rootPublicKey
    this.#highest = options.highestSeenVersion ?? 0
    this.#now = options.now ?? Date.now
    this.#onAccepted = options.onAccepted
  }

  /** The last roster accepted, if any. */
  get current(): Roster | undefined {
    return this.#current
  }

  /** The last roster accepted while it has not expired; `undefined` when there is none or it has. */
  get unexpired(): Roster | undefined {
    return this.#current !== undefined && this.#now() < this.#current.expiresAt ? this.#current : undefined
  }

  /**
   * Verifies a stored record and makes it the current roster. The record accepted last, met again (every
   * answer's roster read finds it), is only checked for expiry: its signature and members were verified
   * and cannot have changed, and `onAccepted` is not told twice.
   */
  async accept(value: Uint8Array): Promise<Roster> {
    if (this.#current !== undefined && this.#currentRecord !== undefined && sameBytes(value, this.#currentRecord)) {
      refuseStaleRoster(this.#current, { highestSeenVersion: this.#highest, now: this.#now() })
      return this.#current
    }
    const signed = decodeRosterRecord(value)
    const roster = await verifyRoster(signed.bytes, signed.signature, this.#rootPublicKey, {
      highestSeenVersion: this.#highest,
      now: this.#now(),
    })
    this.#highest = roster.version
    this.#current = roster
    this.#currentRecord = value.slice()
    this.#onAccepted?.(roster, signed)
    return roster
  }

  /** Reads `roster.current` through a direct get and accepts it; `ROSTER_MISSING` when there is none. */
  async fetch(rosterBucket: KV): Promise<Roster> {
    const entry = await readEntry(rosterBucket, ROSTER_KEY)
    if (!entry)
      throw new RelayExchangeError(
        'ROSTER_MISSING',
        'the relay has no roster yet; start the desktop companion once so it publishes one',
      )
    return this.accept(entry.value)
  }
}
