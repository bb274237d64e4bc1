import { z } from 'zod'
import { codedErrorGuard, RelayCodedError } from '../coded-error'

/**
 * Every way the relay's end-to-end crypto refuses something. Stable: callers, tests and the UI match
 * on these codes, never on messages.
 */
export const RelayCryptoCodeSchema = z.enum([
  // keys and recovery codes
  'KEY_INVALID',
  'RECOVERY_CODE_INVALID',
  // the root-signed roster
  'ROSTER_SIGNATURE',
  'ROSTER_INVALID',
  'ROSTER_ROLLBACK',
  'ROSTER_EXPIRED',
  // question envelopes (agent → devices)
  'NO_RECIPIENTS',
  'QUESTION_INVALID',
  'QUESTION_UNKNOWN_AGENT',
  'QUESTION_SIGNATURE',
  'QUESTION_BINDING',
  'QUESTION_NOT_RECIPIENT',
  'QUESTION_OPEN',
  // answer envelopes (device → agent)
  'ANSWER_INVALID',
  'NOT_A_MEMBER',
  'ANSWER_SIGNATURE',
  'ANSWER_BINDING',
  'ANSWER_OPEN',
  // receipts (agent → devices: how an ask ended)
  'RECEIPT_INVALID',
  'RECEIPT_SIGNATURE',
  'RECEIPT_BINDING',
  // presence (agent → devices: "still here")
  'PRESENCE_INVALID',
  'PRESENCE_SIGNATURE',
  'PRESENCE_BINDING',
])
export type RelayCryptoCode = z.infer<typeof RelayCryptoCodeSchema>

/**
 * A refusal by relay/crypto. Local only (never sent to the relay): `code` is stable, `message` says what
 * happened and what the person or the caller should do. Never carries key material.
 */
export class RelayCryptoError extends RelayCodedError<RelayCryptoCode> {
  override readonly name = 'RelayCryptoError'
  constructor(code: RelayCryptoCode, message: string, options?: { cause?: unknown }) {
    super(code, `${code}: ${message}`, options)
  }
}

/** True when `value` is a {@link RelayCryptoError} with `code` (or any code when `code` is omitted). */
export const isRelayCryptoError = codedErrorGuard(RelayCryptoError)
