// `ask-user relay add-agent NAME`: a scoped agent credential, the agent's keys and the pinned root key
// in one new 0600 file, and the agent added to the relay's roster at once.
import { createPrivateFile, removeFile } from '../../core/private-files'
import { generateMemberIdentity, verifyRoster, type Member, type Roster } from '../../relay/crypto'
import { checkName, mintAgentCredential, parseTtl } from '../../relay/nats/credentials'
import { loadRelayKeys } from '../../relay/nats/keys-file'
import { checkRelayUrl } from '../../relay/nats/server-version'
import { AgentRelayFileSchema } from './agent-file'
import { RelayCodedError } from '../../relay/coded-error'
import { RelayCliError } from './errors'
import { openDesktopLink, type DesktopLink } from '../../relay/home/desktop-link'
import { pushSectionForMembers } from '../../relay/home/push-roster'
import { publishRosterChange } from '../../relay/home/roster-change'
import { loadRelayState, loadRenewals, RenewalsSchema, RENEWALS_FILE, saveJson } from '../../relay/home/state'

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
 * Checks everything it can here first (name, TTL, URL, the stored roster against the pinned root key),
 * writes the agent file, then adds the agent to the relay's roster at once through the conflict-retrying
 * path (relay/home/roster-change.ts: another desktop's change published meanwhile is kept, and a name it
 * took meanwhile is refused), which also stores it here; last, the credential's expiry in the renewals
 * record (which the Relay view reads). An agent can ask only once the relay's roster lists it, so a relay
 * that cannot be reached refuses the command (`RELAY_UNREACHABLE`) and the file is removed again: nothing
 * is left half done. Throws `RELAY_BAD_NAME`, `RELAY_BAD_TTL`, `RELAY_NO_URL`, `RELAY_NAME_TAKEN`,
 * `RELAY_NOT_INITIALIZED`, `RELAY_UNREACHABLE`, a URL, roster or desktop-link code, or a PrivateFileError /
 * EEXIST for `out`.
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
  const stored = await verifyRoster(state.roster.bytes, state.roster.signature, state.settings.rootPublicKey, {
    highestSeenVersion: 0,
    now: now(),
  })
  refuseTakenName(stored, options.name)
  const credential = await mintAgentCredential(
    { accountPublicKey: keys.accountPublicKey, signingSeed: keys.roleSigningSeeds.agent, now },
    options.name,
    ttlSeconds,
  )
  const agent = await generateMemberIdentity(options.name, 'agent')
  const file = AgentRelayFileSchema.parse({
    v: 1,
    url,
    creds: credential.creds,
    credsExpiresAt: credential.expiresAt,
    agent: agent.secret,
    rootPublicKey: state.settings.rootPublicKey,
  })
  await createPrivateFile(options.out, `${JSON.stringify(file, null, 2)}\n`)
  let rosterVersion: number
  try {
    rosterVersion = await publishAgent(options.home, agent.member, now)
  } catch (error) {
    await removeFile(options.out).catch(() => undefined)
    throw error
  }
  const renewals = await loadRenewals(options.home)
  const agents = { ...renewals.agents, [agent.member.id]: { expiresAt: credential.expiresAt * 1000 } }
  await saveJson(options.home, RENEWALS_FILE, RenewalsSchema, { ...renewals, agents })
  return { memberId: agent.member.id, rosterVersion, credsExpiresAt: credential.expiresAt }
}

// The NATS credential is scoped by name ({{name()}}), so two agents of one name would share a mailbox.
function refuseTakenName(roster: Roster, name: string): void {
  if (roster.members.some((member) => member.name === name))
    throw new RelayCliError('RELAY_NAME_TAKEN', `The roster already lists "${name}"; pick another agent name.`)
}

// Adds `member` on top of the relay's newest roster (re-sealing the push section to it too, so it can
// wake the phones from its first ask) and resolves with the version published.
async function publishAgent(home: string, member: Member, now: () => number): Promise<number> {
  let link: DesktopLink
  try {
    link = await openDesktopLink(home, now)
  } catch (error) {
    throw unreachable(error)
  }
  try {
    const next = await publishRosterChange(link, home, now, async (current) => {
      refuseTakenName(current, member.name)
      const members = [...current.members, member]
      return { members, push: await pushSectionForMembers(home, current, members) }
    })
    return next.roster.version
  } catch (error) {
    throw unreachable(error)
  } finally {
    await link.nc.close()
  }
}

// The relay's own refusals (a code of relay/*) are passed on as they are; anything else is the
// connection failing (refused, timed out, closed).
function unreachable(error: unknown): unknown {
  if (error instanceof RelayCodedError || error instanceof RelayCliError) return error
  return new RelayCliError(
    'RELAY_UNREACHABLE',
    `The relay could not be reached (${error instanceof Error ? error.message : String(error)}); the agent was not added and no file was left. An agent can ask only once the relay lists it: start the relay's nats-server (or check this desktop reaches it), then run the command again.`,
  )
}
