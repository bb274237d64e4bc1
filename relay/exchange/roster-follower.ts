// The roster as an asker holds it between asks: one watch on `roster.current` for the link's life, so an
// ask seals to the newest roster without reading it first (a direct get on every ask's critical path).
// The held roster is used only while it is known to be the relay's current one: the watch delivered it
// since the link last (re)connected, the link is up, and it has not expired. Otherwise the ask reads the
// roster as before, with every refusal of a direct read (ROSTER_MISSING, ROSTER_ROLLBACK, ...).
import type { KV } from '@nats-io/kv'
import type { Roster } from '../crypto'
import { RenewingWatch, retryUntilDone } from './relay-kv'
import type { RelayLink } from './relay-link'
import { ROSTER_KEY, type RosterPin } from './roster-source'

/** Follows the relay's roster for one asker; {@link newest} is what an ask seals to. */
export class RosterFollower {
  readonly #link: RelayLink
  readonly #pin: RosterPin
  readonly #closed = new AbortController()
  #watch: Promise<RenewingWatch> | undefined
  /** True once the watch delivered a record the pin accepted, since the link last (re)connected. */
  #following = false
  /** Counts reconnects: an acceptance begun before one does not count as following after it. */
  #connection = 0

  constructor(link: RelayLink, pin: RosterPin) {
    this.#link = link
    this.#pin = pin
    const unsubscribe = link.onReconnect(() => {
      this.#following = false
      this.#connection++
    })
    this.#closed.signal.addEventListener('abort', unsubscribe, { once: true })
  }

  /**
   * The newest roster: the one followed when it is current, else read from `rosterKv` (retried until
   * `signal` aborts). Throws as RosterPin.fetch does. The first call starts following.
   */
  newest(rosterKv: KV, signal: AbortSignal): Promise<Roster> {
    this.#follow(rosterKv)
    const held = this.#following && this.#link.up ? this.#pin.unexpired : undefined
    return held ? Promise.resolve(held) : retryUntilDone(() => this.#pin.fetch(rosterKv), signal)
  }

  /** Stops following. */
  close(): void {
    this.#closed.abort()
    void this.#watch?.then(
      (watch) => watch.stop(),
      () => undefined,
    )
  }

  #follow(rosterKv: KV): void {
    if (this.#watch) return
    this.#watch = RenewingWatch.start(
      this.#link,
      rosterKv,
      ROSTER_KEY,
      (entry) => this.#onRecord(entry.value),
      this.#closed.signal,
    )
    // Not followed (denied, the link closed): asks read the roster; the next one tries to follow again.
    this.#watch.catch(() => (this.#watch = undefined))
  }

  #onRecord(value: Uint8Array): void {
    const connection = this.#connection
    this.#following = false
    // A record the pin refuses (a rollback, a forgery) leaves the asks reading the roster themselves,
    // where the same refusal reaches the caller.
    this.#pin.accept(value).then(
      () => (this.#following = connection === this.#connection),
      () => undefined,
    )
  }
}
