// Revoking a removed device's NATS user: the account JWT is re-signed with every revocation so far and
// pushed through the system account (`$SYS.REQ.CLAIMS.UPDATE`); the server closes that user's live
// connections and refuses its credential from then on (RELAY.md §3.2 measured 19 ms).
import type { RelayKeys } from '../../relay/nats/keys-file'
import { pushPersonAccount } from '../../relay/home/account-push'
import { CLI_SERVER_CHECKS } from '../../relay/home/desktop-link'

/**
 * Pushes the person's account JWT with `revocations` (user public key → seconds since the epoch; every
 * JWT of that user issued up to then is refused) and records the push in `home`. Resolves true when the
 * server says it took it.
 */
export async function pushRevocations(
  home: string,
  url: string,
  keys: RelayKeys,
  revocations: Record<string, number>,
): Promise<boolean> {
  return pushPersonAccount(home, url, keys, revocations, { server: CLI_SERVER_CHECKS })
}
