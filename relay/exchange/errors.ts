import { z } from 'zod'
import { codedErrorGuard, RelayCodedError } from '../coded-error'

/**
 * Every way one remote ask can end without an answer, and what the exchange refuses. Stable: callers
 * (the CLI's exit codes, the core bridge) match on the code, never on the message.
 */
export const RelayExchangeCodeSchema = z.enum([
  /** The relay was not reached once within the reach deadline (the CLI exits 4 on this one only). */
  'RELAY_NEVER_REACHED',
  /** The relay was reached, then lost, and was still unreachable when the ask's time ran out. */
  'RELAY_LOST',
  /** The relay was reachable but nobody answered before the caller's timeout (the ask is marked expired). */
  'ASK_TIMEOUT',
  /** The caller withdrew the ask (AbortSignal or close); nothing was answered. */
  'ASK_WITHDRAWN',
  /** Answers the agent could not verify kept taking the answer key, even after asking again. */
  'ANSWER_KEY_SPOILED',
  /** The relay refused an operation this credential needs (a wrong or expired credential). */
  'RELAY_DENIED',
  /** The roster on the relay is missing or not a roster record. */
  'ROSTER_MISSING',
  /** A question or answer this end was given breaks the exchange's rules (not the person's fault). */
  'EXCHANGE_INVALID',
  /** The desk cannot answer this ask (unknown, already settled, or not sealed to this device). */
  'ASK_NOT_PENDING',
  /** An "always allow" decision over the relay: only allow once and deny travel (docs/relay.md). */
  'ALWAYS_NOT_REMOTE',
  /** The sealed question is larger than the relay takes in one entry (its server's max_payload). */
  'ENTRY_TOO_LARGE',
])
export type RelayExchangeCode = z.infer<typeof RelayExchangeCodeSchema>

/** A refusal or ending of relay/exchange. Never carries key material or plaintext of an ask. */
export class RelayExchangeError extends RelayCodedError<RelayExchangeCode> {
  override readonly name = 'RelayExchangeError'
  constructor(code: RelayExchangeCode, message: string, options?: { cause?: unknown }) {
    super(code, `${code}: ${message}`, options)
  }
}

/** True when `value` is a {@link RelayExchangeError} with `code` (or any code when omitted). */
export const isRelayExchangeError = codedErrorGuard(RelayExchangeError)
