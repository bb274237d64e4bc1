// `ask-user relay add-agent NAME`: a scoped agent credential, the agent's keys and the pinned root key
// in one new 0600 file, and the agent added to a re-signed roster.
import { createPrivateFile } from '../../core/private-files'
import { generateMemberIdentity, loadRootKeys, renewRoster, verifyRoster } from '../../relay/crypto'
import { checkName, mintAgentCredential, parseTtl } from '../../relay/nats/credentials'
import { loadRelayKeys } from '../../relay/nats/keys-file'
import { checkRelayUrl } from '../../relay/nats/server-version'
import { AgentRelayFileSchema } from './agent-file'
import { RelayCliError } from './errors'
import { pushSectionForMembers } from '../../relay/home/push-roster'
import {
  loadRelayState,
  loadRenewals,
  RenewalsSchema,
  RENEWALS_FILE,
  saveJson,
  saveRoster,
} from '../../relay/home/state'

/** What {@link addAgent} needs; `now` (ms) is injectable for tests. */
export interface AddAgentOptions {
  home: string
  name: string
  /** A duration like 12h (the default); agents may have up to 30 days. */
  ttl?: string
  /** The new file to write (refused when it exists or is a link). */
  out: string
  /** Overrides the URL given to init. */
  url?: string
  now?: () => number
}

/** The public outcome, for the command's confirmation line. */
export interface AddedAgent {
  memberId: string
  rosterVersion: number
  credsExpiresAt: number
}

/**
 * Checks everything first (name, TTL, URL, the stored roster against the pinned root key), then writes
 * the agent file, then stores the re-signed roster (version + 1) and the credential's expiry in the
 * renewals record (which the Relay view reads). Throws `RELAY_BAD_NAME`,
 * `RELAY_BAD_TTL`, `RELAY_NO_URL`, `RELAY_NAME_TAKEN`, `RELAY_NOT_INITIALIZED`, a URL or roster code, or
 * a PrivateFileError / EEXIST for `out`.
 */
export async function addAgent(options: AddAgentOptions): Promise<AddedAgent> {
  const now = options.now ?? Date.now
  checkName(options.name)
  const ttlSeconds = parseTtl(options.ttl ?? '12h')
  const state = await loadRelayState(options.home)
  const keys = await loadRelayKeys(options.home)
  const url = options.url ?? state.settings.url
  if (url === undefined)
    throw new RelayCliError(
      'RELAY_NO_URL',
      'No relay URL is known; pass --url tls://relay.example:4222 (or wss://...).',
    )
  checkRelayUrl(url)
  const current = await verifyRoster(state.roster.bytes, state.roster.signature, state.settings.rootPublicKey, {
    highestSeenVersion: 0,
    now: now(),
  })
  // The NATS credential is scoped by name ({{name()}}), so two agents of one name would share a mailbox.
  if (current.members.some((member) => member.name === options.name)) {
    throw new RelayCliError('RELAY_NAME_TAKEN', `The roster already lists "${options.name}"; pick another agent name.`)
  }
  const credential = await mintAgentCredential(
    { accountPublicKey: keys.accountPublicKey, signingSeed: keys.roleSigningSeeds.agent, now },
    options.name,
    ttlSeconds,
  )
  const agent = await generateMemberIdentity(options.name, 'agent')
  const members = [...current.members, agent.member]
  const next = await renewRoster(await loadRootKeys(state.root), current, {
    now: now(),
    members,
    // Re-sealed to the new agent too, so it can wake the phones from its first ask.
    push: await pushSectionForMembers(options.home, current, members),
  })
  const file = AgentRelayFileSchema.parse({
    v: 1,
    url,
    creds: credential.creds,
    credsExpiresAt: credential.expiresAt,
    agent: agent.secret,
    rootPublicKey: state.settings.rootPublicKey,
  })
  await createPrivateFile(options.out, `${JSON.stringify(file, null, 2)}\n`)
  // The expiry first: the view reloads both when the roster file changes, and the new agent then has it.
  const renewals = await loadRenewals(options.home)
  const agents = { ...renewals.agents, [agent.member.id]: { expiresAt: credential.expiresAt * 1000 } }
  await saveJson(options.home, RENEWALS_FILE, RenewalsSchema, { ...renewals, agents })
  await saveRoster(options.home, next)
  return { memberId: agent.member.id, rosterVersion: next.roster.version, credsExpiresAt: credential.expiresAt }
}
