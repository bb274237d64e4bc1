// Refusals about the relay state kept in a companion's home, each with a stable code and a message that
// says what to do. The relay commands and the companion's start-up both surface them as they are.

/** Stable codes of relay/home. */
export type RelayHomeCode = 'RELAY_NOT_INITIALIZED' | 'RELAY_BAD_STATE' | 'RELAY_NO_URL' | 'RELAY_SETUP_EXPIRED' | 'RELAY_NOT_A_DESKTOP'

/** An error about the relay files in a companion's home. Its message never carries a seed, a key or a credential. */
export class RelayHomeError extends Error {
  override readonly name = 'RelayHomeError'
  constructor(
    readonly code: RelayHomeCode,
    message: string,
  ) {
    super(message)
  }
}
