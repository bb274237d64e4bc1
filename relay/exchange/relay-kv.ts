// The few KV operations both ends need, done so that a credential scoped to single keys suffices
// (RELAY.md §3.2): direct gets, the extended consumer create (the KV watch), and `create()` as a
// publish that expects the key to be new. Writes are retried until they land or the caller gives up:
// during an outage a write times out without being stored, and a timeout after the server stored it
// comes back as "wrong last sequence", which the caller resolves by comparing the stored value.
import { jetstream, JetStreamApiError } from '@nats-io/jetstream'
import { Kvm, KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv'
import { ClosedConnectionError, type NatsConnection } from '@nats-io/nats-core'
import { isRelayCryptoError } from '../crypto'
import { RelayExchangeError } from './errors'
import type { RelayLink } from './relay-link'
import { delay } from './delay'

/** The server's "wrong last sequence" code: the key already holds a value. */
export const WRONG_LAST_SEQUENCE = 10071
const FIRST_RETRY_MS = 100
const LONGEST_RETRY_MS = 2_000

/** True for the server's permission violation (any wrapping): retrying cannot help. */
export function isPermissionViolation(error: unknown): boolean {
  const text = (value: unknown): string => (value instanceof Error ? `${value.name} ${value.message}` : String(value))
  return /permissions? violation|authorization violation/i.test(
    `${text(error)} ${text((error as Error | undefined)?.cause)}`,
  )
}

/**
 * Runs `attempt` until it resolves, retrying after any failure with a growing pause (0.1 s to 2 s), until
 * `signal` aborts (then rejects with the signal's reason). Final, never retried: a permission violation
 * (`RELAY_DENIED`), a closed connection, and any RelayExchangeError or RelayCryptoError `attempt` throws.
 */
export async function retryUntilDone<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let pause = FIRST_RETRY_MS; ; pause = Math.min(pause * 2, LONGEST_RETRY_MS)) {
    signal.throwIfAborted()
    try {
      return await attempt()
    } catch (error) {
      // Refusals of our own checks (a stale roster, a bad question) are final; only the relay's failures are retried.
      if (error instanceof RelayExchangeError || isRelayCryptoError(error)) throw error
      if (isPermissionViolation(error)) {
        throw new RelayExchangeError(
          'RELAY_DENIED',
          'the relay refused this credential an operation it needs; ask the desktop for a new credential',
          { cause: error },
        )
      }
      if (error instanceof ClosedConnectionError) throw error
      signal.throwIfAborted()
      await delay(pause, signal)
    }
  }
}

/** Opens `bucket` for direct gets and watches (no stream info: scoped credentials may not read it). */
export async function openBucket(nc: NatsConnection, bucket: string): Promise<KV> {
  return new Kvm(jetstream(nc, { checkAPI: false })).open(bucket, { allow_direct: true })
}

/** The value at `key` and its revision through a direct get, or `undefined` when there is none. */
export async function readEntry(kv: KV, key: string): Promise<{ value: Uint8Array; revision: number } | undefined> {
  const entry = await kv.get(key)
  return entry === null || entry.operation !== 'PUT' ? undefined : { value: entry.value, revision: entry.revision }
}

/**
 * Stores `value` at `key` of `bucket` only if the key is new (one attempt). Resolves `true` when this
 * call stored it, `false` when the key already held a value (possibly ours, after an ambiguous timeout).
 */
export async function createEntry(
  nc: NatsConnection,
  bucket: string,
  key: string,
  value: Uint8Array,
): Promise<boolean> {
  try {
    await jetstream(nc, { checkAPI: false }).publish(`$KV.${bucket}.${key}`, value, {
      expect: { lastSubjectSequence: 0 },
    })
    return true
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === WRONG_LAST_SEQUENCE) return false
    throw error
  }
}

/**
 * `create()` on `bucket` (its name and its opened KV) retried through outages (see {@link retryUntilDone}).
 * Resolves `created` when `value` is at
 * `key` (stored by this call or by an earlier attempt whose reply was lost), or the other value that took
 * the key first.
 */
export async function createEntryRetrying(
  nc: NatsConnection,
  bucket: { name: string; kv: KV },
  key: string,
  value: Uint8Array,
  signal: AbortSignal,
): Promise<{ created: true } | { created: false; stored: { value: Uint8Array; revision: number } }> {
  return retryUntilDone(async () => {
    if (await createEntry(nc, bucket.name, key, value)) return { created: true as const }
    const stored = await readEntry(bucket.kv, key)
    if (stored === undefined) throw new Error('the key was taken but reads empty; reading again')
    return sameBytes(stored.value, value) ? { created: true as const } : { created: false as const, stored }
  }, signal)
}

/** True when `a` and `b` hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index])
}

/** How a {@link RenewingWatch} starts: with every current value (the default), or with new ones only. */
export interface RenewingWatchOptions {
  /**
   * Deliver only values stored after each (re-)open, none of the history. What was stored while the watch
   * was being re-opened is then the caller's to read: `onReopened` runs once each re-open is in place.
   */
  updatesOnly?: boolean
  onReopened?: () => void
}

/**
 * A KV watch on `key` (a key or a `*`/`>` filter) that survives relay outages: it is re-created after
 * every reconnect of `link` (and when it ends on its own), so every current value is delivered again
 * (unless `updatesOnly`). `onEntry` sees each stored value (PUT) at least once, in stream order per
 * watch; callers de-duplicate by key and revision.
 */
export class RenewingWatch {
  readonly #kv: KV
  readonly #key: string
  readonly #onEntry: (entry: KvEntry) => void
  readonly #options: RenewingWatchOptions
  readonly #stopped = new AbortController()
  #current: { stop(): void } | undefined
  #reopening: Promise<void> | undefined

  private constructor(kv: KV, key: string, onEntry: (entry: KvEntry) => void, options: RenewingWatchOptions) {
    this.#kv = kv
    this.#key = key
    this.#onEntry = onEntry
    this.#options = options
  }

  /**
   * Starts watching; resolves once the first watch is in place, retrying until `signal` aborts (then it
   * rejects with the signal's reason). `signal` bounds only the start: the watch lives until {@link stop}.
   */
  static async start(
    link: RelayLink,
    kv: KV,
    key: string,
    onEntry: (entry: KvEntry) => void,
    signal: AbortSignal,
    options: RenewingWatchOptions = {},
  ): Promise<RenewingWatch> {
    const watch = new RenewingWatch(kv, key, onEntry, options)
    const unsubscribe = link.onReconnect(() => void watch.#reopen())
    watch.#stopped.signal.addEventListener('abort', unsubscribe, { once: true })
    try {
      await watch.#open(AbortSignal.any([signal, watch.#stopped.signal]))
    } catch (error) {
      watch.stop()
      throw error
    }
    return watch
  }

  /** Stops the watch for good. */
  stop(): void {
    this.#stopped.abort()
    this.#current?.stop()
  }

  async #open(signal: AbortSignal): Promise<void> {
    const include = this.#options.updatesOnly ? KvWatchInclude.UpdatesOnly : KvWatchInclude.LastValue
    const iterator = await retryUntilDone(() => this.#kv.watch({ key: this.#key, include }), signal)
    if (this.#stopped.signal.aborted) {
      iterator.stop()
      return
    }
    this.#current = iterator
    void (async () => {
      for await (const entry of iterator) if (entry.operation === 'PUT') this.#onEntry(entry)
      // The watch ended by itself (its consumer vanished): open a new one unless stopped or replaced.
      if (this.#current === iterator) await this.#reopen()
    })().catch(() => this.#reopen())
  }

  // One re-open at a time: a reconnect and the old watch ending may both ask for one.
  #reopen(): Promise<void> {
    if (this.#stopped.signal.aborted) return Promise.resolve()
    this.#reopening ??= (async () => {
      const old = this.#current
      this.#current = undefined
      old?.stop()
      const opened = await this.#open(this.#stopped.signal).then(
        () => true,
        () => false,
      )
      if (opened && !this.#stopped.signal.aborted) this.#options.onReopened?.()
    })().finally(() => {
      this.#reopening = undefined
    })
    return this.#reopening
  }
}
