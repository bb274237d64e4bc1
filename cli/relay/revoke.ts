// Revoking a removed device's NATS user: the account JWT is re-signed with every revocation so far and
// pushed through the system account (`$SYS.REQ.CLAIMS.UPDATE`); the server closes that user's live
// connections and refuses its credential from then on (RELAY.md §3.2 measured 19 ms).
import { z } from 'zod'
import type { RelayKeys } from '../../relay/nats/keys-file'
import { encodePersonAccount } from '../../relay/nats/operator'
import { connectRelay } from '../../relay/pairing'
import { CLI_SERVER_CHECKS } from '../../relay/home/desktop-link'

const ClaimsUpdateReplySchema = z
  .object({ data: z.object({ code: z.number() }).passthrough().optional(), error: z.unknown().optional() })
  .passthrough()

/**
 * Pushes the person's account JWT with `revocations` (user public key → seconds since the epoch; every
 * JWT of that user issued up to then is refused). Resolves true when the server says it took it.
 */
export async function pushRevocations(
  url: string,
  keys: RelayKeys,
  revocations: Record<string, number>,
): Promise<boolean> {
  const jwt = await encodePersonAccount(
    keys.accountPublicKey,
    keys.operatorSigningSeed,
    keys.roleSigningSeeds,
    revocations,
  )
  const nc = await connectRelay(url, keys.systemUserCreds, 'ask-user-sys', CLI_SERVER_CHECKS)
  try {
    const reply = await nc.request('$SYS.REQ.CLAIMS.UPDATE', jwt, { timeout: 5_000 })
    const parsed = ClaimsUpdateReplySchema.safeParse(JSON.parse(new TextDecoder().decode(reply.data)))
    return parsed.success && parsed.data.error === undefined && parsed.data.data?.code === 200
  } finally {
    await nc.close()
  }
}
