// Refusals about the relay state kept in a companion's home, each with a stable code and a message that
// says what to do. The relay commands and the companion's start-up both surface them as they are.

import { RelayCodedError } from '../coded-error'

/** Stable codes of relay/home. */
export type RelayHomeCode =
  | 'RELAY_NOT_INITIALIZED'
  | 'RELAY_BAD_STATE'
  | 'RELAY_NO_URL'
  | 'RELAY_SETUP_EXPIRED'
  | 'RELAY_ROSTER_CONFLICT'
  | 'RELAY_NO_SUCH_AGENT'
  | 'RELAY_NO_SUCH_DEVICE'
  | 'RELAY_PASSWORDS_INVALID'
  | 'RELAY_PASSWORDS_SIGNATURE'
  | 'RELAY_PASSWORDS_ROLLBACK'
  | 'RELAY_MIRROR_NEEDS_DESKTOP'
  | 'RELAY_ACCOUNT_REFUSED'
  | 'RELAY_NAME_TAKEN'
  | 'RELAY_NO_PHONE_URLS'
  | 'RELAY_NO_SUCH_MEMBER'
  | 'RELAY_CANNOT_REMOVE_DESKTOP'
  | 'RELAY_DESK_RECORDS_CONFLICT'

/** An error about the relay files in a companion's home. Its message never carries a seed, a key or a credential. */
export class RelayHomeError extends RelayCodedError<RelayHomeCode> {
  override readonly name = 'RelayHomeError'
}

/**
 * `CODE: message` for any error that has a stable code (once, also when the message already starts
 * with it), else the message; never the error's data.
 */
export function describeRelayError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]+$/.test(code) || message.startsWith(`${code}: `)) return message
  return `${code}: ${message}`
}
