// Refusals of `ask-user relay`, each with a stable code and a message that says what to do.

/** Stable codes of the relay commands themselves (relay/nats and relay/crypto have their own). */
export type RelayCliCode =
  | 'RELAY_ALREADY_INITIALIZED'
  | 'RELAY_NAME_TAKEN'
  | 'RELAY_UNREACHABLE'
  | 'RELAY_NO_URL'
  | 'RELAY_NO_LINE'
  | 'RELAY_NO_RECOVERY_CODE'
  | 'RELAY_RECOVERY_CODE_MISMATCH'
  | 'RELAY_CONNECT_URL_MISMATCH'
  | 'RELAY_BAD_APP_URL'
  | 'RELAY_BAD_WEBSOCKET_URL'
  | 'RELAY_APP_URL_NEEDS_DESKTOP'
  | 'RELAY_SERVE_APP_LINK'
  | 'RELAY_SERVE_APP_NOT_BUILT'

/** An error of the relay commands. Its message never carries a seed, a key or a credential. */
export class RelayCliError extends Error {
  override readonly name = 'RelayCliError'
  constructor(
    readonly code: RelayCliCode,
    message: string,
  ) {
    super(message)
  }
}

export { describeRelayError } from '../../relay/home/errors'
