// Where an agent's ask goes when no local companion answers: the relay named by ASK_USER_RELAY_FILE or
// ASK_USER_RELAY. This module is loaded by every client, so it only reads the environment; the relay code
// (NATS, HPKE, the file's schema) is imported on the first relay ask, so that a harness's start-up is
// unchanged without a relay.
import type { CheckedAnswer } from '../shared/answer-rules'
import { AskUserError } from '../shared/error-codes'
import type { ValidatedAsk } from '../shared/validate-input'
import type { RelayAsker } from './relay-asker'

/** Where the agent's relay file comes from: a path (`ASK_USER_RELAY_FILE`) or the content (`ASK_USER_RELAY`). */
export type RelaySource = { kind: 'file'; path: string } | { kind: 'inline'; text: string }

/**
 * Test-only settings of the relay route, read from `globalThis[RELAY_TEST_OPTIONS]`: only code already
 * running in the process (a test, or a test's `--require` preload of a spawned `ask-user`) can set them;
 * no flag or environment variable does. `reachTimeoutMs` shortens the 30 s reach deadline,
 * `reconnectWaitMs` the 1 s reconnect pause.
 */
export const RELAY_TEST_OPTIONS = Symbol.for('ask-user.relay-test-options')

/** The shape of {@link RELAY_TEST_OPTIONS}. */
export interface RelayTestOptions {
  reachTimeoutMs?: number
  reconnectWaitMs?: number
}

/**
 * The relay `env` configures, or undefined when none is. Throws `NO_PROVIDER` when both variables are
 * set (which one was meant is a guess this never makes).
 */
export function relaySourceFrom(env: NodeJS.ProcessEnv): RelaySource | undefined {
  const path = env['ASK_USER_RELAY_FILE']?.trim()
  const text = env['ASK_USER_RELAY']?.trim()
  if (path && text)
    throw new AskUserError(
      'NO_PROVIDER',
      'both ASK_USER_RELAY_FILE and ASK_USER_RELAY are set; keep one of them (the file, or its content inline)',
    )
  if (path) return { kind: 'file', path }
  if (text) return { kind: 'inline', text }
  return undefined
}

/** Per-ask options of the relay route: the caller's signal (its timeout included) and the remaining time. */
export interface RelayAskOptions {
  signal: AbortSignal
  timeoutMs?: number
  title?: string
}

/**
 * The relay route of one client: reads the relay file and connects on its first ask, keeps the link for
 * later asks, and on {@link close} waits for every ask it withdrew to be marked withdrawn on the relay
 * (bounded) before closing the link. Errors are {@link AskUserError}s, as the local route's.
 */
export class RelayRoute {
  readonly #source: RelaySource
  #asker: Promise<RelayAsker> | undefined
  readonly #asking = new Set<Promise<unknown>>()

  constructor(source: RelaySource) {
    this.#source = source
  }

  /**
   * Asks through the relay; resolves with the person's checked answer, or rejects with `NO_PROVIDER`
   * (the relay was never reached within the reach deadline, refused the credential, or the file is
   * wrong), `ASK_ABORTED` (reason `timeout` when the ask's time ran out, `signal` when withdrawn) or
   * `INVALID_ANSWER` (answers that could not be verified kept taking the answer key).
   */
  ask(ask: ValidatedAsk, options: RelayAskOptions): Promise<CheckedAnswer> {
    const asking = this.#opened().then((asker) => asker.ask(ask, options))
    this.#asking.add(asking)
    const forget = (): void => void this.#asking.delete(asking)
    asking.then(forget, forget)
    return asking
  }

  /** Waits for the asks in flight to end (each was aborted by its caller first), then closes the link. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#asking])
    const asker = this.#asker
    this.#asker = undefined
    if (asker)
      await asker.then(
        (a) => a.close(),
        () => undefined,
      )
  }

  #opened(): Promise<RelayAsker> {
    if (this.#asker) return this.#asker
    const opening = import('./relay-asker').then(({ RelayAsker }) => RelayAsker.open(this.#source, testOptions()))
    this.#asker = opening
    // A failed open (a file to fix, a relay down) is tried afresh on the next ask.
    opening.catch(() => {
      if (this.#asker === opening) this.#asker = undefined
    })
    return opening
  }
}

function testOptions(): RelayTestOptions {
  const value: unknown = (globalThis as Record<symbol, unknown>)[RELAY_TEST_OPTIONS]
  return typeof value === 'object' && value !== null ? (value as RelayTestOptions) : {}
}
