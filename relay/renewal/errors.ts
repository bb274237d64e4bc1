// Refusals of the renewals (the roster at every desktop start, device credentials), each with a stable
// code and a message that says what to do.

import { RelayCodedError } from '../coded-error'

/** Stable codes of relay/renewal. */
export type RelayRenewalCode =
  | 'RELAY_CREDENTIAL_INVALID'
  | 'RELAY_CREDENTIAL_SIGNATURE'
  | 'RELAY_CREDENTIAL_ROLLBACK'
  | 'RELAY_CREDENTIAL_EXPIRED'
  | 'RELAY_CREDENTIAL_REFUSED'
  | 'RELAY_UNREACHABLE'

/** An error of a renewal. Its message never carries a seed, a JWT or a key. */
export class RelayRenewalError extends RelayCodedError<RelayRenewalCode> {
  override readonly name = 'RelayRenewalError'
}
