import { RelayCodedError } from '../coded-error'

/** Stable codes for everything relay/nats refuses; each message says what to do instead. */
export type RelayNatsCode =
  | 'RELAY_BAD_NAME'
  | 'RELAY_BAD_TTL'
  | 'RELAY_BAD_OPTIONS'
  | 'RELAY_UNSAFE_PATH'
  | 'RELAY_BAD_KEYS_FILE'
  | 'RELAY_URL_HAS_CREDENTIALS'
  | 'RELAY_URL_NOT_TLS'
  | 'RELAY_BAD_URL'
  | 'RELAY_SERVER_TOO_OLD'
  | 'RELAY_SERVER_ADVISORY'
  | 'RELAY_BAD_SERVER_INFO'

/** An error of the relay's NATS layer with a stable UPPER_SNAKE code. Never carries a seed or a JWT. */
export class RelayNatsError extends RelayCodedError<RelayNatsCode> {
  override readonly name = 'RelayNatsError'
}
