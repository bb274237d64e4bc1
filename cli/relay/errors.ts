// Refusals of `ask-user relay`, each with a stable code and a message that says what to do.

/** Stable codes of the relay commands themselves (relay/nats and relay/crypto have their own). */
export type RelayCliCode = 'RELAY_ALREADY_INITIALIZED' | 'RELAY_NAME_TAKEN' | 'RELAY_NO_URL' | 'RELAY_NO_LINE'

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
