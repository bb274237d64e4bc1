// Reaching the relay for the bridge (bridge.ts): dialling until it answers, and following the link's ups
// and downs, each told to the windows (a notice while it is unreachable, the Relay view's link line).
import { setTimeout as delay } from 'node:timers/promises'
import { isRelayExchangeError, nodeConnect, RelayLink } from '../../relay/exchange'
import { CLI_SERVER_CHECKS } from '../../relay/home/desktop-link'
import type { RelayNotices } from './relay-notices'
import type { RelayBridgeContext } from './start'

/** How long one attempt to reach the relay lasts before the bridge says it is unreachable and tries again. */
const REACH_MS = 5_000

/** Where the windows hear about the link. */
export interface LinkWitnesses {
  notices: RelayNotices
  relayState: RelayBridgeContext['relayState']
}

/**
 * Opens the link to `url` as `name` (asking `creds` for the credential at every connect), retrying until
 * it is reached or `signal` aborts (then `undefined`); a refusal (credential, URL, server) throws.
 */
export async function reachRelay(
  target: { url: string; name: string; creds: () => string },
  told: LinkWitnesses,
  signal: AbortSignal,
): Promise<RelayLink | undefined> {
  while (!signal.aborted) {
    try {
      const link = await RelayLink.open({
        url: target.url,
        connect: nodeConnect,
        creds: target.creds,
        name: target.name,
        ...CLI_SERVER_CHECKS,
        reachTimeoutMs: REACH_MS,
      })
      if (signal.aborted) {
        await link.close()
        return undefined
      }
      told.notices.reachable()
      told.relayState.connected()
      return link
    } catch (error) {
      if (!isRelayExchangeError(error, 'RELAY_NEVER_REACHED')) throw error
      told.notices.unreachable(target.url)
      told.relayState.unreachable()
      await delay(1_000, undefined, { signal }).catch(() => undefined)
    }
  }
  return undefined
}

/** Tells the windows every time `link` drops and comes back, until it closes. */
export async function followLink(link: RelayLink, url: string, told: LinkWitnesses): Promise<void> {
  for await (const status of link.nc.status()) {
    if (status.type === 'disconnect') {
      told.notices.unreachable(url)
      told.relayState.unreachable()
    }
    if (status.type === 'reconnect') {
      told.notices.reachable()
      told.relayState.connected()
    }
  }
}
