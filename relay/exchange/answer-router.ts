// One watch over all of an asker's answer keys in one bucket (`a.<token>.*`), shared by its asks and
// routed by ask id. Creating a consumer costs the server about as much as the rest of an ask's trip
// (bench/relay-steps.ts); a link that asks again reuses the watch it has.
//
// The watch delivers only values stored after it started: an asker's answer keys stay in the bucket for
// days, and replaying them all at every start would slow the first ask of every process. Nothing is
// missed for that. An ask listens before its question is written, and no answer can come before its
// question. When the watch is re-opened (after a relay outage), each waiting ask's key is read once the new
// watch is in place, so an answer written meanwhile still arrives.
import type { KV, KvEntry } from '@nats-io/kv'
import { RelayExchangeError } from './errors'
import { inboxKey, parseInboxKey } from './inbox-keys'
import { RenewingWatch } from './relay-kv'
import type { RelayLink } from './relay-link'

/** Routes the answers written under one asker's token in one bucket to the asks waiting for them. */
export class AnswerRouter {
  readonly #link: RelayLink
  readonly #kv: KV
  readonly #token: string
  readonly #listeners = new Map<string, (entry: KvEntry) => void>()
  readonly #closed = new AbortController()
  #watch: Promise<RenewingWatch> | undefined

  constructor(link: RelayLink, kv: KV, token: string) {
    this.#link = link
    this.#kv = kv
    this.#token = token
  }

  /**
   * Sends every answer stored at `askId`'s key from now on to `onEntry` (at least once each; the caller
   * de-duplicates by revision). Resolves once the watch is in place, with the function that stops
   * listening; rejects with `signal`'s reason, or the watch's start failure (`RELAY_DENIED`). Write the
   * question only after it resolved.
   */
  async listen(askId: string, onEntry: (entry: KvEntry) => void, signal: AbortSignal): Promise<() => void> {
    if (this.#listeners.has(askId))
      throw new RelayExchangeError('EXCHANGE_INVALID', `an ask is already waiting under the id ${askId}`)
    this.#listeners.set(askId, onEntry)
    const stop = (): void => {
      if (this.#listeners.get(askId) === onEntry) this.#listeners.delete(askId)
    }
    try {
      await abortable(this.#started(), signal)
    } catch (error) {
      stop()
      throw error
    }
    return stop
  }

  /** Stops the watch (the asks still listening hear nothing more). */
  close(): void {
    this.#closed.abort()
    void this.#watch?.then(
      (watch) => watch.stop(),
      () => undefined,
    )
  }

  #started(): Promise<RenewingWatch> {
    this.#watch ??= RenewingWatch.start(
      this.#link,
      this.#kv,
      inboxKey('a', this.#token, '*'),
      (entry) => this.#route(entry),
      this.#closed.signal,
      { updatesOnly: true, onReopened: () => void this.#catchUp() },
    )
    // A start that failed (a denied credential, a closed link) is tried afresh by the next ask.
    this.#watch.catch(() => (this.#watch = undefined))
    return this.#watch
  }

  #route(entry: KvEntry): void {
    const parts = parseInboxKey(entry.key)
    if (parts?.kind === 'a' && parts.agent === this.#token) this.#listeners.get(parts.askId)?.(entry)
  }

  /** Reads the key of every ask still waiting: what was stored while the watch was being re-opened. */
  async #catchUp(): Promise<void> {
    await Promise.all(
      [...this.#listeners.keys()].map(async (askId) => {
        const entry = await this.#kv.get(inboxKey('a', this.#token, askId)).catch(() => null)
        if (entry?.operation === 'PUT') this.#listeners.get(askId)?.(entry)
      }),
    )
  }
}

/** `promise`, or the rejection with `signal`'s reason once it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
