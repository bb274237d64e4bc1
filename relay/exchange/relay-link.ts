// One connection to the relay with one credential, kept up through outages: the NATS client reconnects
// forever, pings every 10 s (its default of 2 min would take minutes to notice a dead link), and this
// object tells its users whether the link is up and when it came back (watches are re-created then).
import type { ConnectionOptions, NatsConnection } from '@nats-io/nats-core'
import { RelayNatsError } from '../nats/errors'
import { checkServer, type CheckServerOptions } from '../nats/server-version'
import { inboxPrefixFor } from '../nats/templates'
import { credsLoginDerivingAhead } from './creds-authenticator'
import { delay } from './delay'
import { RelayExchangeError } from './errors'
import { isPermissionViolation } from './relay-kv'

/** How long an agent keeps trying to reach the relay before reporting it never was (RELAY.md; the CLI's 30 s). */
export const DEFAULT_REACH_TIMEOUT_MS = 30_000
const PING_INTERVAL_MS = 10_000

/**
 * Opens one NATS connection: `@nats-io/transport-node`'s `connect` in Node (see node-connect.ts),
 * `wsconnect` from `@nats-io/nats-core` in a browser (native WebSocket). Injected so that this file,
 * and the desk built on it, load in the phone's browser without Node.
 */
export type RelayConnect = (options: ConnectionOptions) => Promise<NatsConnection>

/** Where and as whom to connect: the relay URL, the `.creds` text (secret) and the credential's name. */
export interface RelayLinkOptions extends CheckServerOptions {
  url: string
  /** The transport: which client library dials `url` (nats:/tls: in Node, ws:/wss: in a browser). */
  connect: RelayConnect
  /**
   * The `.creds` text, or a function asked for it at every (re)connect: a long-running desk hands the
   * client a renewed credential before the old one expires, and the next reconnect uses it.
   */
  creds: string | (() => string)
  /** The credential's `name`: the inbox prefix its credential may read is derived from it. */
  name: string
  /** Give up the first connection after this long with `RELAY_NEVER_REACHED` (default 30 s). */
  reachTimeoutMs?: number
  /** Reconnect pause in ms (default 1 s); tests shorten it. */
  reconnectWaitMs?: number
  /** Stops trying to reach the relay: `open` rejects with the signal's reason (an agent that gave up). */
  signal?: AbortSignal
}

/** A live link to the relay: the connection, whether it is up now, and reconnect notifications. */
export class RelayLink {
  readonly nc: NatsConnection
  #up = true
  readonly #onReconnect = new Set<() => void>()
  /** Writes that must land before the link closes (see {@link keepUntilLanded}). */
  readonly #landing = new Set<Promise<void>>()

  private constructor(nc: NatsConnection) {
    this.nc = nc
    void this.#follow()
  }

  /**
   * Connects, retrying refused or failed attempts until `reachTimeoutMs`, then checks the server's version
   * for the URL. Throws `RELAY_NEVER_REACHED` when no attempt got through in time, `RELAY_DENIED` when the
   * server refused the credential, and relay/nats's `RELAY_URL_*` / `RELAY_SERVER_*` refusals; with
   * the reason of `options.signal` once it aborts.
   */
  static async open(options: RelayLinkOptions): Promise<RelayLink> {
    const deadline = Date.now() + (options.reachTimeoutMs ?? DEFAULT_REACH_TIMEOUT_MS)
    const { signal } = options
    let lastError: unknown
    // One login for every attempt and reconnect: the key pair is derived once per credential, by WebCrypto
    // while the first attempt dials.
    const authenticator = credsLoginDerivingAhead(options.creds)
    for (let pause = 100; Date.now() < deadline; pause = Math.min(pause * 2, 2_000)) {
      signal?.throwIfAborted()
      try {
        const nc = await options.connect({
          servers: options.url,
          authenticator,
          inboxPrefix: inboxPrefixFor(options.name),
          name: 'ask-user',
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: options.reconnectWaitMs ?? 1_000,
          pingInterval: PING_INTERVAL_MS,
          timeout: Math.max(500, Math.min(5_000, deadline - Date.now())),
        })
        try {
          signal?.throwIfAborted()
          checkServer(nc.info, options.url, options)
        } catch (error) {
          await nc.close()
          throw error
        }
        return new RelayLink(nc)
      } catch (error) {
        if (isPermissionViolation(error)) {
          throw new RelayExchangeError(
            'RELAY_DENIED',
            'the relay refused this credential; it may have expired: ask the desktop for a new one',
            { cause: error },
          )
        }
        signal?.throwIfAborted()
        if (error instanceof RelayNatsError) throw error
        lastError = error
      }
      await delay(Math.min(pause, Math.max(0, deadline - Date.now())), signal)
    }
    throw new RelayExchangeError(
      'RELAY_NEVER_REACHED',
      `the relay at ${options.url} could not be reached within ${Math.round((options.reachTimeoutMs ?? DEFAULT_REACH_TIMEOUT_MS) / 1000)} s; check the URL and that the relay runs`,
      { cause: lastError },
    )
  }

  /** True while the connection is up (false from a disconnect until the next reconnect). */
  get up(): boolean {
    return this.#up && !this.nc.isClosed()
  }

  /** Calls `listener` after every reconnect; returns the unsubscribe function. */
  onReconnect(listener: () => void): () => void {
    this.#onReconnect.add(listener)
    return () => this.#onReconnect.delete(listener)
  }

  /**
   * Keeps the link open until `write` settles: a write its caller does not wait for (an agent's receipt,
   * written after the answer went back to the agent) still lands before {@link close} closes the link.
   * `write` bounds its own time; its failure is its caller's to report.
   */
  keepUntilLanded(write: Promise<unknown>): void {
    const landing: Promise<void> = write.then(
      () => undefined,
      () => undefined,
    )
    this.#landing.add(landing)
    void landing.then(() => this.#landing.delete(landing))
  }

  /** Resolves once every write given to {@link keepUntilLanded} so far has settled. */
  async landed(): Promise<void> {
    while (this.#landing.size > 0) await Promise.all([...this.#landing])
  }

  /** Closes the connection once the writes it keeps have settled (pending writes are flushed first). */
  async close(): Promise<void> {
    await this.landed()
    if (!this.nc.isClosed()) await this.nc.close()
  }

  async #follow(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') this.#up = false
      if (status.type === 'reconnect') {
        this.#up = true
        for (const listener of [...this.#onReconnect]) listener()
      }
    }
  }
}
