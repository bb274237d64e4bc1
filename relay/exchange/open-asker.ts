import { loadMemberKeys } from '../crypto'
import { nodeConnect } from './node-connect'
import { RelayLink, type RelayLinkOptions } from './relay-link'
import { RemoteAsker } from './remote-asker'

/**
 * The parts of an agent's relay file (`agent/relay-file.ts`, parsed there) that asking needs: the
 * relay URL, the `.creds` text, the agent's stored member secret and the root key to pin.
 */
export interface AgentRelayConfig {
  url: string
  creds: string
  /** The agent's member secret as stored in the file; its member name is the credential's name. */
  agent: unknown
  rootPublicKey: string
}

/**
 * Loads the agent's keys (`KEY_INVALID` when damaged), connects with its credential (see
 * `RelayLink.open`: `RELAY_NEVER_REACHED`, `RELAY_DENIED`, URL and server refusals) and returns the
 * asker with its link; the caller closes the link when done.
 */
export async function openRemoteAsker(
  config: AgentRelayConfig,
  options: Pick<RelayLinkOptions, 'reachTimeoutMs' | 'allowOutdatedLoopback' | 'reconnectWaitMs' | 'signal'> & {
    highestSeenRosterVersion?: number
  } = {},
): Promise<{ asker: RemoteAsker; link: RelayLink }> {
  const agent = await loadMemberKeys(config.agent)
  const { highestSeenRosterVersion, ...linkOptions } = options
  const link = await RelayLink.open({
    url: config.url,
    connect: nodeConnect,
    creds: config.creds,
    name: agent.member.name,
    ...linkOptions,
  })
  const asker = new RemoteAsker({
    link,
    agent,
    rootPublicKey: config.rootPublicKey,
    ...(highestSeenRosterVersion === undefined ? {} : { highestSeenRosterVersion }),
  })
  return { asker, link }
}
