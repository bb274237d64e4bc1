// Refusals of `ask-user relay`, each with a stable code and a message that says what to do.

/** Stable codes of the relay commands themselves (relay/nats and relay/crypto have their own). */
export type RelayCliCode =
  | 'RELAY_ALREADY_INITIALIZED'
  | 'RELAY_NAME_TAKEN'
  | 'RELAY_NO_URL'
  | 'RELAY_NO_SUCH_MEMBER'
  | 'RELAY_CANNOT_REMOVE_DESKTOP'
  | 'RELAY_NO_LINE'

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

/** `CODE: message` for any error that has a stable code, else the message; never the error's data. */
export function describeRelayError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? `${code}: ${message}` : message
}
