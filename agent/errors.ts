import { AskUserError } from '../shared/error-codes'

import { START_HINT } from './start-hint'

export { START_HINT }

/** Why an ask ended with `ASK_ABORTED`. */
export type AbortReason = 'signal' | 'timeout' | 'connection-lost' | 'closed'

/**
 * `ASK_ABORTED` with the reason attached, so that callers (the CLI's exit codes) can tell a timeout or a
 * lost companion from an abort by the agent. Still an {@link AskUserError} with the upstream code.
 */
export class AskAbortedError extends AskUserError {
  constructor(
    readonly reason: AbortReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('ASK_ABORTED', message, options)
  }
}

/** `NO_PROVIDER`: no companion could be reached; the message says why and how to start one. */
export function noCompanion(why: string, cause?: unknown): AskUserError {
  return new AskUserError('NO_PROVIDER', `${why}; ${START_HINT}`, cause === undefined ? undefined : { cause })
}

/** The reason of an abort error, or undefined for anything else. */
export function abortReason(error: unknown): AbortReason | undefined {
  return error instanceof AskAbortedError ? error.reason : undefined
}

/** Milliseconds as seconds for messages: 300 → "0.3", 5000 → "5". */
export function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)))
}

/** `ASK_ABORTED` (reason `timeout`) for an ask that got no answer within `timeoutMs`, by either route. */
export function timedOut(timeoutMs: number): AskAbortedError {
  return new AskAbortedError('timeout', `no answer within ${seconds(timeoutMs)} s: the ask timed out and was withdrawn`)
}
