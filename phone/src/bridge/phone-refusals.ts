// Which failures to reach the inbox no retry can mend, and what the phone says about each. Dialling again
// every two seconds would only hide them behind "retrying": an outdated or tampered relay, a credential
// the relay refuses (expired, or the phone removed on the desktop), a roster that leaves the phone out or
// lapsed. The phone stops and says what to do; reopening the app or coming back online tries once more.
import { RelayCodedError } from '../../../relay/coded-error'
import { isRelayCryptoError } from '../../../relay/crypto/errors'
import type { Roster } from '../../../relay/crypto/schemas'
import { isRelayExchangeError } from '../../../relay/exchange/errors'
import { RelayNatsError } from '../../../relay/nats/errors'

/** A refusal that stops the phone's dialling: a stable code and the sentence the person reads. */
export interface PhoneRefusal {
  code: string
  text: string
}

/** What ends every refusal: when the phone tries again by itself. */
const TRIES_AGAIN = 'This phone tries again when you reopen the app or it comes back online.'

/** Thrown by the bridge when the roster it accepted does not list this phone. */
export class PhoneRemovedError extends RelayCodedError<'PHONE_NOT_IN_ROSTER'> {
  override readonly name = 'PhoneRemovedError'
  constructor() {
    super('PHONE_NOT_IN_ROSTER', "this phone is not in the relay's roster")
  }
}

/** Thrown by a dial when the relay refused the phone's credential at connect (expired, or revoked). */
export class PhoneCredentialRefusedError extends RelayCodedError<'RELAY_DENIED'> {
  override readonly name = 'PhoneCredentialRefusedError'
  constructor(cause: unknown) {
    super('RELAY_DENIED', "the relay refused this phone's credential", { cause })
  }
}

/** Whether `roster` lists the member `self` (a roster without it means the phone was removed). */
export function rosterHas(roster: Roster, self: string): boolean {
  return roster.members.some((member) => member.id === self)
}

/**
 * The permanent refusal `error` stands for, or `undefined` for a failure worth dialling again (the
 * relay out of reach, a connection lost while starting, anything unknown).
 */
export function permanentRefusal(error: unknown): PhoneRefusal | undefined {
  if (error instanceof PhoneRemovedError)
    return {
      code: error.code,
      text: `This phone was removed from your relay on the desktop, so it can answer nothing. To use it again, pair it anew: on the desktop, Relay → Add a phone. ${TRIES_AGAIN}`,
    }
  if (error instanceof RelayNatsError)
    return {
      code: error.code,
      text: `The relay server is refused (${error.code}): ${error.message} Whoever runs the relay's nats-server updates it; then reopen this app.`,
    }
  if (error instanceof PhoneCredentialRefusedError)
    return {
      code: error.code,
      text: `The relay refused this phone's credential: it expired (the desktop renews it while the phone connects at least weekly), or the phone was removed on the desktop. Pair it again: on the desktop, Relay → Add a phone. ${TRIES_AGAIN}`,
    }
  // Connected, but an operation the inbox needs was refused: the relay's account predates this release's rights.
  if (isRelayExchangeError(error, 'RELAY_DENIED'))
    return {
      code: error.code,
      text: `The relay does not give this phone a right its inbox needs (${error.message}); the relay's account is older than this app. Start the desktop companion: it brings the relay's rights up to date. ${TRIES_AGAIN}`,
    }
  if (isRelayExchangeError(error, 'ROSTER_MISSING'))
    return {
      code: error.code,
      text: `The relay holds no roster (its storage was reset?). Start the desktop companion: it publishes the roster again. ${TRIES_AGAIN}`,
    }
  if (isRelayCryptoError(error, 'ROSTER_EXPIRED'))
    return {
      code: error.code,
      text: `Your relay's roster has expired, so nothing on it can be trusted. Start the desktop companion: it renews the roster at every start. ${TRIES_AGAIN}`,
    }
  if (isRelayCryptoError(error) && error.code.startsWith('ROSTER_'))
    return {
      code: error.code,
      text: `Alarm: the relay's roster does not verify against the key this phone pinned when it was paired (${error.code}): ${error.message}. Nothing from this relay is shown. Check the relay from the desktop. ${TRIES_AGAIN}`,
    }
  return undefined
}
