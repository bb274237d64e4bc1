import { RelayCodedError } from '../coded-error'

/** Stable codes for every refusal of the pairing exchange; each message says what to do instead. */
export type RelayPairingCode =
  | 'RELAY_PAIR_LINE_INVALID'
  | 'RELAY_PAIR_EXPIRED'
  | 'RELAY_PAIR_REQUEST_INVALID'
  | 'RELAY_PAIR_REPLAY'
  | 'RELAY_PAIR_MAC'
  | 'RELAY_PAIR_SECOND_REQUEST'
  | 'RELAY_PAIR_LINE_USED'
  | 'RELAY_PAIR_DECLINED'
  | 'RELAY_PAIR_CANCELLED'
  | 'RELAY_PAIR_RESPONSE_INVALID'

/** A refusal of the pairing exchange. Never carries the pairing secret, a key or a credential. */
export class RelayPairingError extends RelayCodedError<RelayPairingCode> {
  override readonly name = 'RelayPairingError'
}
