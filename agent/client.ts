import type { CheckedAnswer } from '../shared/answer-rules'
import type { ApprovalDecision, ApprovalRequest, Notice } from '../shared/approval'
import { AskUserError, isAskUserError } from '../shared/error-codes'
import { UNCAPPED_LIMITS } from '../shared/limits'
import { validateApproval, validateNotice } from '../shared/validate-approval'
import type { ValidatedAsk } from '../shared/validate-input'
import type { ClientInfo } from '../shared/wire'
import { Connection } from './connection'
import { discoverEndpoint } from './discovery'
import { AskAbortedError, timedOut } from './errors'
import { RelayRoute, relaySourceFrom, type RelayAskOptions } from './relay-route'

/** How a client finds the companion and introduces itself. */
export interface AskUserClientOptions {
  /**
   * Environment read for `ASK_USER_URL`, `ASK_USER_TOKEN`, `ASK_USER_HOME`, and for the relay asks go to
   * when no local companion runs, `ASK_USER_RELAY_FILE` or `ASK_USER_RELAY` (default `process.env`).
   */
  env?: NodeJS.ProcessEnv
  /** Name shown to the person (default `ask-user`). */
  name?: string
  version?: string
  /** A title for the agent's session, shown beside its name. */
  title?: string
  /** Working directory shown to the person (default `process.cwd()`). */
  cwd?: string
  /** Process id shown to the person (default `process.pid`). */
  pid?: number
  /**
   * The harness's session id, when the caller knows it (a hook does): every connection naming the
   * same `name` and session is one agent in the inbox, whatever its pid or folder.
   */
  session?: string
  /** Limit for connecting and being greeted, in milliseconds (default 10 000). */
  connectTimeoutMs?: number
  /**
   * Opens a greeted connection for `client` within `timeoutMs`. Default: discover the endpoint from
   * `env` (on every connect) and dial its WebSocket ({@link Connection.open}). Another carrier, or a
   * test's in-memory transport, passes `(client) => Connection.greet(transport, client)`; it should
   * reject with an {@link AskUserError} (`NO_PROVIDER`) when there is no companion.
   */
  connect?: (client: ClientInfo, timeoutMs: number) => Promise<Connection>
  /**
   * Whether asks may go through the relay `env` configures when no local companion runs (default true).
   * False for the askpass helper and the hooks: they reach the local companion only, for now.
   */
  relay?: boolean
}

/** Per-ask options. */
export interface AskOptions {
  /** Aborts the wait: the companion withdraws the ask and the promise fails with `ASK_ABORTED`. */
  signal?: AbortSignal
  /**
   * Gives up after this many milliseconds (connecting included): the ask is withdrawn and the promise
   * fails with `ASK_ABORTED` (reason `timeout`). Default: no timeout; the ask waits for the person.
   */
  timeoutMs?: number
  /** A title for this ask, shown above its questions. */
  title?: string
}

/** The longest timeout a Node timer can wait (2^31 − 1 ms, about 24.8 days); longer ones would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647

/**
 * A client of the companion's agent endpoint. Connects lazily on the first ask (by default
 * re-discovering the endpoint on every connect), carries any number of concurrent asks on one
 * connection, and reconnects on a later ask after the companion went away. Never invents an answer: every ask ends with the
 * person's answer (checked against the answer rules) or an {@link AskUserError}:
 * `NO_PROVIDER` (no companion; the message says how to start one), `ASK_CANCELLED` (dismissed),
 * `ASK_ABORTED` (signal, timeout, lost companion or {@link AskUserClient.close}; see `AskAbortedError`),
 * `INVALID_ARGS` (a timeout no timer can wait for), `LIMIT_EXCEEDED` (over the companion's caps).
 * An authenticated local companion comes first; when none answers the connection and a relay is
 * configured (`ASK_USER_RELAY_FILE` / `ASK_USER_RELAY`), {@link AskUserClient.ask} goes through the relay
 * (agent/relay-route.ts) with the same results and errors; approvals and notices stay local.
 * Questions come in validated (`validateAsk`, the MCP server, the provider, the CLI), so a bad
 * question never reaches it.
 */
export class AskUserClient {
  readonly #options: AskUserClientOptions
  #info: Partial<ClientInfo> = {}
  #connecting: Promise<Connection> | undefined
  #counter = 0
  #closed = false
  readonly #outstanding = new Set<(error: AskUserError) => void>()
  /** The relay route: undefined until first needed, null when none is configured. */
  #relay: RelayRoute | null | undefined

  constructor(options: AskUserClientOptions = {}) {
    this.#options = options
  }

  /** Changes how the client introduces itself; applies from the next connection on. */
  setClientInfo(info: Partial<Pick<ClientInfo, 'name' | 'version' | 'title' | 'session'>>): void {
    this.#info = { ...this.#info, ...info }
  }

  /** The `client` object of the next `hello`. */
  clientInfo(): ClientInfo {
    const o = this.#options
    const info: ClientInfo = {
      name: this.#info.name ?? o.name ?? 'ask-user',
      pid: o.pid ?? process.pid,
      cwd: o.cwd ?? process.cwd(),
    }
    const version = this.#info.version ?? o.version
    const title = this.#info.title ?? o.title
    if (version !== undefined) info.version = version
    if (title !== undefined) info.title = title
    const session = this.#info.session ?? o.session
    if (session !== undefined) info.session = session
    return info
  }

  /**
   * Asks the person the questions of `ask` (tool arguments already validated where they entered, see
   * `validateAsk`; not checked again here) and resolves with their answer, checked against the answer
   * rules by the connection it came in on.
   */
  async ask(ask: ValidatedAsk, options: AskOptions = {}): Promise<CheckedAnswer> {
    // A secret question may go through the relay too: a desk answers it only where the person allowed
    // remote passwords for this agent, sealed to this ask's one-time reply key, in the short-lived `secret`
    // bucket. The askpass helper opts out (`relay: false`): its prompts stay on this machine.
    const relayable = this.#options.relay !== false
    return this.#wait<CheckedAnswer>(
      options,
      (open, id, title, pending) => open.ask(id, ask, title, pending),
      relayable ? (route, relayOptions) => route.ask(ask, relayOptions) : undefined,
    )
  }

  /**
   * Asks the person to approve one action (a harness's permission prompt) and resolves with their
   * decision: `{behavior:'allow', always?}` or `{behavior:'deny', message?}`. `request` is checked here
   * with `ApprovalRequestSchema` (`INVALID_ARGS`); the companion applies its caps (`LIMIT_EXCEEDED`).
   * Fails as {@link ask} does: `ASK_CANCELLED` when the person dismisses it, `ASK_ABORTED` on signal,
   * timeout or a lost companion, `NO_PROVIDER` when no companion runs. Never a default decision.
   */
  async requestApproval(request: ApprovalRequest, options: AskOptions = {}): Promise<ApprovalDecision> {
    const checked = validateApproval(request, UNCAPPED_LIMITS)
    if (!checked.ok) throw new AskUserError(checked.code, checked.message)
    return this.#wait<ApprovalDecision>(options, (open, id, title, pending) =>
      open.approve(id, checked.value, title, pending),
    )
  }

  /**
   * Shows a notice in the person's inbox (the agent waits for input, its turn ended, …). Resolves once
   * the frame is sent; the companion replies only to refuse it. `notice` is checked with `NoticeSchema`
   * (`INVALID_ARGS`); `NO_PROVIDER` when no companion runs.
   */
  async notify(notice: Notice, options: Pick<AskOptions, 'title'> = {}): Promise<void> {
    const checked = validateNotice(notice, UNCAPPED_LIMITS)
    if (!checked.ok) throw new AskUserError(checked.code, checked.message)
    if (this.#closed) throw new AskAbortedError('closed', 'the ask-user client is closed')
    const open = await this.#connection()
    if (!open.notice(checked.value, options.title)) {
      throw new AskAbortedError('connection-lost', 'the Ask User Companion went away before the notice was sent')
    }
  }

  /** One request that waits for the person: signal, timeout and close abort it; `start` sends it on the connection. */
  #wait<T>(
    options: AskOptions,
    start: (
      open: Connection,
      id: string,
      title: string | undefined,
      pending: { resolve(value: T): void; reject(error: AskUserError): void },
    ) => void,
    throughRelay?: (route: RelayRoute, options: RelayAskOptions) => Promise<T>,
  ): Promise<T> {
    const { signal, timeoutMs, title } = options
    if (signal?.aborted) return Promise.reject(new AskAbortedError('signal', 'the ask was aborted before it was sent'))
    if (this.#closed) return Promise.reject(new AskAbortedError('closed', 'the ask-user client is closed'))
    if (timeoutMs !== undefined && !(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
      return Promise.reject(
        new AskUserError(
          'INVALID_ARGS',
          `invalid arguments: timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 24.8 days), got ${timeoutMs}`,
        ),
      )
    }
    const id = `ask-${++this.#counter}`

    return new Promise<T>((resolve, reject) => {
      let settled = false
      let connection: Connection | undefined
      let timer: NodeJS.Timeout | undefined
      // Withdraws the ask on the relay when it went there (the local route withdraws with `cancel`).
      const relayStop = new AbortController()
      const started = Date.now()
      const cleanup = (): void => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        this.#outstanding.delete(abortNow)
      }
      const settle = (finish: () => void): void => {
        if (settled) return
        settled = true
        cleanup()
        finish()
      }
      const abortNow = (error: AskUserError): void => {
        connection?.cancel(id)
        relayStop.abort(error)
        settle(() => reject(error))
      }
      const onAbort = (): void =>
        abortNow(new AskAbortedError('signal', 'the ask was aborted before the person answered'))
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#outstanding.add(abortNow)
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => abortNow(timedOut(timeoutMs)), timeoutMs)
      }
      this.#connection().then(
        (open) => {
          if (settled) return
          connection = open
          try {
            start(open, id, title, {
              resolve: (value) => settle(() => resolve(value)),
              reject: (error) => settle(() => reject(error)),
            })
          } catch (error) {
            // e.g. extra data in the questions that JSON.stringify cannot take (a cycle, a BigInt)
            settle(() => reject(error))
          }
        },
        (error: unknown) => {
          if (settled) return
          let relay: RelayRoute | undefined
          try {
            relay =
              throughRelay && isAskUserError(error) && error.code === 'NO_PROVIDER' ? this.#relayRoute() : undefined
          } catch (ambiguous) {
            return settle(() => reject(ambiguous))
          }
          if (relay === undefined || throughRelay === undefined) return settle(() => reject(error))
          // No local companion: the relay this agent was given, within what is left of the timeout.
          throughRelay(relay, {
            signal: relayStop.signal,
            ...(timeoutMs === undefined ? {} : { timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)) }),
            ...(title === undefined ? {} : { title }),
          }).then(
            (value) => settle(() => resolve(value)),
            (relayError: unknown) => settle(() => reject(relayError)),
          )
        },
      )
    })
  }

  /** The relay route `env` configures (read once), or undefined; throws `NO_PROVIDER` when it is ambiguous. */
  #relayRoute(): RelayRoute | undefined {
    if (this.#relay === undefined) {
      const source = relaySourceFrom(this.#options.env ?? process.env)
      this.#relay = source === undefined ? null : new RelayRoute(source)
    }
    return this.#relay ?? undefined
  }

  /** Number of asks of this client not yet settled. */
  get pendingCount(): number {
    return this.#outstanding.size
  }

  /** Aborts every pending ask (`ASK_ABORTED`, reason `closed`) and closes the connection. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    for (const abort of [...this.#outstanding])
      abort(new AskAbortedError('closed', 'the ask-user client was closed before the person answered'))
    const connecting = this.#connecting
    this.#connecting = undefined
    await this.#relay?.close()
    if (connecting)
      await connecting.then(
        (c) => c.close(),
        () => undefined,
      )
  }

  /** The open connection, or a new one (endpoint re-discovered) when there is none or it has closed. */
  #connection(): Promise<Connection> {
    const current = this.#connecting
    if (current) return current
    const connect =
      this.#options.connect ??
      (async (client: ClientInfo, timeoutMs: number) =>
        Connection.open(await discoverEndpoint(this.#options.env ?? process.env), client, timeoutMs))
    const opening = connect(this.clientInfo(), this.#options.connectTimeoutMs ?? 10_000)
    this.#connecting = opening
    opening.then(
      (connection) => {
        connection.onClose(() => {
          if (this.#connecting === opening) this.#connecting = undefined
        })
        if (this.#closed) void connection.close()
      },
      () => {
        if (this.#connecting === opening) this.#connecting = undefined
      },
    )
    return opening
  }
}
