import { z } from 'zod'
import { codedErrorGuard, RelayCodedError } from '../coded-error'

/** Every way relay/push refuses something. Stable: callers and tests match on these codes, never on messages. */
export const RelayPushCodeSchema = z.enum([
  /** A notice larger than a push service carries (our own cap, checked before sending). */
  'PUSH_TOO_LARGE',
  /** A browser push subscription that is not one (endpoint, p256dh, auth). */
  'PUSH_SUBSCRIPTION_INVALID',
  /** A stored subscription record not signed by a device of the roster, or written for another key. */
  'PUSH_SUBSCRIPTION_SIGNATURE',
  /** The roster's push section does not open with this member's key (not a recipient, or damaged). */
  'PUSH_SECTION_OPEN',
  /** The VAPID key file is malformed. */
  'PUSH_VAPID_INVALID',
])
export type RelayPushCode = z.infer<typeof RelayPushCodeSchema>

/** A refusal by relay/push: `code` is stable, `message` says what happened and what to do. Never carries keys. */
export class RelayPushError extends RelayCodedError<RelayPushCode> {
  override readonly name = 'RelayPushError'
  constructor(code: RelayPushCode, message: string) {
    super(code, `${code}: ${message}`)
  }
}

/** True when `value` is a {@link RelayPushError} with `code` (or any code when `code` is omitted). */
export const isRelayPushError = codedErrorGuard(RelayPushError)
