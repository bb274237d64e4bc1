// A `.creds` text for a fresh user nkey under a throwaway account, for tests of the NATS login itself
// (no server checks it: the relay worlds mint their own, signed by their operator).
import { encodeUser, fmtCreds } from '@nats-io/jwt'
import { createAccount, createUser } from '@nats-io/nkeys'

/** A new user's `.creds` text (its JWT and seed), valid until 2033. */
export async function credsText(): Promise<string> {
  const user = createUser()
  const jwt = await encodeUser('phone', user.getPublicKey(), createAccount(), {}, { exp: 2_000_000_000 })
  return new TextDecoder().decode(fmtCreds(jwt, user))
}
