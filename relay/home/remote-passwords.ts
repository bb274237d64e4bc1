// Which remote agents this desk answers secret asks (passwords) for: `ask-user relay passwords allow|deny`.
// A per-desk choice kept 0600 in the companion's 0700 home; nothing of it goes to the relay. Agents are
// kept by roster member id (an id names exactly one key), with the roster's name for listing.
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../core/private-files'
import { verifyRoster, type Member } from '../crypto'
import { RelayHomeError } from './errors'
import { loadRosterAndSettings, readJsonFile } from './state'

/** The file in the companion's home (0600). */
export const REMOTE_PASSWORDS_FILE = 'relay-remote-passwords.json'

/** The agents allowed remote passwords on this desk, each by roster id and name, with when it was allowed. */
export const RemotePasswordsSchema = z.strictObject({
  v: z.literal(1),
  agents: z.array(z.strictObject({ id: z.string().min(1), name: z.string().min(1), allowedAt: z.int().min(0) })),
})
export type RemotePasswords = z.infer<typeof RemotePasswordsSchema>

const NONE: RemotePasswords = { v: 1, agents: [] }

/**
 * The stored setting; an absent file means no agent is allowed. A damaged file is `RELAY_BAD_STATE`
 * (the bridge then allows nobody: a broken setting never opens the way for a password).
 */
export async function loadRemotePasswords(home: string): Promise<RemotePasswords> {
  const stored = await readJsonFile(
    home,
    REMOTE_PASSWORDS_FILE,
    RemotePasswordsSchema,
    `${REMOTE_PASSWORDS_FILE} in the companion's home is damaged; delete it and allow the agents again.`,
  )
  return stored ?? NONE
}

/**
 * Allows (`allow: true`) or stops allowing remote passwords for the agent called `name` in the roster this
 * home holds, verified against the pinned root key. Resolves the agent and whether anything changed.
 * Throws `RELAY_NO_SUCH_AGENT` for a name the roster does not list as an agent, the roster's refusals
 * (`ROSTER_*`), `RELAY_NOT_INITIALIZED` without a relay.
 */
export async function setRemotePasswords(
  home: string,
  name: string,
  allow: boolean,
  now: () => number = Date.now,
): Promise<{ agent: Member; changed: boolean }> {
  const { roster: stored, settings } = await loadRosterAndSettings(home)
  const roster = await verifyRoster(stored.bytes, stored.signature, settings.rootPublicKey, {
    highestSeenVersion: 0,
    now: now(),
  })
  const agent = roster.members.find((member) => member.name === name && member.role === 'agent')
  if (agent === undefined)
    throw new RelayHomeError(
      'RELAY_NO_SUCH_AGENT',
      `The roster lists no agent called "${name}"; run \`ask-user relay devices\` for the names (on a paired device, \`ask-user relay renew\` first fetches the newest roster).`,
    )
  const current = await loadRemotePasswords(home)
  const others = current.agents.filter((entry) => entry.id !== agent.id)
  const had = others.length !== current.agents.length
  if (had === allow) return { agent, changed: false }
  const agents = allow ? [...others, { id: agent.id, name: agent.name, allowedAt: now() }] : others
  const next = RemotePasswordsSchema.parse({ v: 1, agents })
  await writeFileAtomic(join(home, REMOTE_PASSWORDS_FILE), `${JSON.stringify(next, null, 2)}\n`)
  return { agent, changed: true }
}
