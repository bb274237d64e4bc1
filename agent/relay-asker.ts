// The relay end of the client library (loaded by agent/relay-route.ts on the first relay ask): one link
// to the relay with the agent's credential, kept for later asks, and the relay's refusals turned into the
// library's own errors, so that `ask` prints and exits as it does with a local companion.
import { isRelayCryptoError } from '../relay/crypto'
import {
  isRelayExchangeError,
  openRemoteAsker,
  type AgentRelayConfig,
  type RelayLink,
  type RemoteAsker,
} from '../relay/exchange'
import { RelayNatsError } from '../relay/nats/errors'
import type { CheckedAnswer } from '../shared/answer-rules'
import { AskUserError } from '../shared/error-codes'
import type { ValidatedAsk } from '../shared/validate-input'
import { AskAbortedError, timedOut } from './errors'
import { readAgentRelayConfig } from './relay-file'
import type { RelayAskOptions, RelaySource, RelayTestOptions } from './relay-route'

type Opened = { asker: RemoteAsker; link: RelayLink }

/** How much later than the caller's timeout the question's expiry lies (so the caller's timer fires first). */
const EXPIRY_GRACE_MS = 1_000

/** Asks through the relay of one agent relay file; see `RelayRoute` for the contract. */
export class RelayAsker {
  readonly #config: AgentRelayConfig
  readonly #test: RelayTestOptions
  readonly #closing = new AbortController()
  #opening: Promise<Opened> | undefined

  private constructor(config: AgentRelayConfig, test: RelayTestOptions) {
    this.#config = config
    this.#test = test
  }

  /** Reads and checks the relay file (`NO_PROVIDER` when it is wrong); connects on the first ask. */
  static async open(source: RelaySource, test: RelayTestOptions): Promise<RelayAsker> {
    return new RelayAsker(await readAgentRelayConfig(source), test)
  }

  /** One ask through the relay, withdrawn there when `options.signal` aborts. */
  async ask(ask: ValidatedAsk, options: RelayAskOptions): Promise<CheckedAnswer> {
    const started = Date.now()
    try {
      const { asker } = await untilAborted(this.#link(), options.signal)
      // The caller's own timer ends the ask (and withdraws it here through the signal); this one only puts
      // the expiry in the question for the desks, and backs the caller's up a moment later.
      const timeoutMs =
        options.timeoutMs === undefined
          ? undefined
          : Math.max(1, options.timeoutMs - (Date.now() - started)) + EXPIRY_GRACE_MS
      return await asker.ask(ask.questions, {
        signal: options.signal,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(options.title === undefined ? {} : { title: options.title }),
      })
    } catch (error) {
      throw asAskUserError(error, options.timeoutMs)
    }
  }

  /** Stops reaching the relay, and closes the link when there is one. */
  async close(): Promise<void> {
    this.#closing.abort(new AskAbortedError('closed', 'the ask-user client was closed'))
    const opening = this.#opening
    this.#opening = undefined
    if (opening)
      await opening.then(
        ({ link }) => link.close(),
        () => undefined,
      )
  }

  /** The link (and the asker on it), reached once and shared; tried afresh after a failure. */
  #link(): Promise<Opened> {
    if (this.#opening) return this.#opening
    const opening = openRemoteAsker(this.#config, {
      // As the relay commands (CLI_SERVER_CHECKS in relay/home): a nats-server below the advisory floors
      // only at a literal loopback address, where the advisories' network attacks cannot reach it.
      allowOutdatedLoopback: true,
      ...(this.#test.reachTimeoutMs === undefined ? {} : { reachTimeoutMs: this.#test.reachTimeoutMs }),
      ...(this.#test.reconnectWaitMs === undefined ? {} : { reconnectWaitMs: this.#test.reconnectWaitMs }),
      signal: this.#closing.signal,
    })
    this.#opening = opening
    opening.catch(() => {
      if (this.#opening === opening) this.#opening = undefined
    })
    return opening
  }
}

/** `promise`, or the signal's reason as soon as it aborts (the promise itself carries on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as unknown)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/**
 * The library's error for a relay refusal: the reach deadline, a refused credential, a wrong URL or
 * server, a roster nobody can trust → `NO_PROVIDER` (nobody can answer through this relay); the ask's
 * time running out → `ASK_ABORTED` (timeout); a withdrawal → `ASK_ABORTED` (signal); answers that kept
 * failing verification → `INVALID_ANSWER`. Anything else (a bug) is passed on as it is.
 */
function asAskUserError(error: unknown, timeoutMs: number | undefined): unknown {
  if (error instanceof AskUserError) return error
  if (isRelayExchangeError(error)) {
    switch (error.code) {
      case 'RELAY_NEVER_REACHED':
        return new AskUserError('NO_PROVIDER', `no local Ask User Companion is running, and ${error.message}`, {
          cause: error,
        })
      case 'ASK_TIMEOUT':
        return timeoutMs === undefined ? error : timedOut(timeoutMs)
      case 'RELAY_LOST':
        return new AskAbortedError('timeout', error.message, { cause: error })
      case 'ASK_WITHDRAWN':
        return new AskAbortedError('signal', error.message, { cause: error })
      case 'ANSWER_KEY_SPOILED':
        return new AskUserError('INVALID_ANSWER', error.message, { cause: error })
      case 'RELAY_DENIED':
      case 'ROSTER_MISSING':
        return cannotAsk(error)
      default:
        return error
    }
  }
  if (error instanceof RelayNatsError) return cannotAsk(error, `${error.code}: `)
  if (isRelayCryptoError(error)) return cannotAsk(error)
  return error
}

function cannotAsk(error: Error, prefix = ''): AskUserError {
  return new AskUserError('NO_PROVIDER', `the relay cannot take this ask: ${prefix}${error.message}`, { cause: error })
}
